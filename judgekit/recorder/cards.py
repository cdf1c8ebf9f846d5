"""Moved to `judgekit.game.cards` (the game layer, issue 26). This name stays for code
written before the move, until the branches in flight are merged: import
`judgekit.game.cards` instead."""
from judgekit.game.cards import *  # noqa: F401,F403
from judgekit.game.cards import __all__, clear_cache, read_cards_file  # noqa: F401
