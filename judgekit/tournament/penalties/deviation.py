"""What the head judge must see: the `Proposal` the penalty form shows, whether a penalty
deviates from it, whether it needs the head judge's approval, and whether it needs a
description. Pure, and below both `escalation` (which makes proposals) and `records`
(which checks a record against one), so neither imports the other back.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from judgekit.i18n import Message, Said
from judgekit.tournament.penalties.catalog import Catalog, Infraction, _or


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
    """Why `needs_head_judge` is True, as sentences for the form (empty when it is not):
    `Said` values, worded in the reader's language where shown."""
    reasons = []
    if catalog.is_head_judge_level(penalty):
        reasons.append(Said(Message(
            "penalties.hj-level", "A %(penalty)s must reach the head judge (%(catalog)s: only the head "
            "judge issues %(levels)s).", penalty=_canonical(catalog, penalty), catalog=catalog.id,
            levels=_or(catalog.head_judge_levels, commas=False))))
    if deviates(catalog, penalty, proposed):
        wanted = proposed.penalty if isinstance(proposed, Proposal) else proposed
        reasons.append(Said(Message(
            "penalties.hj-deviation", "%(penalty)s differs from the proposed %(proposed)s: the head judge "
            "approves the deviation and its reason.",
            penalty=_canonical(catalog, penalty) or Message("penalties.no-penalty", "No penalty"),
            proposed=wanted or Message("penalties.remedy", "remedy"))))
    return reasons


def description_required(catalog: Catalog, infraction: Infraction, penalty: str | None) -> bool:
    """A description is required when the infraction says so or the penalty is at a
    head-judge level (so an escalated SA/DQ always carries one)."""
    return infraction.requires_description or catalog.is_head_judge_level(penalty)
