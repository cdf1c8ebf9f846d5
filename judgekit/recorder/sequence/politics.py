"""Political actions: referendum terms, polling and votes (announcement guidelines, votes)."""
from __future__ import annotations

from judgekit.recorder.sequence.common import Action


class PoliticsMixin:
    """Referendum terms, polling and votes."""

    def _political(self) -> Action | None:
        a = self.action
        if a is not None and a.kind == "political":
            return a
        return None

    def _succeed_if_open(self, seq: int) -> None:
        a = self.action
        if a is not None and not a.resolved and not a.polling:
            # Terms and votes come once the action succeeded: every pass must be in.
            a.polling = True
            self._resolve_checks_only(seq)

    def _resolve_checks_only(self, seq: int) -> None:
        a = self.action
        if not a.actor_passed and "action-pass-missing" not in a.flagged:
            a.flagged.add("action-pass-missing")
            self.flag("action-pass-missing", seq,
                      f"The action of {self.who(a.seat)} went on without the acting player passing.",
                      seat=a.seat)
        missing = [s for s in a.eligible if s not in a.done]
        if missing and "block-pass-missing" not in a.flagged:
            a.flagged.add("block-pass-missing")
            self.flag("block-pass-missing", seq,
                      "The action succeeded without " + " and ".join(self.who(s) for s in missing)
                      + " passing on the block opportunity.", seat=missing[0])

    def _on_referendum_terms(self, e) -> None:
        a = self._political()
        if a is None or a.resolved:
            return
        if a.polling or (a.actor_passed and all(s in a.done for s in a.eligible)):
            self._succeed_if_open(e["seq"])
            a.terms_confirmed = True
        else:
            a.terms_required = True  # terms negotiated before success: must be confirmed later

    def _on_vote(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        a = self._political()
        if a is not None and not a.resolved:
            first = not a.polling
            self._succeed_if_open(seq)
            if first and a.terms_required and not a.terms_confirmed \
                    and "terms-unconfirmed" not in a.flagged:
                a.flagged.add("terms-unconfirmed")
                self.flag("terms-unconfirmed", seq,
                          "Polling started without the terms of the political action being "
                          "confirmed (\"terms are as announced\" suffices).", seat=a.seat)
        votes, side = e.get("votes"), e.get("side")
        if votes is None or side is None:
            lack = " and ".join(x for x, v in (("the number of votes", votes), ("the side", side))
                                if v is None)
            self.flag("vote-incomplete", seq,
                      f"{self.who(seat)} announces votes without {lack}.", seat=seat)
        available = e.get("available")
        if available is None:
            available = self._available_votes(seat)
        if votes is not None and available is not None and votes < available \
                and not e.get("vampire"):
            self.flag("vote-vampire-missing", seq,
                      f"{self.who(seat)} commits {votes} of {available} available votes without "
                      "naming the vampire who votes.", seat=seat)

    def _available_votes(self, seat: int) -> int | None:
        minions = self.board.get(seat)
        if not minions or self.cards is None:
            return None
        try:
            from judgekit.recorder.cards import VOTES_BY_TITLE
        except ImportError:
            VOTES_BY_TITLE = getattr(self.cards, "VOTES_BY_TITLE", None)
        total = 0
        for name in minions:
            vampire = self.crypt(name)
            if vampire is None:
                continue
            votes = getattr(vampire, "votes", None)
            if votes is None and VOTES_BY_TITLE:
                votes = VOTES_BY_TITLE.get(getattr(vampire, "title", None) or "", 0)
            total += int(votes or 0)
        return total

    def _on_referendum_result(self, e) -> None:
        a = self._political()
        if a is not None and not a.resolved:
            a.outcome = "success"
            self._resolve(e["seq"], implicit=False)
