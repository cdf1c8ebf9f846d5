"""What is on the table: the minions in play at each seat, and the cards seen there.

Two kinds of knowledge, kept apart:

* the **board** a judge stated — a `sync`'s `board` (the seat's whole board: the board is
  then *known*), `minion.in` and `minion.out`. The vote check (`vote-vampire-missing`)
  counts the votes of this board, and a vote for a vampire that a known board does not
  hold is refused (`refusal`);
* the minions **seen** acting at a seat — declaring an action, blocking, playing a card,
  striking, voting. They are on the table too (the page offers them as one-tap names), but
  a minion that left play unrecorded may linger among them, so no check counts them. A
  minion seen at a seat whose board is known joins that board: it came into play unrecorded.

The cards seen at a seat are the library cards its player played (most recent first, at
most `CARDS_KEPT`): the page offers them again with one tap.
"""
from __future__ import annotations

from typing import Any

from judgekit.i18n import Message
from judgekit.recorder.events import EventError
from judgekit.recorder.facts import minion_facts

CARDS_KEPT = 40
# Where an event names a minion of its seat (`minion`, or a vote's `vampire`).
MINION_FIELDS = {"action.declare": "minion", "block.declare": "minion", "card.play": "minion",
                 "reaction": "minion", "interrupt": "minion", "cancel": "minion",
                 "strike": "minion", "effect": "minion", "vote": "vampire",
                 "action.redirect": "minion", "minion.lock": "minion"}
# Where an event names a library card its seat played.
CARD_TYPES = {"card.play", "reaction", "interrupt", "cancel", "strike", "action.declare",
              "action.redirect", "discard"}


