"""What is on the table: the minions in play at each seat."""
from __future__ import annotations


class BoardMixin:
    """The minions in play at each seat."""

    def _on_minion_in(self, e) -> None:
        self.board.setdefault(e["seat"], [])
        if e["minion"] not in self.board[e["seat"]]:
            self.board[e["seat"]].append(e["minion"])

    def _on_minion_out(self, e) -> None:
        minions = self.board.get(e["seat"], [])
        if e["minion"] in minions:
            minions.remove(e["minion"])
