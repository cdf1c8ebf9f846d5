"""The parts of the game-sequence engine (`judgekit.recorder.engine.Engine` puts them
together), one module per concern."""
