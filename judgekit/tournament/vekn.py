"""The results string the VEKN's site ingests ("archondata", as Archon sends it). Pure.

    {rounds}¤{rank}§{first}§{last}§{city}§{vekn}§{gw}§{vp}§{final_vp}§{tp}§{toss}§{rating}§{rank}§…

- `rounds` counts the final (three preliminary rounds and a final: 4).
- One record per player who played at least one round, in final-ranking order; 11 fields,
  each followed by `§`.
- rank: 1 for the winner, 2 for each other finalist (they tie for second, 3.7.5), then the
  preliminary rank (tied players share it: 6, 7, 7, 9); players who dropped out or were
  disqualified follow, ranked after everyone else in the order the standings list them.
- gw, vp: preliminary only (Standing Adjustments in the games they apply to); final_vp: the
  final's VP that count (0 for a non-finalist); tp: the preliminary TP plus the final's;
  toss: the place a finalist drew in a tie-break toss (1 = best, 0 = none; 0 for anyone
  not in the final, as Archon does); rating: the event's rating points (Appendix A).
- Numbers print as Archon (Python) prints them: GW, TP and toss as whole numbers, VP and
  rating points as floats ("4.0", "141.0"), a non-finalist's final VP as "0".

The VEKN refuses a report unless every player has a VEKN number: `build` refuses too, with
the list of players at fault (no number, or a temporary "P…" one), as it does for a name
holding the format's separators.

Every figure comes from the standings and results as the store computed them
(`store.results(db, tid)["rows"]`, the final's `round_detail`); nothing is scored here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

ROUND_MARK = "¤"
FIELD_MARK = "§"


@dataclass(frozen=True)
class Record:
    rank: int
    first: str
    last: str
    city: str
    vekn: str
    gw: int
    vp: float
    final_vp: float | None   # None: not a finalist
    tp: float
    toss: int
    rating: float
    name: str = ""
    player_id: Any = None

    def fields(self) -> list[str]:
        return [str(self.rank), self.first, self.last, self.city, self.vekn, _whole(self.gw), repr(float(self.vp)),
                "0" if self.final_vp is None else repr(float(self.final_vp)), _whole(self.tp),
                str(int(self.toss)), repr(float(self.rating))]


@dataclass
class Report:
    rounds: int
    records: list[Record] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)   # {"player_id", "name", "problem"}
    refusal: str | None = None                           # why there is no string (the event, not a player)

    @property
    def ok(self) -> bool:
        return self.refusal is None and not self.problems

    @property
    def text(self) -> str | None:
        return archondata(self.rounds, self.records) if self.ok else None


def _whole(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def archondata(rounds: int, records: Iterable[Record]) -> str:
    """The string itself."""
    return f"{rounds}{ROUND_MARK}" + "".join(FIELD_MARK.join(r.fields()) + FIELD_MARK for r in records)


def build(rows: Iterable[Mapping], people: Mapping[Any, Mapping], *, rounds: int, finished: bool,
          final_tp: Mapping[Any, float] | None = None) -> Report:
    """The report from the event's result rows (`store.results(...)["rows"]`, final ranking
    order), the players' records by id (first_name, last_name, city, vekn), the number of
    rounds played counting the final, and each finalist's TP in the final."""
    report = Report(rounds=rounds)
    if not finished:
        report.refusal = ("The event has no result yet: the VEKN takes the report once the final's result is in "
                          "(or, without a final, once the planned rounds are closed).")
        return report
    final_tp = final_tp or {}
    listed = [r for r in rows if (r.get("rounds") or 0) > 0 or r.get("finish")]
    ranked = [r for r in listed if r.get("place") is not None]
    others = [r for r in listed if r.get("place") is None]
    ranks: list[int] = [int(r["place"]) for r in ranked]
    previous = None
    for k, r in enumerate(others, len(ranked) + 1):
        key = (r["gw"], r["vp"], r["tp"])
        ranks.append(ranks[-1] if previous == key and ranks else k)
        previous = key
    for r, rank in zip(ranked + others, ranks):
        p = people.get(r["player_id"], {})
        name = r.get("name") or p.get("name") or f"#{r['player_id']}"
        vekn = p.get("vekn") or r.get("vekn")
        if not vekn:
            report.problems.append({"player_id": r["player_id"], "name": name, "problem": "no VEKN number"})
        elif str(vekn).startswith("P"):
            report.problems.append({"player_id": r["player_id"], "name": name,
                                    "problem": f"temporary number {vekn}: replace it with the VEKN number"})
        first = p.get("first_name") if p.get("first_name") is not None else name.partition(" ")[0]
        last = p.get("last_name") if p.get("last_name") is not None else name.partition(" ")[2]
        city = p.get("city") or ""
        for text in (first, last, city):
            if FIELD_MARK in text or ROUND_MARK in text:
                report.problems.append({"player_id": r["player_id"], "name": name,
                                        "problem": f"{text!r} holds {FIELD_MARK} or {ROUND_MARK}, which the "
                                                   "VEKN's format uses as separators: edit the player"})
                break
        finalist = bool(r.get("finish"))
        rating = (r.get("rating") or {}).get("total") or 0
        report.records.append(Record(
            rank=rank, first=first, last=last, city=city, vekn=str(vekn or ""), gw=r["gw"], vp=r["vp"],
            final_vp=(r.get("final_vp") or 0.0) if finalist else None,
            tp=r["tp"] + (final_tp.get(r["player_id"], 0) if finalist else 0),
            toss=(r.get("toss") or 0) if finalist else 0, rating=rating, name=name, player_id=r["player_id"]))
    if not report.records:
        report.refusal = "Nobody has played a round: there is nothing to report."
    return report
