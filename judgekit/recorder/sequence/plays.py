"""Cards and other plays: card play and replacement (forbidden shortcuts), the required
choices of a card (card declaration), disciplines, transfers, discards and cancels."""
from __future__ import annotations

from typing import Any

from judgekit.game.cards import DISCIPLINES
from judgekit.i18n import Message
from judgekit.recorder.sequence.common import RANK, minion_level, said_list

CHOICE_WORDS = {"discipline": "which discipline is used", "level": "the level (inferior or superior)",
                "x": "the value of X", "target": "the target", "amount": "the amount"}


def choice_list(keys: list[str]) -> str:
    """"the level (inferior or superior) and the target": the missing choices in words."""
    said = [CHOICE_WORDS[k] for k in keys]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


# The same, as parts of a finding's message.
CHOICE_SAID = {"discipline": Message("recorder.finding.choice-discipline", "which discipline is used"),
               "level": Message("recorder.finding.choice-level", "the level (inferior or superior)"),
               "x": Message("recorder.finding.choice-x", "the value of X"),
               "target": Message("recorder.finding.choice-target", "the target"),
               "amount": Message("recorder.finding.choice-amount", "the amount")}


def is_political_card(lib) -> bool:
    return "political action" in [str(x).lower() for x in (getattr(lib, "types", None) or [])]


def missing_choices(lib, event: dict[str, Any], vampire=None) -> list[str]:
    """The required choices a card play leaves unannounced (card declaration).

    `lib` is the played library card, `event` the play (card.play, reaction,
    action.declare, ...), `vampire` the crypt card of its minion (None if unknown). Returns
    keys among "discipline", "level", "x", "target", "amount" (`CHOICE_WORDS` says them in
    words). The level counts only when the minion could use more than one level. The
    targets and amounts of a political action card are its referendum's terms, chosen when
    the action succeeds (the acting player confirms them then, `terms-unconfirmed`): they
    are not choices of the card's play.
    """
    needs = set(getattr(lib, "needs", ()) or ())
    requirement = getattr(lib, "requirement", "none") or "none"
    card_discs = [d.lower() for d in (getattr(lib, "disciplines", ()) or ())]
    declared = event.get("discipline")
    declared = declared if isinstance(declared, list) else ([declared] if declared else [])
    missing = []
    if "discipline" in needs and requirement == "choice" and not declared:
        missing.append("discipline")
    if "level" in needs and not declared and not event.get("level") and vampire is not None:
        used = card_discs if requirement != "choice" else []
        levels = getattr(lib, "levels", {}) or {}
        if any(len(levels.get(d, ())) > 1 and minion_level(vampire, d) >= 2 for d in used):
            missing.append("level")
    if "x" in needs and event.get("x") is None:
        missing.append("x")
    terms = bool(event.get("terms")) and event.get("type") == "action.declare" or is_political_card(lib)
    if "target" in needs and not event.get("target") and not event.get("target_seat") and not terms:
        missing.append("target")
    if "amount" in needs and event.get("amount") is None and not terms:
        missing.append("amount")
    return missing


