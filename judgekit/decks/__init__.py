"""Decklists (tournament rules 6.3, 7.2.3): registration, validation against the deck
construction rules, deck checks each round, and the winner's and finalists' lists once the
event is over. See docs/tournament.md, "Decklists"."""
