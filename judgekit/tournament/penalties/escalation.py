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

from dataclasses import asdict, dataclass

from judgekit.tournament.penalties.catalog import Catalog, Infraction
from judgekit.tournament.penalties.records import in_force

_ORDINALS = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth",
             "Ninth", "Tenth"]


def ordinal(n: int) -> str:
    """1 -> "First" … 10 -> "Tenth", then "11th", "12th", "21st"…"""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Proposal:
    """What the penalty form proposes, and why.

    `penalty`: a level name (None: unknown infraction, or the guide gives a remedy only);
    `step`: 0-based index into the catalog's ladder (None when the penalty is off it);
    `reason`: one or two human sentences; `history`: the counted earlier records of this
    infraction in this event (oldest first, amended values applied); `context`: the same
    player's records of this infraction in *other* events (shown, never counted);
    `acceptable`: penalties a judge may give without it being a deviation."""
    penalty: str | None
    step: int | None
    reason: str
    history: tuple[dict, ...] = ()
    context: tuple[dict, ...] = ()
    acceptable: tuple[str, ...] = ()
    infraction: str | None = None      # infraction id
    variant: str | None = None         # variant id
    escalates: bool = False
    repeat: int = 1                    # 1 for the first offence in the event
    remedy: str = ""
    error: str | None = None
    suggestions: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict:
        data = asdict(self)
        data["history"] = list(self.history)
        data["context"] = list(self.context)
        data["acceptable"] = list(self.acceptable)
        data["suggestions"] = list(self.suggestions)
        return data


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


def _canonical(catalog: Catalog, penalty: str | None) -> str | None:
    if penalty in (None, ""):
        return None
    lv = catalog.level(penalty)
    return lv.name if lv else penalty


def deviates(catalog: Catalog, penalty: str | None, proposed) -> bool:
    """Whether `penalty` differs from `proposed` (a `Proposal`, a level name, or None for
    "nothing proposed": never a deviation)."""
    if proposed is None:
        return False
    penalty = _canonical(catalog, penalty)
    if isinstance(proposed, Proposal):
        if not proposed.ok:
            return True
        acceptable = set(proposed.acceptable) or {proposed.penalty}
        if proposed.penalty is None:
            return penalty is not None
        return penalty not in acceptable
    return penalty != _canonical(catalog, proposed)


def needs_head_judge(catalog: Catalog, penalty: str | None, proposed=None) -> bool:
    """True when the head judge must approve: the penalty is at one of the catalog's
    head-judge levels (v2: SA, DQ), or it deviates from the proposal."""
    return catalog.is_head_judge_level(penalty) or deviates(catalog, penalty, proposed)


def head_judge_reasons(catalog: Catalog, penalty: str | None, proposed=None) -> list[str]:
    """Why `needs_head_judge` is True, as sentences for the form (empty when it is not)."""
    reasons = []
    if catalog.is_head_judge_level(penalty):
        reasons.append(f"A {_canonical(catalog, penalty)} must reach the head judge "
                       f"({catalog.id}: only the head judge issues "
                       f"{' or '.join(catalog.head_judge_levels)}).")
    if deviates(catalog, penalty, proposed):
        wanted = proposed.penalty if isinstance(proposed, Proposal) else proposed
        reasons.append(f"{_canonical(catalog, penalty) or 'No penalty'} differs from the "
                       f"proposed {wanted or 'remedy'}: the head judge approves the "
                       f"deviation and its reason.")
    return reasons


def description_required(catalog: Catalog, infraction: Infraction, penalty: str | None) -> bool:
    """A description is required when the infraction says so or the penalty is at a
    head-judge level (so an escalated SA/DQ always carries one)."""
    return infraction.requires_description or catalog.is_head_judge_level(penalty)
