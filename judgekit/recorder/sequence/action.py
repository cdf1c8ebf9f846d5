"""The minion action: its declaration (bleed amount, stealth), the acting player's pass,
who may block and in which order, block attempts, and its resolution."""
from __future__ import annotations

from judgekit.i18n import Message
from judgekit.recorder.sequence.common import (
    STANDARD_STEALTH, TORPOR_ACTIONS, TORPOR_STEALTH_OTHER, TORPOR_STEALTH_SAME, UNDIRECTED, Action, said_list)
from judgekit.recorder.words import ACTION_NOUNS

# What a player does on the action, as a finding says it ("declares a block").
DOES_PASS = Message("recorder.finding.does-pass-block", "passes on blocking")
DOES_BLOCK = Message("recorder.finding.does-declare-block", "declares a block")
DOES_REDIRECT = Message("recorder.finding.does-redirect", "redirects the action")


class ActionMixin:
    """Action declaration, passes, blocks and resolution."""

    def _on_action_declare(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        a = self.action
        if a is not None and not a.resolved:
            if a.seat == seat and not a.locked:
                self.action = self.prev_action  # the lock never took effect: a free change
            elif a.seat == seat and not a.actor_passed:
                self.flag("declaration-binding", seq,
                          Message("recorder.finding.action-binds", "%(who)s declared an action at event %(seq)s: "
                                  "it is binding, too late to change it.", who=self.who_said(seat), seq=a.seq),
                          seat=seat, section="hypotheticals")
                return
            else:
                self._resolve(seq, implicit=True)
        if not self._sequence(e):
            return
        kind = e["action"]
        target = e.get("target_seat")
        if kind in TORPOR_ACTIONS and target is None:
            target = self._controller(e.get("target"))   # the torpid vampire's controller
        if kind == "bleed":
            directed = True
            target = target or self.prey(seat)
        elif "directed" in e:
            directed = e["directed"]
        elif kind in UNDIRECTED:
            directed = False
        else:
            directed = target is not None and target != seat
        if directed:
            eligible = [target] if target and target != seat else []
        else:
            eligible = [s for s in (self.prey(seat), self.predator(seat)) if s and s != seat]
            eligible = list(dict.fromkeys(eligible))
        if self.action is not None and self.action.resolved:
            self.prev_action = self.action
        self.action = Action(seq=seq, seat=seat, kind=kind, minion=e.get("minion"),
                             directed=directed, target_seat=target, eligible=eligible,
                             amount=e.get("amount") if e.get("bleed_total") is None else e["bleed_total"],
                             locked=e.get("locked", True), card=e.get("card"))
        self.combat = None
        a = self.action
        if target and not e.get("target_seat") and kind == "bleed":
            self.context = {"target_seat": target}   # the prey, for the log line
        a.terms_required = bool(e.get("terms_choice") or e.get("terms"))
        a.terms_given = bool(e.get("terms"))
        if kind == "political" or self._is_political_card(e.get("card")):
            self._political_terms(a, e)
        if not a.locked:
            return  # not a declaration yet: the player's hand has not left the card
        if kind == "bleed":
            self._check_bleed(e, a)
        self._check_stealth(e, kind, target)
        if e.get("card"):
            before = len(self.findings)
            self._card_play(e, role="action")
            if any(f.code == "discipline-unavailable" for f in self.findings[before:]):
                # An invalid declaration is void: nothing binds, the turn goes on as before.
                self.action = self.prev_action
                if self.pending.get(seat, (None,))[0] == seq:
                    del self.pending[seat]

    # --- a lock with no action named --------------------------------------------------------

    def _on_minion_lock(self, e) -> None:
        """The acting player locks a minion and names no action (yet). Locking is the first
        step of a declaration, not the declaration: the action must still be announced
        (action declaration). Followed only when it is the acting player's, with no action
        in progress."""
        seat = e["seat"]
        a = self.action
        if seat != self.turn_seat or self.turn_ended or (a is not None and not a.resolved):
            return
        self.lock = {"seq": e["seq"], "seat": seat, "minion": e.get("minion")}

    def _lock_check(self, e) -> None:
        """After a `minion.lock`, the action declared (or an action card played) by that
        seat makes it a declaration; asking for blocks ("any blocks?"), a block answer or a
        result first is `action-not-announced`. Moving on (a phase, a transfer, the end of
        the turn) forgets the lock."""
        lock = self.lock
        if lock is None or e["type"] == "minion.lock":
            return
        t, seat = e["type"], e.get("seat")
        if t == "action.declare" and seat == lock["seat"]:
            self.lock = None
            return
        if t == "card.play" and seat == lock["seat"]:
            types = [str(x).lower() for x in (getattr(self.library(e.get("card")), "types", None) or [])]
            if any(x in ("action", "political action") for x in types):
                self.lock = None   # the action card names the action
            return
        if t in ("action.pass", "block.pass", "block.declare", "action.result"):
            if t == "action.pass" and seat != lock["seat"]:
                return
            self.lock = None
            minion = lock["minion"] or Message("recorder.finding.a-minion", "a minion")
            asked = {"action.pass": Message("recorder.finding.asked-for-blocks", "asked for blocks"),
                     "block.pass": Message("recorder.finding.answered-block", "%(who)s answered the block "
                                           "opportunity", who=self.who_said(seat)),
                     "block.declare": Message("recorder.finding.declared-block", "%(who)s declared a block",
                                              who=self.who_said(seat)),
                     "action.result": Message("recorder.finding.action-resolved", "the action was resolved")}[t]
            self.flag("action-not-announced", e["seq"],
                      Message("recorder.finding.locked-not-announced", "%(who)s locked %(minion)s (event %(seq)s), "
                              "then %(asked)s with no action announced: locking is not a declaration; the "
                              "action (and, for a bleed, its amount) must be announced.",
                              who=self.who_said(lock["seat"]), minion=minion, seq=lock["seq"], asked=asked),
                      seat=lock["seat"])
            return
        if t in ("phase", "transfer", "discard", "turn.end", "turn.start"):
            self.lock = None

    def _check_bleed(self, e, a: Action) -> None:
        seq, seat = e["seq"], e["seat"]
        if a.amount is None:
            self.flag("bleed-amount-missing", seq,
                      Message("recorder.finding.bleed-no-amount", "%(who)s bleeds without stating the amount.",
                              who=self.who_said(seat)), seat=seat)
            return
        vampire = self.crypt(a.minion)
        expected = None
        if vampire is not None:
            expected = 1 + int(getattr(vampire, "bleed_bonus", 0) or 0)
        actual = e.get("actual_amount")
        if actual is not None and actual != a.amount:
            self.flag("misrepresented", seq,
                      Message("recorder.finding.bleed-misstated", "%(who)s declares a bleed for %(amount)s; it is "
                              "a bleed for %(actual)s. The declaration binds; it is a misrepresentation.",
                              who=self.who_said(seat), amount=a.amount, actual=actual), seat=seat)
        elif expected is not None and a.amount < expected:
            self.flag("misrepresented", seq,
                      Message("recorder.finding.bleed-understated", "%(who)s declares a bleed for %(amount)s with "
                              "%(minion)s, who bleeds for %(expected)s. The declaration binds; it is a "
                              "misrepresentation.", who=self.who_said(seat), amount=a.amount, minion=a.minion,
                              expected=expected),
                      seat=seat)

    def _controller(self, name: str | None) -> int | None:
        """The seat whose board (stated or seen) holds the minion `name`, if exactly one."""
        if not name:
            return None
        seats = [s for s in range(1, self.n + 1)
                 if name in self.board.get(s, ()) or name in self.seen.get(s, {})]
        return seats[0] if len(seats) == 1 else None

    def standard_stealth(self, kind: str, seat: int, target: int | None) -> int | None:
        """The action's standard stealth; for a rescue or a diablerie it depends on who
        controls the torpid vampire (+1 the acting player's own, 0 another's: the
        rulebook), None when that is not known."""
        if kind in TORPOR_ACTIONS:
            if target is None:
                return None
            return TORPOR_STEALTH_SAME if target == seat else TORPOR_STEALTH_OTHER
        return STANDARD_STEALTH.get(kind, 0)

    def _check_stealth(self, e, kind: str, target: int | None = None) -> None:
        seq, seat = e["seq"], e["seat"]
        standard = self.standard_stealth(kind, seat, target)
        if standard is None:
            # whose torpid vampire is not known: no standard to check against; a declared
            # stealth is still checked against the true one the judge stated
            declared, actual = e.get("stealth"), e.get("actual_stealth")
            if declared is not None and actual is not None and declared != actual:
                self.flag("misrepresented", seq,
                          Message("recorder.finding.stealth-misstated", "%(who)s declares %(declared)s stealth; the action "
                                  "has %(actual)s.", who=self.who_said(seat), declared=declared, actual=actual),
                          seat=seat)
            return
        declared = e.get("stealth")
        actual = e.get("actual_stealth")
        if actual is None:
            vampire = self.crypt(e.get("minion"))
            bonus = int(getattr(vampire, "stealth_bonus", 0) or 0) if vampire is not None else 0
            if bonus:
                actual = standard + bonus
        if actual is None or actual == standard:
            if declared is not None and actual is not None and declared != actual:
                self.flag("misrepresented", seq,
                          Message("recorder.finding.stealth-misstated", "%(who)s declares %(declared)s stealth; the action "
                                  "has %(actual)s.", who=self.who_said(seat), declared=declared, actual=actual),
                          seat=seat)
            return
        if declared is None:
            whose = ""
            if kind in TORPOR_ACTIONS:
                whose = Message("recorder.finding.own-torpid", ", the acting player's own torpid vampire") \
                    if target == seat else \
                    Message("recorder.finding.other-torpid", ", a torpid vampire %(who)s controls",
                            who=self.who_said(target))
            self.flag("stealth-undeclared", seq,
                      Message("recorder.finding.stealth-undeclared", "%(who)s declares a %(action)s with %(actual)s "
                              "stealth (standard: %(standard)s%(whose)s) without declaring its stealth.",
                              who=self.who_said(seat), action=Message(ACTION_NOUNS[kind]) if kind in ACTION_NOUNS
                              else kind, actual=actual, standard=standard, whose=whose), seat=seat)
        elif declared != actual:
            self.flag("misrepresented", seq,
                      Message("recorder.finding.stealth-misstated", "%(who)s declares %(declared)s stealth; the action "
                                  "has %(actual)s.", who=self.who_said(seat), declared=declared, actual=actual),
                      seat=seat)

    def _on_action_pass(self, e) -> None:
        a = self.action
        if a is not None and not a.resolved and e["seat"] == a.seat:
            a.actor_passed = True

    def _before_blocks(self, e, what: str) -> Action | None:
        """Common checks when a non-acting player acts on the current action."""
        a = self.action
        if a is None or a.resolved:
            return None
        seat = e["seat"]
        if seat == a.seat:
            return a
        if not a.actor_passed and "action-pass-missing" not in a.flagged:
            a.flagged.add("action-pass-missing")
            self.flag("action-pass-missing", e["seq"],
                      Message("recorder.finding.before-actor-passed", "%(who)s %(what)s before %(actor)s passed "
                              "on the action.", who=self.who_said(seat), what=what, actor=self.who_said(a.seat)),
                      seat=a.seat)
        return a

    def _order_check(self, e, a: Action, what: str) -> bool:
        """Undirected action: the predator may not block (or play a card or effect on the
        action) before the prey has passed (forbidden shortcuts, example 2). The predator's
        own "no block" before the prey answered is not checked here: it takes nothing from
        the prey, who still has to pass or block (docs/recorder.md, "the predator's early
        pass")."""
        seat = e["seat"]
        if a.directed or len(a.eligible) < 2:
            return True
        prey, predator = a.eligible[0], a.eligible[1]
        if seat == predator and prey not in a.passed:
            # A failed block attempt is not a pass: the prey may still try with another
            # minion, and only the prey's explicit "no block" gives the predator their turn.
            failed = Message("recorder.finding.prey-block-failed", " (%(prey)s's block attempt failed, which is "
                             "not a pass: the prey may still block with another minion)", prey=self.who_said(prey)) \
                if prey in a.failed_blocks and a.attempting != prey else ""
            self.flag("block-out-of-order", e["seq"],
                      Message("recorder.finding.predator-first", "%(who)s (the predator) %(what)s before %(prey)s "
                              "(the prey) passed on blocking%(failed)s.", who=self.who_said(seat), what=what,
                              prey=self.who_said(prey), failed=failed), seat=seat)
            return False
        return True

    def _on_block_pass(self, e) -> None:
        a = self._before_blocks(e, DOES_PASS)
        if a is None or e["seat"] == a.seat:
            return
        seat = e["seat"]
        if a.attempting is not None and a.attempting == seat:
            self.flag("declaration-binding", e["seq"],
                      Message("recorder.finding.block-binds", "%(who)s declared a block: the declaration binds, "
                              "it cannot be turned into a pass.", who=self.who_said(seat)),
                      seat=seat, section="hypotheticals")
            return
        if a.attempting is not None:
            a.failed_blocks.append(a.attempting)   # the previous attempt failed
            a.attempting = None
        if seat in a.eligible:
            a.done.add(seat)
            a.passed.add(seat)

    def _on_block_declare(self, e) -> None:
        a = self._before_blocks(e, DOES_BLOCK)
        if a is None or e["seat"] == a.seat:
            return
        seat = e["seat"]
        if a.blocked and a.blocker is not None and seat != a.blocker:
            self.flag("block-not-eligible", e["seq"],
                      Message("recorder.finding.already-blocked", "%(who)s tries to block, but the action is "
                              "already blocked by %(blocker)s: an action is blocked once.",
                              who=self.who_said(seat), blocker=self.who_said(a.blocker)), seat=seat,
                      section="action-declaration" if a.directed else None)
            return
        if seat not in a.eligible:
            if a.directed:
                why = Message("recorder.finding.only-target-blocks-redirected", "only the target, %(target)s, may "
                              "block this directed action (the action was redirected), unless a card lets the "
                              "blocking minion block anyway", target=self.who_said(a.target_seat)) \
                    if a.redirects else \
                    Message("recorder.finding.only-target-blocks", "only the target, %(target)s, may block this "
                            "directed action, unless a card lets the blocking minion block anyway",
                            target=self.who_said(a.target_seat))
                section = "action-declaration"
            else:
                why = Message("recorder.finding.only-prey-predator-block", "only the prey, %(prey)s, and the "
                              "predator, %(predator)s, may block this undirected action, unless a card lets the "
                              "blocking minion block anyway", prey=self.who_said(self.prey(a.seat)),
                              predator=self.who_said(self.predator(a.seat)))
                section = None
            self.flag("block-not-eligible", e["seq"],
                      Message("recorder.finding.cannot-block", "%(who)s tries to block: %(why)s.",
                              who=self.who_said(seat), why=why), seat=seat, section=section)
            return
        if seat in a.passed:
            self.flag("declaration-binding", e["seq"],
                      Message("recorder.finding.pass-binds", "%(who)s already passed on blocking: the pass binds.",
                              who=self.who_said(seat)), seat=seat,
                      section="hypotheticals")
            return
        self._order_check(e, a, DOES_BLOCK)
        a.done.add(seat)
        a.attempting = seat
        a.attempt_minion = e.get("minion")

    def _on_block_result(self, e) -> None:
        a = self.action
        if a is None or a.resolved:
            return
        if e["blocked"]:
            self._start_combat()
        elif a.attempting is not None:
            a.failed_blocks.append(a.attempting)
            a.attempting = None

    def _on_action_result(self, e) -> None:
        a = self.action
        if a is None or a.resolved:
            return
        self.context = {"action": a.kind}
        if e["outcome"] == "success" and a.kind == "political" and not a.blocked:
            # the referendum follows: terms and votes are checked as before the result
            a.outcome = "success"
            self._succeed_if_open(e["seq"])
            return
        a.outcome = e["outcome"]
        if e.get("amount") is not None and a.kind == "bleed":
            a.amount = e["amount"]
        if e["outcome"] == "blocked" and not a.blocked:
            a.blocked = True
        self._resolve(e["seq"], implicit=False)

    def _resolve(self, seq: int, implicit: bool) -> None:
        """The current action is over: check what had to happen before it resolved."""
        a = self.action
        if a is None or a.resolved:
            return
        if not a.blocked and a.outcome not in ("cancelled",):
            if not a.actor_passed and "action-pass-missing" not in a.flagged:
                a.flagged.add("action-pass-missing")
                self.flag("action-pass-missing", seq,
                          Message("recorder.finding.action-not-passed", "The action of %(actor)s (event %(seq)s) "
                                  "went on without the acting player passing.", actor=self.who_said(a.seat),
                                  seq=a.seq), seat=a.seat)
            self._missing_passes(seq)
        self._restate_check(seq, force=True)
        a.resolved = True
        if a.outcome is None:
            a.outcome = "blocked" if a.blocked else "success"
        self.combat = None
        self.after_action = True
        self.prev_action = a

    def _restate_check(self, seq: int, force: bool = False) -> None:
        a = self.action
        if a is None or a.restate_pending is None:
            return
        self.flag("bleed-total-not-restated", seq,
                  Message("recorder.finding.bleed-not-restated", "The bleed of %(actor)s changed at event "
                          "%(seq)s; the new total was not stated.", actor=self.who_said(a.seat),
                          seq=a.restate_pending), seat=a.seat)
        a.restate_pending = None

    def _on_bleed_total(self, e) -> None:
        a = self.action
        if a is not None and not a.resolved:
            a.amount = e["amount"]
            a.restate_pending = None

    def _on_action_effect(self, e, what: Message) -> None:
        """A non-acting player plays something during the action (reaction, effect)."""
        a = self._before_blocks(e, what)
        if a is None or e["seat"] == a.seat:
            return
        seat = e["seat"]
        if e.get("wake"):
            return  # a wake is played in order to block: no pass expected before it
        if seat in a.eligible and seat not in a.done and a.attempting != seat and not a.blocked:
            if self._order_check(e, a, what):
                key = f"block-pass-missing:{seat}"
                if key not in a.flagged:
                    a.flagged.add(key)
                    self.flag("block-pass-missing", e["seq"],
                              Message("recorder.finding.before-block-pass", "%(who)s %(what)s before passing on "
                                      "the block opportunity.", who=self.who_said(seat), what=what),
                              seat=seat)

    def _missing_passes(self, seq: int, political: bool = False) -> None:
        """`block-pass-missing` for the seats that may block and did not answer (each seat
        once per action); `political`: the political action succeeded (else: resolved)."""
        a = self.action
        missing = [s for s in a.eligible if s not in a.done
                   and f"block-pass-missing:{s}" not in a.flagged]
        if not missing:
            return
        a.flagged.update(f"block-pass-missing:{s}" for s in missing)
        who = said_list([self.who_said(s) for s in missing])
        said = Message("recorder.finding.political-unanswered", "The political action of %(actor)s succeeded "
                       "without %(missing)s passing on the block opportunity.",
                       actor=self.who_said(a.seat), missing=who) if political else \
            Message("recorder.finding.action-unanswered", "The action of %(actor)s resolved without %(missing)s "
                    "passing on the block opportunity.", actor=self.who_said(a.seat), missing=who)
        self.flag("block-pass-missing", seq, said, seat=missing[0])

    # --- a changed target ------------------------------------------------------------------

    def redirect_seat(self) -> int | None:
        """The seat whose `reaction` naming another seat (`target_seat`) now changes the
        target of the action in progress (Deflection and the like): the target of a directed
        action not yet blocked, outside combat. None when no reaction would redirect. The
        page's card form offers the new target's seat for that seat (state `action.redirect_by`)."""
        a = self.action
        if a is None or a.resolved or not a.directed or a.blocked or self.combat is not None:
            return None
        return a.target_seat

    def _reads_as_redirect(self, e) -> bool:
        """A `reaction` by the target of the directed action in progress that names another
        seat in the game (`target_seat`, not the acting one) changes the target (Deflection
        recorded as a reaction): it is read as an `action.redirect`."""
        a = self.action
        new = e.get("target_seat")
        return (self.redirect_seat() is not None and e["seat"] == a.target_seat and new is not None
                and new not in (e["seat"], a.seat) and new not in self.out
                and not (e.get("window") or e.get("phase")))

    def _on_action_redirect(self, e) -> None:
        """A reaction or effect changes the target of the directed action (Deflection and
        the like: the original target chooses the new one). The redirect is a play by its
        seat (its block pass is expected before it); then the new target is the one who may
        block, and whose pass is expected."""
        seat, new = e["seat"], e["target_seat"]
        if not self._interrupt_like(e):
            return
        if e.get("card"):
            before = len(self.findings)
            self._card_play(e, role="reaction")
            if any(f.code == "discipline-unavailable" for f in self.findings[before:]):
                if self.pending.get(seat, (None,))[0] == e["seq"]:
                    del self.pending[seat]
                return  # an impossible play is void: the target does not change
        else:
            self._on_action_effect(e, DOES_REDIRECT)
        a = self.action
        if a is None or a.resolved:
            return
        if a.blocked or self.combat is not None or (a.kind in UNDIRECTED and not a.directed):
            # nothing to move: a blocked action has no block opportunity left, and an
            # undirected one (a hunt) is aimed at no one; the target and blockers stay
            return
        self.context = {"from_seat": a.target_seat}
        a.redirects.append({"seq": e["seq"], "seat": seat, "from": a.target_seat, "to": new,
                            "card": e.get("card")})
        a.target_seat = new
        a.directed = True
        a.eligible = [new] if new != a.seat else []
        a.done.discard(new)
        a.passed.discard(new)
        a.attempting = None
