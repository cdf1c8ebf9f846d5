"""Political actions: referendum terms, polling and votes (announcement guidelines, votes).

A political action that succeeds leads to its referendum: the acting player chooses the
terms (where the card offers a choice they must be confirmed at that point, even if they
were negotiated before), then each seat announces its votes, round the table from the
acting seat. The success may be recorded (`action.result`) or implied (terms or a vote
after every block pass); either way the terms and the votes that follow are checked the
same. The referendum ends with `referendum.result` (or implicitly with the next action,
phase or turn).
"""
from __future__ import annotations

from judgekit.i18n import Message
from judgekit.recorder.sequence.common import Action, said_list


class PoliticsMixin:
    """Referendum terms, polling and votes."""

    def _political(self) -> Action | None:
        a = self.action
        if a is not None and a.kind == "political":
            return a
        return None

    def _is_political_card(self, name: str | None) -> bool:
        lib = self.library(name)
        types = [str(x).lower() for x in (getattr(lib, "types", None) or [])]
        return "political action" in types

    def _political_terms(self, a: Action, e) -> None:
        """A political action card whose text offers a choice (targets, amounts: the card
        facts' `needs`) has terms that must be confirmed when the action succeeds."""
        a.kind = "political" if a.kind in ("card", "other") else a.kind
        lib = self.library(e.get("card"))
        needs = set(getattr(lib, "needs", ()) or ())
        if needs & {"target", "amount"}:
            a.terms_card = lib.name
            a.terms_required = True

    def _succeed_if_open(self, seq: int) -> None:
        a = self.action
        if a is not None and not a.resolved and not a.polling:
            # Terms and votes come once the action succeeded: every pass must be in.
            a.polling = True
            a.outcome = a.outcome or "success"
            self._resolve_checks_only(seq)

    def _resolve_checks_only(self, seq: int) -> None:
        a = self.action
        if not a.actor_passed and "action-pass-missing" not in a.flagged:
            a.flagged.add("action-pass-missing")
            self.flag("action-pass-missing", seq,
                      Message("recorder.finding.political-not-passed", "The political action of %(actor)s went "
                              "on to its referendum without the acting player passing.",
                              actor=self.who_said(a.seat)), seat=a.seat)
        self._missing_passes(seq, political=True)

    def _start_ballot(self, seq: int) -> None:
        """Polling begins (the first vote, or the result): the terms must be confirmed."""
        a = self.action
        if a.ballot:
            return
        a.ballot = True
        if a.terms_required and not a.terms_confirmed and "terms-unconfirmed" not in a.flagged:
            a.flagged.add("terms-unconfirmed")
            what = Message("recorder.finding.terms-of-card", "the terms of %(card)s (terms that present a choice)",
                           card=a.terms_card) if a.terms_card else \
                Message("recorder.finding.terms", "the terms (terms that present a choice)")
            if a.terms_given:
                message = Message("recorder.finding.terms-not-confirmed", "Polling started without %(actor)s "
                                  "confirming %(what)s once the political action succeeded, although they were "
                                  "announced before (\"terms are as announced\" suffices).",
                                  actor=self.who_said(a.seat), what=what)
            else:
                message = Message("recorder.finding.terms-not-announced", "Polling started without %(actor)s "
                                  "announcing %(what)s once the political action succeeded.",
                                  actor=self.who_said(a.seat), what=what)
            self.flag("terms-unconfirmed", seq, message, seat=a.seat)

    def _on_referendum_terms(self, e) -> None:
        a = self._political()
        if a is None or a.resolved:
            return
        if e.get("terms") and e["terms"].strip().lower() not in ("as announced", "terms as announced"):
            a.terms_given = True
        if a.polling or (a.actor_passed and all(s in a.done for s in a.eligible)):
            self._succeed_if_open(e["seq"])
            if not a.ballot:
                a.terms_confirmed = True
        else:
            a.terms_required = True  # terms negotiated before success: must be confirmed later
            a.terms_given = True

    def _on_vote(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        if seat in self.out:
            return   # a player out of the game has no vote (the API refuses it: `refusal`)
        a = self._political()
        if a is not None and not a.resolved:
            self._succeed_if_open(seq)
            self._start_ballot(seq)
            a.votes.setdefault(seat, []).append((e.get("votes"), e.get("side"), e.get("vampire")))
        votes, side = e.get("votes"), e.get("side")
        if side == "abstain":   # a seat that says it does not vote: nothing more to state
            return
        if votes is None or side is None:
            lack = said_list([x for x, v in ((Message("recorder.finding.vote-number", "the number of votes"), votes),
                                             (Message("recorder.finding.vote-side", "the side"), side))
                              if v is None])
            self.flag("vote-incomplete", seq,
                      Message("recorder.finding.vote-incomplete", "%(who)s announces votes without %(lack)s.",
                              who=self.who_said(seat), lack=lack), seat=seat)
        available = e.get("available")
        if available is None:
            available = self._available_votes(seat)
        if votes is not None and available is not None and votes < available \
                and not e.get("vampire"):
            self.flag("vote-vampire-missing", seq,
                      Message("recorder.finding.vote-vampire-missing", "%(who)s commits %(votes)s of %(available)s "
                              "available votes (not counting optional effects) without naming the vampire who "
                              "votes.", who=self.who_said(seat), votes=votes, available=available), seat=seat)

    def _available_votes(self, seat: int) -> int | None:
        """The votes of the board stated for `seat` (board.py), or None when none is known."""
        minions = self.board.get(seat)
        if not minions or self.cards is None:
            return None
        return sum(self.minion_facts(name)["votes"] for name in minions)

    def next_voter(self) -> int | None:
        """The next seat to vote: round the table from the acting seat, skipping the seats
        that voted; None when every seat in the game voted."""
        a = self.action
        if a is None:
            return None
        live = self.active()
        if a.seat in live:
            i = live.index(a.seat)
            live = live[i:] + live[:i]
        return next((s for s in live if s not in a.votes), None)

    def _on_referendum_result(self, e) -> None:
        a = self._political()
        if a is not None and not a.resolved:
            self._succeed_if_open(e["seq"])
            self._start_ballot(e["seq"])
            if a.votes:
                yes, no = a.vote_totals()
                self.context = {"for": yes, "against": no}
            a.outcome = "success"
            a.referendum = "passed" if e["passed"] else "failed"
            self._resolve(e["seq"], implicit=False)
