"""Escalation: the penalty to propose for an infraction, given the player's earlier ones.

Rules (from the guides, as data in the catalog):
- Only earlier penalties for the *same infraction* by the *same player* in the *same
  event* count. Lifted records do not count; amended records count with their amended
  values (an amendment that changes the infraction moves the record to the new one).
- A repeat starts at the infraction's default step of the catalog's ladder (for a
  variant, the variant's penalty) and moves one step per earlier counted penalty, stopping
  at the last step. v2 ladder: C, C, W, W, SA, SA, DQ; v1: C, W, GL, DQ.
- Infractions that do not escalate (or a variant that does not) stay at their default.
- v1 (`escalation = "step-up"`): the judge may repeat the previous level; that is offered
  in `Proposal.acceptable` and is not a deviation.

Pure: returns values (`Proposal` with `error` set for an unknown infraction or variant).
"""
from __future__ import annotations

from judgekit.tournament.penalties.catalog import Catalog, Infraction
from judgekit.tournament.penalties.deviation import Proposal
from judgekit.tournament.penalties.records import in_force

_ORDINALS = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth",
             "Ninth", "Tenth"]


def ordinal(n: int) -> str:
    """1 -> "First" … 10 -> "Tenth", then "11th", "12th", "21st"…"""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _same(a, b) -> bool:
    return a is not None and b is not None and str(a) == str(b)


def _infraction_id(catalog: Catalog, record: dict) -> str | None:
    value = record.get("infraction")
    if not value:
        return None
    inf = catalog.get(value) or catalog.lookup(str(value)).infraction
    return inf.id if inf else None


def _chronological(records: list[dict]) -> list[dict]:
    if records and all(r.get("time") for r in records):
        return sorted(records, key=lambda r: str(r["time"]))  # stable for equal times
    return list(records)


def propose(catalog: Catalog, infraction_id: str, earlier, variant: str | None = None, *,
            player=None, tournament=None) -> Proposal:
    """The penalty to propose for `infraction_id` (an id or a name) given `earlier`
    records (dicts, see `records.RECORD_FIELDS`, including amend/lift records).

    `earlier` is taken to be this player's records in this event unless `player` and/or
    `tournament` are given: then other players' records are ignored and other events'
    records become `context`."""
    found = catalog.lookup(infraction_id)
    if not found.ok:
        return Proposal(None, None, found.message, error=found.message,
                        suggestions=found.suggestions)
    inf: Infraction = found.infraction
    chosen = inf.variant(variant) if variant else None
    if variant and chosen is None:
        cases = ", ".join(v.id for v in inf.variants) or "none"
        message = f"{inf.name} has no case '{variant}' (cases: {cases})."
        return Proposal(None, None, message, infraction=inf.id, error=message)
    base = chosen.penalty if chosen else inf.default
    escalates = inf.escalates if chosen is None or chosen.escalates is None else chosen.escalates

    counted, context = [], []
    for rec in in_force(list(earlier)):
        if _infraction_id(catalog, rec) != inf.id:
            continue
        if player is not None and not _same(rec.get("player"), player):
            continue
        if tournament is not None and not _same(rec.get("tournament"), tournament):
            context.append(rec)
        else:
            counted.append(rec)
    history = tuple(_chronological(counted))
    n = len(history)
    label = f"{inf.name} ({chosen.when})" if chosen else inf.name
    head = f"{ordinal(n + 1)} {label} in this event"
    ladder = catalog.ladder
    tail = ""
    if context:
        tail = (f" The player has {len(context)} earlier {inf.name} in other events: "
                f"context only, escalation resets at each event.")

    common = dict(history=history, context=tuple(_chronological(context)),
                  infraction=inf.id, variant=chosen.id if chosen else None,
                  escalates=bool(escalates and base is not None), repeat=n + 1)

    if base is None:  # remedy only
        reason = f"{head}: the {catalog.id} guide gives no penalty here, only a remedy: {inf.remedy}."
        return Proposal(None, None, reason + tail, acceptable=(), remedy=inf.remedy, **common)

    step = ladder.index(base) if base in ladder else None
    if n == 0:
        which = "the default penalty for this case" if chosen else "the default penalty"
        reason = f"{head}: {which} is {base}."
        return Proposal(base, step, reason + tail, acceptable=(base,), **common)

    if not escalates or step is None:
        note = f" {inf.escalation_note}" if inf.escalation_note else ""
        reason = (f"{head}: {inf.name} does not escalate, so the penalty stays at its "
                  f"default, {base}.{note}")
        return Proposal(base, step, reason + tail, acceptable=(base,), **common)

    start = step
    target = start + n
    last = len(ladder) - 1
    ladder_text = f"({catalog.ladder_text()})"
    if target > last:
        step = last
        penalty = ladder[last]
        reason = f"{head}: the ladder is already at its last step, {penalty} {ladder_text}."
    else:
        step = target
        penalty = ladder[step]
        reason = f"{head}: the ladder moves from {ladder[step - 1]} to {penalty} {ladder_text}."
    acceptable = [penalty]
    if catalog.escalation == "step-up":
        repeat_level = ladder[max(min(target - 1, last), start)]
        if repeat_level != penalty:
            acceptable.append(repeat_level)
            reason += f" The judge may instead repeat the previous level, {repeat_level}."
    if penalty == ladder[-1] and base != penalty and catalog.accumulation_note:
        reason += f" {catalog.accumulation_note}"
    return Proposal(penalty, step, reason + tail, acceptable=tuple(acceptable), **common)