class PlaysMixin:
    """Card plays, replacement, card checks, transfers, discards, cancels."""

    def _on_card_play(self, e) -> None:
        if not self._interrupt_like(e):
            return
        self._card_play(e, role="card")

    def _on_reaction(self, e) -> None:
        if self._reads_as_redirect(e):
            self._on_action_redirect(e)   # Deflection recorded as a plain reaction
            return
        if not self._interrupt_like(e):
            return
        if e.get("card"):
            self._card_play(e, role="reaction")
        else:
            self._on_action_effect(e, Message("recorder.finding.does-play-reaction", "plays a reaction"))

    def _on_effect(self, e) -> None:
        self._interrupt_like(e)
        a = self.action
        if a is not None and not a.resolved and e["seat"] != a.seat and not e.get("window") \
                and not e.get("phase"):
            self._on_action_effect(e, Message("recorder.finding.does-use", "uses %(effect)s", effect=e["name"]))

    def _on_transfer(self, e) -> None:
        # Consecutive transfers are one effect: only the first moves the sequence.
        if self.last_play and self.last_play["type"] == "transfer" \
                and self.last_play["seat"] == e["seat"] and self.pos == RANK["influence"]:
            return
        if e["seat"] == self.turn_seat:
            self._resolve(e["seq"], implicit=True)
        self._sequence(e)

    def _on_discard(self, e) -> None:
        if e["seat"] == self.turn_seat:
            self._resolve(e["seq"], implicit=True)
        self._sequence(e)

    def _card_play(self, e, role: str) -> None:
        seq, seat = e["seq"], e["seat"]
        name = e.get("card")
        # Replacement: the previous card of this player must have been replaced.
        if name:
            prior = self.pending.get(seat)
            if prior is not None:
                self.flag("replace-missing", seq,
                          Message("recorder.finding.replace-missing", "%(who)s plays %(card)s before replacing "
                                  "%(prior)s (event %(seq)s), a card with no delay in its replacement.",
                                  who=self.who_said(seat), card=name, prior=prior[1], seq=prior[0]),
                          seat=seat)
            lib = self.library(name)
            delays = e.get("delays_replacement")
            if delays is None:
                delays = bool(getattr(lib, "delays_replacement", False)) if lib is not None else False
            if not delays:
                self.pending[seat] = (seq, name)
            self.plays.append((seq, seat, name))
            self._card_checks(e, lib, role)
        a = self.action
        if a is None or a.resolved:
            return
        if role in ("card", "reaction") and seat != a.seat:
            self._on_action_effect(e, Message("recorder.finding.does-play-card", "plays %(card)s", card=name)
                                   if name else Message("recorder.finding.does-play-a-card", "plays a card"))
        if e.get("bleed_change") and a.kind == "bleed":
            if e.get("bleed_total") is not None:
                a.amount = e["bleed_total"]
            else:
                a.amount = (a.amount or 0) + e["bleed_change"] if a.amount is not None else None
                a.restate_pending = seq
        elif e.get("bleed_total") is not None and a.kind == "bleed":
            a.amount = e["bleed_total"]
            a.restate_pending = None

    def _card_checks(self, e, lib, role: str) -> None:
        """Required choices (card declaration) and disciplines the minion must have."""
        if lib is None:
            return
        seq, seat = e["seq"], e["seat"]
        name = lib.name
        needs = set(getattr(lib, "needs", ()) or ())
        requirement = getattr(lib, "requirement", "none") or "none"
        card_discs = [d.lower() for d in (getattr(lib, "disciplines", ()) or ())]
        declared = e.get("discipline")
        declared = declared if isinstance(declared, list) else ([declared] if declared else [])
        level_word = e.get("level")
        vampire = self.crypt(e.get("minion"))
        missing = missing_choices(lib, e, vampire)
        if missing:
            choices = said_list([CHOICE_SAID[k] for k in missing], commas=True)
            said = Message("recorder.finding.choice-missing-before-replacing", "%(who)s plays %(card)s without "
                           "announcing %(choices)s before replacing it: the player is not bound to any choice "
                           "(misplay).", who=self.who_said(seat), card=name, choices=choices) \
                if "amount" in needs else \
                Message("recorder.finding.choice-missing", "%(who)s plays %(card)s without announcing "
                        "%(choices)s: the player is not bound to any choice (misplay).",
                        who=self.who_said(seat), card=name, choices=choices)
            self.flag("card-choice-missing", seq, said, seat=seat)
        if vampire is None:
            return
        # Which disciplines at which level does the declaration use?
        if declared:
            used = [(d.lower(), 2 if (d.isupper() or level_word == "superior") else 1) for d in declared]
        elif requirement in ("single", "combo"):
            lv = 2 if level_word == "superior" else 1
            used = [(d, lv) for d in card_discs]
        else:
            used = []
        lacking = [(d, lv) for d, lv in used if self.minion_level(vampire, d) < lv]
        if lacking:
            what = said_list([Message("recorder.finding.superior-discipline", "superior %(discipline)s",
                                      discipline=DISCIPLINES.get(d, d)) if lv == 2 else DISCIPLINES.get(d, d)
                              for d, lv in lacking], last="or")
            section = "action-declaration" if role == "action" else "card-declaration"
            self.flag("discipline-unavailable", seq,
                      Message("recorder.finding.discipline-unavailable", "%(who)s: %(vampire)s does not have "
                              "%(what)s, so playing %(card)s this way is impossible: the declaration is void "
                              "and not binding (misplay).", who=self.who_said(seat), vampire=vampire.name,
                              what=what, card=name),
                      seat=seat, section=section)

    def _on_card_replace(self, e) -> None:
        self.pending.pop(e["seat"], None)

    def _on_cancel(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        target = None
        if e.get("target_seq"):
            target = next((p for p in self.plays if p[0] == e["target_seq"]), None)
        elif e.get("target_card"):
            target = next((p for p in reversed(self.plays) if p[2] == e["target_card"]), None)
        wait = self.waits.pop(seat, None)
        if target is not None:
            later = [p for p in self.plays if p[0] > target[0] and p[1] != seat]
            if wait is not None and wait > target[0]:
                # this seat said "wait" while the window was open: it held the window, and
                # what others played after the "wait" does not close it (docs: "Wait!")
                later = [p for p in later if p[0] < wait]
            if later:
                said = Message("recorder.finding.wake-too-late", "%(who)s wants to wake against %(card)s "
                               "(event %(seq)s), but %(later)s was already announced after it.",
                               who=self.who_said(seat), card=target[2], seq=target[0], later=later[0][2]) \
                    if e.get("wake") else \
                    Message("recorder.finding.cancel-too-late", "%(who)s wants to cancel %(card)s (event %(seq)s), "
                            "but %(later)s was already announced after it.",
                            who=self.who_said(seat), card=target[2], seq=target[0], later=later[0][2])
                self.flag("cancel-too-late", seq, said, seat=seat)
                return
        if e.get("card"):
            self._card_play(e, role="cancel")
