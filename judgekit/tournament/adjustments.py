"""Which game a Standings Adjustment applies to (judges' guide v2 §1.1.3).

An SA is −1 VP in one game, and that game's GW and TP are worked out again from the
adjusted VP (`scoring.score_table`). Which game depends on when it was given:

- during a game the player is in: that game;
- between preliminary rounds, or between the last one and the final (for a finalist of a
  final that is set up), before round 1 is seated, or during a round the player sits out:
  the player's next game;
- after the last preliminary round (no next game for the player): the previous game.

When it is given, the store records the event's *phase* (`Phase`, kept on the penalty as
text: "game:2:3", "next:2", "previous:3"); the game itself is found when the standings are
computed (`resolve`), since a next game is not known yet when the SA is given. The head
judge can move an SA to another of the player's games with a written reason (`moved_to`).

Pure: plain data in, plain data out; no Flask, no database.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping, Sequence

from judgekit.i18n import Message, Said

PHASE_KINDS = ("game", "next", "previous")


@dataclass(frozen=True)
class Phase:
    """When a penalty was given. `kind` "game": during `round`, where the player sat at
    `table`; "next": after round `round` was seated (0: before round 1), the player not
    playing a game then; "previous": after the last preliminary round, `round` the last
    round seated then."""

    kind: str
    round: int
    table: int | None = None

    def encode(self) -> str:
        if self.kind == "game":
            return f"game:{self.round}:{self.table}"
        return f"{self.kind}:{self.round}"

    @classmethod
    def decode(cls, text: Any) -> "Phase | None":
        """The phase stored as text, or None when there is none (or it is not one)."""
        if not isinstance(text, str):
            return None
        parts = text.split(":")
        try:
            numbers = [int(p) for p in parts[1:]]
        except ValueError:
            return None
        if parts[0] == "game" and len(numbers) == 2:
            return cls("game", numbers[0], numbers[1])
        if parts[0] in ("next", "previous") and len(numbers) == 1:
            return cls(parts[0], numbers[0])
        return None


def phase_when_given(rounds: Sequence[Mapping[str, Any]], games: Mapping[int, int], *,
                     rounds_planned: int, finalists: Iterable[Any] | None, player: Any) -> Phase:
    """The phase of the event for `player` now.

    `rounds`: every round seated so far (`number`, `kind` "prelim"/"final", `status`
    "open"/"closed"); `games`: round number -> table number of the player's games;
    `rounds_planned`: the preliminary rounds announced; `finalists`: the final's qualifiers
    once it is set up (None before)."""
    last = max((r["number"] for r in rounds), default=0)
    current = next((r for r in rounds if r["status"] == "open"), None)
    if current is not None and current["number"] in games:
        return Phase("game", current["number"], games[current["number"]])
    prelims = [r for r in rounds if r["kind"] == "prelim"]
    prelims_done = (len(prelims) >= rounds_planned and all(r["status"] == "closed" for r in prelims))
    if not prelims_done:
        return Phase("next", last)
    final_seated = any(r["kind"] == "final" for r in rounds)
    if not final_seated and finalists and player in set(finalists):
        return Phase("next", last)  # between the last preliminary round and the final
    return Phase("previous", last)


@dataclass(frozen=True)
class Target:
    """The game an SA applies to (`round`, `table`; both None: no game), where that is in
    words (`where`: "round 2, table 3", "the final"), how it was found (`how`: "during",
    "next", "previous", "moved"; "waiting" for a next game not seated yet; "none": no game)
    and why, for the judges (`note`). `where` and `note` are `Said` values: the English text,
    worded in the reader's language where shown (a head judge's typed reason stays as typed)."""

    round: int | None
    table: int | None
    how: str
    note: str
    where: str | None = None

    @property
    def applies(self) -> bool:
        return self.round is not None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def resolve(phase: Phase | None, games: Mapping[int, int], *, moved_to: Sequence[Any] | None = None,
            move_reason: str | None = None, name: str = "the player", gone: str | None = None,
            round_names: Mapping[int, str] | None = None) -> Target:
    """The game an SA with this `phase` applies to, among the player's `games` (round ->
    table). `moved_to` ([round, table]) is the head judge's choice and wins when the
    player did play that game. `gone` says why there is no next game to wait for
    ("has dropped out", "is disqualified"). `round_names`: round number -> "round 2" or
    "the final" for the sentences."""
    if name == "the player":
        name = Said(Message("adjust.the-player", "the player"))

    def label(n: int) -> str:
        return (round_names or {}).get(n) or Said(round_name(n))

    def at(n: int, how: str, note: Message) -> Target:
        where = label(n) if label(n) == "the final" else \
            Said(Message("adjust.where", "%(round)s, table %(table)s", round=label(n), table=games[n]))
        return Target(n, games[n], how, Said(note), where)

    def nowhere(how: str, note: Message) -> Target:
        return Target(None, None, how, Said(note))

    never = Message("adjust.never-seated", "%(name)s never sat at a table: this adjustment applies to no game "
                    "and has no effect on the standings", name=name)
    if moved_to and len(moved_to) == 2 and moved_to[0] is not None:
        rnd, tbl = int(moved_to[0]), int(moved_to[1])
        if games.get(rnd) == tbl:
            return at(rnd, "moved", Message("adjust.moved-why", "moved there by the head judge: %(reason)s",
                                            reason=move_reason) if move_reason else
                      Message("adjust.moved", "moved there by the head judge"))
        return nowhere("none", Message("adjust.moved-away", "moved to %(round)s, table %(table)s, where %(name)s no "
                                       "longer sits: it applies to no game until the head judge moves it again",
                                       round=label(rnd), table=tbl, name=name))
    if phase is None:  # a record made before phases were kept: the player's last game
        if not games:
            return nowhere("none", never)
        return at(max(games), "previous", Message("adjust.last-game", "%(name)s's last game", name=name))
    if phase.kind == "game":
        if games.get(phase.round) == phase.table:
            return at(phase.round, "during", Message("adjust.given-in", "the game it was given in"))
        if phase.round in games:
            return at(phase.round, "during", Message("adjust.round-given-in", "%(name)s's game in the round it "
                                                     "was given in", name=name))
        return nowhere("none", Message("adjust.sits-no-longer", "given during %(round)s, where %(name)s no longer "
                                       "sits: the head judge can move it to one of their games",
                                       round=label(phase.round), name=name))
    given = Message("adjust.before-round-1", "before round 1 was seated") if phase.round == 0 else \
        Message("adjust.after", "after %(round)s", round=label(phase.round))
    if phase.kind == "next":
        later = sorted(n for n in games if n > phase.round)
        if later:
            return at(later[0], "next", Message("adjust.next-game", "given %(given)s: %(name)s's next game",
                                                given=given, name=name))
        if gone:
            return nowhere("none", Message("adjust.gone", "%(name)s %(gone)s: there is no next game for it. The head "
                                           "judge can move it to one of their games, with a reason",
                                           name=name, gone=gone))
        if not games:
            return nowhere("waiting", Message("adjust.waiting-unseated", "%(name)s's next game once seated (given "
                                              "%(given)s) (%(name)s has not sat at a table yet): no effect on the "
                                              "standings until then", name=name, given=given))
        return nowhere("waiting", Message("adjust.waiting", "%(name)s's next game once seated (given %(given)s): no "
                                          "effect on the standings until then", name=name, given=given))
    earlier = sorted(n for n in games if n <= phase.round)
    if earlier:
        return at(earlier[-1], "previous", Message("adjust.previous-game", "given after the last preliminary round: "
                                                   "%(name)s's previous game", name=name))
    if not games:
        return nowhere("none", never)
    return nowhere("none", Message("adjust.no-game-before", "%(name)s played no game before it was given: it applies "
                                   "to no game. The head judge can move it to one of their games", name=name))


def round_name(number: int, final: bool = False) -> Message:
    """"round 2" or "the final", as the sentences about an adjustment's game say it."""
    return Message("adjust.the-final", "the final") if final else Message("adjust.round", "round %(n)s", n=number)


#: why a player has no next game (`resolve`'s `gone`)
GONE_DISQUALIFIED = Said(Message("adjust.gone-disqualified", "is disqualified"))
GONE_DROPPED = Said(Message("adjust.gone-dropped", "has dropped out"))
GONE_DONE = Said(Message("adjust.gone-done", "has no game left in this event"))


def seat_deltas(targets: Iterable[tuple[int, int, Any, float]],
                tables: Mapping[tuple[int, int], Sequence[Any]]) -> dict[tuple[int, int], list[float]]:
    """Per table, one VP change per seat: `targets` are (round, table, player, delta), one
    per SA in force (two SAs in one game: −2); `tables` maps (round, table) to its players
    in seat order. Only tables with an adjustment are returned."""
    out: dict[tuple[int, int], list[float]] = {}
    for rnd, tbl, player, delta in targets:
        seats = tables.get((rnd, tbl))
        if seats is None or player not in seats:
            continue
        row = out.setdefault((rnd, tbl), [0.0] * len(seats))
        row[list(seats).index(player)] += float(delta)
    return out