class BoardMixin:
    """The minions in play at each seat, and the cards seen there."""

    def _see(self, e: dict[str, Any]) -> None:
        """Note the minion and the card an event shows at its seat (called for every event)."""
        seat = e.get("seat")
        if seat is None:
            return
        key = MINION_FIELDS.get(e["type"])
        name = e.get(key) if key else None
        if name and seat not in self.out:
            seen = self.seen.setdefault(seat, {})
            if name not in seen and name not in self.board.get(seat, ()):
                if seat in self.board_known:
                    self.board[seat].append(name)   # it came into play unrecorded
                else:
                    seen[name] = None               # (not both: the page would list it twice)
        card = e.get("card") if e["type"] in CARD_TYPES else None
        if card:
            cards = self.seen_cards.setdefault(seat, {})
            cards.pop(card, None)
            cards[card] = None                       # the most recent last
            if len(cards) > CARDS_KEPT:
                del cards[next(iter(cards))]

    def _on_minion_in(self, e) -> None:
        self.board.setdefault(e["seat"], [])
        if e["minion"] not in self.board[e["seat"]]:
            self.board[e["seat"]].append(e["minion"])

    def _on_minion_out(self, e) -> None:
        minions = self.board.get(e["seat"], [])
        if e["minion"] in minions:
            minions.remove(e["minion"])
        self.seen.get(e["seat"], {}).pop(e["minion"], None)

    def _sync_board(self, board: dict[str, Any]) -> None:
        for key, minions in board.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                continue
            if isinstance(minions, list) and 1 <= seat <= self.n:
                self.board[seat] = list(dict.fromkeys(str(m) for m in minions))
                self.board_known.add(seat)
                self.seen.pop(seat, None)

    def _clear_seat(self, seat: int) -> None:
        """The seat left the game: nothing of it stays on the table."""
        self.board.pop(seat, None)
        self.seen.pop(seat, None)
        self.board_known.discard(seat)

    # --- what the page shows -------------------------------------------------------------

    def minion_facts(self, name: str) -> dict[str, Any]:
        """What the card facts say about a minion, for the page's forms (`facts.minion_facts`:
        kind, title, votes, bleed, stealth, strength, capacity, clan). Kept in the engine's
        card cache (the facts of a name do not change): every state the page is sent lists
        each seat's minions. A copy is returned."""
        key = ("minion", name)
        found = self._card_cache.get(key)
        if found is None:
            found = self._card_cache[key] = minion_facts(name, self.crypt, self.library)
        return dict(found)

    def seat_minions(self, seat: int) -> list[dict[str, Any]]:
        """The minions on the table at `seat`: the stated board first, then those seen
        acting; each with `minion_facts` and `source` ("board" or "seen")."""
        out = [dict(self.minion_facts(m), source="board") for m in self.board.get(seat, [])]
        out += [dict(self.minion_facts(m), source="seen") for m in self.seen.get(seat, {})]
        return out

    def seat_cards(self, seat: int) -> list[str]:
        """The library cards played at `seat`, most recent first."""
        return list(reversed(self.seen_cards.get(seat, {})))

    # --- bad input that needs the table ---------------------------------------------------

    def refusal(self, events: list[dict[str, Any]]) -> EventError | None:
        """Why a batch of (validated) events cannot be stored in this game as it stands, or
        None. Pure: the engine does not change. Refused: any event aimed at a seat that is
        not in the game any more (a redirect, a bleed, a card's target: field
        `target_seat`); a vote by a seat out of the game (field `seat`); a vote for a
        vampire that the seat's known board (a `sync`'s board, kept up by
        `minion.in`/`minion.out`) does not hold, or that the table shows at another seat
        (field `vampire`); a vote naming a vampire with more votes than its card gives
        (field `votes`, `_vote_refusal`). Earlier events of the same batch count (a `minion.in` before
        the vote, an oust before the redirect). Sequence problems are never refused: they
        are findings. `index` is set when the batch has several events."""
        out = dict(self.out)
        board = {s: list(m) for s, m in self.board.items() if s in self.board_known}
        known = set(self.board_known)
        # every minion on the table, stated or seen, by seat (to tell whose a vampire is)
        table = {s: set(self.board.get(s, ())) | set(self.seen.get(s, {})) for s in range(1, self.n + 1)}
        for i, e in enumerate(events):
            where = i if len(events) > 1 else None
            t, seat = e.get("type"), e.get("seat")
            if t == "minion.in" and seat in table:
                table[seat].add(e["minion"])
            elif t == "minion.out" and seat in table:
                table[seat].discard(e["minion"])
            elif t in MINION_FIELDS and seat in table and e.get(MINION_FIELDS[t]) and t != "vote":
                table[seat].add(e[MINION_FIELDS[t]])
            if t not in ("sync", "action.redirect") and e.get("target_seat") in out:
                new = e["target_seat"]
                why = OUT_REASON.get(out[new], out[new])
                return EventError("target_seat", Message("recorder.target-out", "%(who)s is out of the game "
                                                         "(%(why)s) and cannot be a target",
                                                         who=self.who_said(new), why=why), index=where,
                                  message=Message("recorder.target-out-words", "%(who)s is out of the game "
                                                  "(%(why)s): not a target any more. Pick a seat still playing.",
                                                  who=self.who_said(new), why=why))
            if t in ("oust", "withdraw", "concede") and seat is not None:
                out[seat] = t
                board.pop(seat, None)
                known.discard(seat)
                table[seat] = set()
            elif t == "sync":
                out = {s: "oust" for s in e.get("ousted") or []} or out
                for key, minions in (e.get("board") or {}).items():
                    if str(key).isdigit() and isinstance(minions, list):
                        board[int(key)] = [str(m) for m in minions]
                        known.add(int(key))
            elif t == "minion.in" and seat in known:
                board[seat].append(e["minion"])
            elif t == "minion.out" and seat in known and e["minion"] in board[seat]:
                board[seat].remove(e["minion"])
            elif t == "action.redirect" and e.get("target_seat") in out:
                new = e["target_seat"]
                return EventError("target_seat", Message("recorder.redirect-to-out", "%(who)s is out of the game "
                                                         "(%(why)s): the action cannot be redirected to them",
                                                         who=self.who_said(new), why=OUT_REASON.get(out[new], out[new])),
                                  index=where)
            elif t == "vote" and seat in out:
                why = OUT_REASON.get(out[seat], out[seat])
                return EventError("seat", Message("recorder.vote-out", "%(who)s is out of the game (%(why)s) "
                                                  "and has no vote", who=self.who_said(seat), why=why),
                                  index=where,
                                  message=Message("recorder.vote-out-words", "%(who)s is out of the game "
                                                  "(%(why)s): no vote.", who=self.who_said(seat), why=why))
            elif t == "vote" and e.get("vampire") and seat in known and seat not in out:
                name = e["vampire"]
                if name not in board[seat] and name not in self.seen.get(seat, {}):
                    held = ", ".join(board[seat]) or Message("recorder.no-minion", "no minion")
                    return EventError(
                        "vampire", Message("recorder.vote-vampire-not-held",
                                           "%(who)s controls no %(name)s (the board recorded for them: "
                                           "%(held)s); if %(name)s came into play, record that first "
                                           "(“%(seat)s in %(name)s”)",
                                           who=self.who_said(seat), name=name, held=held, seat=seat), index=where,
                        message=Message("recorder.vote-vampire-not-held-words",
                                        "%(who)s controls no %(name)s on the recorded board (%(held)s). "
                                        "If %(name)s came into play, record that first.",
                                        who=self.who_said(seat), name=name, held=held))
            if t == "vote" and seat not in out:
                refused = self._vote_refusal(e, seat, table, out, where)
                if refused is not None:
                    return refused
        return None


    def _vote_refusal(self, e, seat: int, table: dict[int, set[str]], out: dict[int, str],
                      where) -> EventError | None:
        """A vote naming a vampire that the table shows at another seat (not at the voting
        one): field `vampire`. A vote naming a vampire with more votes than its card gives
        (its title's votes, +1 when the Edge is burned with it): field `votes` — votes from
        another source (a card, the Edge) are a vote of their own."""
        name = e.get("vampire")
        if not name:
            return None
        if name not in table.get(seat, ()):
            others = [s for s, minions in table.items() if s != seat and s not in out
                      and name in minions]
            if others:
                owner = self.who_said(others[0])
                return EventError(
                    "vampire", Message("recorder.vote-vampire-elsewhere",
                                       "%(name)s is on the table at %(owner)s, not at %(who)s: a "
                                       "seat votes with the vampires it controls",
                                       name=name, owner=owner, who=self.who_said(seat)), index=where,
                    message=Message("recorder.vote-vampire-elsewhere-words",
                                    "%(name)s is %(owner)s's, not %(who)s's: a seat votes with "
                                    "its own vampires. Pick the seat or the vampire again.",
                                    name=name, owner=owner, who=self.who_said(seat)))
        votes = e.get("votes")
        vampire = None if e.get("unlisted") else self.crypt(name)
        if votes is None or vampire is None:
            return None
        can = int(getattr(vampire, "votes", 0) or 0) + (1 if e.get("burn_edge") else 0)
        if votes > can:
            title = getattr(vampire, "title", None)
            n = int(getattr(vampire, "votes", 0) or 0)
            count = Message("recorder.one-vote", "%(n)s vote", n=n) if n == 1 else \
                Message("recorder.n-votes", "%(n)s votes", n=n)
            has = Message("recorder.votes-titled", "%(votes)s (%(title)s)", votes=count, title=title) if title \
                else Message("recorder.votes-no-title", "%(votes)s (no title)", votes=count)
            edge = Message("recorder.and-the-edge", " and the Edge 1") if e.get("burn_edge") else ""
            return EventError(
                "votes", Message("recorder.votes-over-card", "%(name)s has %(has)s%(edge)s by the card list: "
                                 "%(votes)s is more than that", name=name, has=has, edge=edge, votes=votes),
                index=where,
                message=Message("recorder.votes-over-card-words",
                                "%(name)s has %(has)s%(edge)s: %(votes)s votes is more than that. Votes from "
                                "another source (a card, the Edge) are recorded as a vote of their own.",
                                name=name, has=has, edge=edge, votes=votes))
        return None


OUT_REASON = {"oust": Message("recorder.out-ousted", "ousted"),
              "withdraw": Message("recorder.out-withdrew", "withdrew"),
              "concede": Message("recorder.out-conceded", "conceded")}
