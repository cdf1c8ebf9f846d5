"""Penalty records as plain dicts: replay (amendments, lifts, approvals) and checks.

Records are append-only (`design.md`): a correction is a new record pointing at the old
one. Each record is a dict with the fields in `RECORD_FIELDS` (see `docs/penalties.md`);
`kind` is one of `KINDS`:

- `issue`   — a penalty given to a player (the default when `kind` is missing);
- `amend`   — changes fields of an earlier record (`refers_to`); its non-empty
              `AMENDABLE` fields replace the old ones;
- `lift`    — withdraws an earlier record: it no longer counts anywhere;
- `approve` — the head judge's approval of an earlier record (`judge` approves, `reason`);
- `move`    — the head judge moves a Standings Adjustment to another of the player's games
              (`round`, `table`: the game it now applies to; `reason` required).

`replay(records)` applies them and returns every issued record with its current values and
a `status`; `in_force(records)` keeps the ones that still count. Pure: no Flask, no
database; checks return `RecordProblem` lists.
"""
from __future__ import annotations

from dataclasses import dataclass

from judgekit.i18n import N_, Catalog, Message
from judgekit.tournament.penalties.deviation import description_required, deviates

KINDS = ("issue", "amend", "lift", "approve", "move")
# a record's kind as the sentences about it say it (the stored kind never changes)
KIND_WORDS = {"issue": Message("penalties.kind-issue", "issue"), "amend": Message("penalties.kind-amend", "amend"),
              "lift": Message("penalties.kind-lift", "lift"), "approve": Message("penalties.kind-approve", "approve"),
              "move": Message("penalties.kind-move", "move")}

RECORD_FIELDS = (
    "id",               # assigned by the store; unique within the tournament's records
    "kind",             # issue | amend | lift | approve
    "refers_to",        # id of the record an amend/lift/approve is about
    "tournament",       # tournament id
    "round",            # round number (None outside a round)
    "table",            # table number in the round
    "game",             # recorder game id
    "event",            # recorder event id/seq the penalty comes from
    "player",           # player id in the tournament (None: not registered)
    "player_name",      # name as shown (denormalised for exports)
    "vekn",             # VEKN number
    "judge",            # who recorded this record (issuer, amender, lifter, approver)
    "catalog",          # catalog id ("v2")
    "infraction",       # infraction id in that catalog
    "variant",          # variant id, or None for the default case
    "penalty",          # level name ("Warning"); None only for remedy-only infractions
    "proposed",         # what escalation proposed when the record was made
    "description",      # what happened, in the judge's words
    "rule",             # citation: "doc/section" (e.g. "announcements/forbidden-shortcuts")
    "time",             # ISO 8601 UTC, set by the store
    "approved_by",      # head judge who approved a deviation or SA/DQ
    "approval_reason",  # the head judge's reason
    "reason",           # why: for a deviation, an amendment, a lift or an approval
    "finding",          # the recorder finding's code the penalty comes from (with game, event)
    "phase",            # the event's phase when it was given ("game:2:3", "next:2", "previous:3"):
                        # which game a Standings Adjustment applies to (tournament/adjustments.py)
)

# What an `amend` may change.
AMENDABLE = ("infraction", "variant", "penalty", "description", "rule", "round", "table",
             "game", "event", "player", "player_name", "vekn")

STATUS_IN_FORCE = N_("in force")   # the statuses are shown as _(status)
STATUS_AMENDED = N_("amended")
STATUS_LIFTED = N_("lifted")


@dataclass(frozen=True)
class RecordProblem:
    """Something wrong with a record a judge is about to store (`field` may be None):
    `said` is the problem for people (a `Message`: a catalog id and its parameters, or
    plain English text), `message` its English text."""
    field: str | None
    said: Message | str
    suggestions: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        return str(self.said)

    @property
    def code(self) -> str | None:
        """The problem's catalog id; None for a problem given as plain English text."""
        return self.said.code if isinstance(self.said, Message) and self.said.english is not None else None

    def text(self, catalog: Catalog | None = None) -> str:
        """The problem in `catalog`'s language (English without one)."""
        if isinstance(self.said, Message):
            if self.said.english is None and catalog is not None:
                return catalog.gettext(self.said.code)
            return self.said.render(catalog)
        return catalog.gettext(self.said) if catalog is not None else self.said

    def __str__(self) -> str:
        return self.message


def kind_of(record: dict) -> str:
    return record.get("kind") or "issue"


def _key(value) -> str | None:
    return None if value is None else str(value)


def replay(records) -> list[dict]:
    """Every `issue` record, in input order, as a copy with its current values applied and
    these extra keys: `status` (in force / amended / lifted), `amended_by` (ids),
    `lifted_by` (id or None), `original_penalty` (set once amended), and once moved
    `moved_to` ([round, table]), `moved_by`, `move_reason`, `move_id` (the latest move). An issue record may
    also carry `lifted: True` or `lifted_by` itself (a store may precompute them).
    Amend/lift/approve records pointing at unknown ids are ignored here (`check_record`
    refuses them before they are stored)."""
    issued: dict[str, dict] = {}
    order: list[dict] = []
    parent: dict[str, str] = {}      # amend id -> the record it amends
    for rec in records:
        if kind_of(rec) != "issue":
            continue
        copy = dict(rec)
        copy.setdefault("amended_by", [])
        copy["amended_by"] = list(copy["amended_by"])
        if copy.get("lifted") and not copy.get("lifted_by"):
            copy["lifted_by"] = True
        copy.setdefault("lifted_by", None)
        order.append(copy)
        if rec.get("id") is not None:
            issued[_key(rec["id"])] = copy
    for rec in records:
        if kind_of(rec) == "amend" and rec.get("id") is not None:
            parent[_key(rec["id"])] = _key(rec.get("refers_to"))

    def root(ref):
        seen = set()
        ref = _key(ref)
        while ref in parent and ref not in seen:
            seen.add(ref)
            ref = parent[ref]
        return issued.get(ref)

    for rec in records:
        kind = kind_of(rec)
        if kind == "issue":
            continue
        target = root(rec.get("refers_to"))
        if target is None:
            continue
        if kind == "amend":
            if "original_penalty" not in target:
                target["original_penalty"] = target.get("penalty")
            for name in AMENDABLE:
                if name in rec and rec[name] not in (None, ""):
                    target[name] = rec[name]
            target["amended_by"].append(rec.get("id"))
            if rec.get("reason"):
                target["amend_reason"] = rec["reason"]
        elif kind == "lift":
            if not target["lifted_by"]:
                target["lifted_by"] = rec.get("id", True)
                target["lift_reason"] = rec.get("reason")
        elif kind == "approve":
            target["approved_by"] = rec.get("approved_by") or rec.get("judge")
            target["approval_reason"] = rec.get("approval_reason") or rec.get("reason")
        elif kind == "move":
            target["moved_to"] = [rec.get("round"), rec.get("table")]
            target["moved_by"] = rec.get("judge")
            target["move_reason"] = rec.get("reason")
            target["move_id"] = rec.get("id")
    for rec in order:
        if rec["lifted_by"]:
            rec["status"] = STATUS_LIFTED
        elif rec["amended_by"]:
            rec["status"] = STATUS_AMENDED
        else:
            rec["status"] = STATUS_IN_FORCE
    return order


def in_force(records) -> list[dict]:
    """The issued records that still count: lifted ones dropped, amendments applied."""
    return [r for r in replay(records) if r["status"] != STATUS_LIFTED]


def for_finding(records, game, event, finding) -> dict | None:
    """The penalty in force (not lifted) already given for one recorder finding — the same
    game, event and finding code — or None. One finding is one penalty: a second one is
    an amendment of the first, or the first is lifted."""
    if game is None or event is None or not finding:
        return None
    for rec in in_force(records):
        if (_key(rec.get("game")), _key(rec.get("event")), rec.get("finding")) == \
                (_key(game), _key(event), finding):
            return rec
    return None


def record_status(records) -> dict[str, str]:
    """str(id) -> status for every issue record with an id."""
    return {_key(r["id"]): r["status"] for r in replay(records) if r.get("id") is not None}


def check_record(catalog, record: dict, existing=(), *, registered: bool = True,
                 proposal=None) -> list[RecordProblem]:
    """What is wrong with `record` before it is stored (empty list: fine).

    `existing`: the tournament's records so far (for `refers_to`); `registered`: whether
    the player is in the event (an unregistered player may only be given the catalog's
    lightest head-judge level or heavier: the guide says to add them); `proposal`: the
    `Proposal` the form showed (else the record's `proposed` text) — a penalty that
    differs from it needs a `reason` (and the head judge's approval, see
    `deviation.needs_head_judge`)."""
    problems: list[RecordProblem] = []
    kind = kind_of(record)
    if kind not in KINDS:
        return [RecordProblem("kind", Message(
            "penalties.unknown-kind", "Unknown record kind '%(kind)s' (expected one of %(kinds)s).",
            kind=kind, kinds=", ".join(KINDS)))]
    if not str(record.get("judge") or "").strip():
        problems.append(RecordProblem("judge", Message("penalties.needs-judge", "The record needs the judge who makes it.")))

    merged = dict(record)
    if kind != "issue":
        ref = record.get("refers_to")
        if ref in (None, ""):
            problems.append(RecordProblem("refers_to", Message(
                "penalties.needs-refers-to", "A %(kind)s must name the record it is about.", kind=kind)))
            return problems
        current = {_key(r.get("id")): r for r in replay(existing) if r.get("id") is not None}
        ids = {_key(r.get("id")): r for r in existing if r.get("id") is not None}
        target_raw = ids.get(_key(ref))
        if target_raw is None:
            problems.append(RecordProblem("refers_to", Message(
                "penalties.no-record", "There is no penalty record %(ref)s to %(kind)s.", ref=ref,
                kind=KIND_WORDS.get(kind, kind))))
            return problems
        target_id = _key(ref)
        while kind_of(ids[target_id]) == "amend" and _key(ids[target_id].get("refers_to")) in ids:
            target_id = _key(ids[target_id].get("refers_to"))
        target = current.get(target_id)
        if target is None:
            problems.append(RecordProblem("refers_to", Message(
                "penalties.not-a-penalty", "Record %(ref)s is a %(what)s, not a penalty: %(kind)s the penalty itself.",
                ref=ref, what=KIND_WORDS.get(kind_of(target_raw), kind_of(target_raw)), kind=KIND_WORDS.get(kind, kind))))
            return problems
        if target["status"] == STATUS_LIFTED:
            problems.append(RecordProblem("refers_to", Message(
                "penalties.already-lifted", "Record %(ref)s has already been lifted.", ref=ref)))
            return problems
        if kind in ("amend", "lift") and not str(record.get("reason") or "").strip():
            problems.append(RecordProblem("reason", Message("penalties.amend-why", "Say why the record is amended.")
                                          if kind == "amend" else
                                          Message("penalties.lift-why", "Say why the record is lifted.")))
        if kind == "move":
            if record.get("round") in (None, "") or record.get("table") in (None, ""):
                problems.append(RecordProblem("round", Message(
                    "penalties.move-where", "Say which game it moves to: round and table.")))
            if not str(record.get("reason") or "").strip():
                problems.append(RecordProblem("reason", Message(
                    "penalties.move-why", "Write why the adjustment moves to another game.")))
        if kind != "amend":
            return problems
        merged = dict(target)
        for name in AMENDABLE:
            if name in record and record[name] not in (None, ""):
                merged[name] = record[name]
        merged["reason"] = record.get("reason")

    if merged.get("player") in (None, "") and not str(merged.get("player_name") or "").strip():
        problems.append(RecordProblem("player", Message("penalties.needs-player", "The record needs a player.")))
    found = catalog.lookup(str(merged.get("infraction") or ""))
    if not found.ok:
        problems.append(RecordProblem("infraction", found.said, found.suggestions))
        return problems
    inf = found.infraction
    if merged.get("variant") and inf.variant(merged["variant"]) is None:
        known = ", ".join(v.id for v in inf.variants) or "none"
        problems.append(RecordProblem("variant", Message(
            "penalties.no-case", "%(infraction)s has no case '%(variant)s' (cases: %(known)s).",
            infraction=inf.name, variant=merged["variant"], known=known)))
    penalty = merged.get("penalty")
    if penalty in (None, ""):
        if inf.default is not None:
            problems.append(RecordProblem("penalty", Message("penalties.choose-penalty", "Choose a penalty.")))
        penalty = None
    elif catalog.level(penalty) is None:
        problems.append(RecordProblem("penalty", Message(
            "penalties.not-a-level", "'%(penalty)s' is not a penalty of the %(catalog)s (%(levels)s).",
            penalty=penalty, catalog=catalog.name, levels=", ".join(catalog.level_names()))))
        return problems
    else:
        penalty = catalog.level(penalty).name
    if description_required(catalog, inf, penalty) and not str(merged.get("description") or "").strip():
        problems.append(RecordProblem("description", Message(
            "penalties.needs-description", "A description is required for %(infraction)s (%(penalty)s).",
            infraction=inf.name, penalty=penalty or Message("penalties.remedy", "remedy"))))
    if not registered and catalog.head_judge_levels:
        floor = min(catalog.head_judge_levels, key=catalog.rank)
        if catalog.rank(penalty) < catalog.rank(floor):
            problems.append(RecordProblem("player", Message(
                "penalties.unregistered-floor", "This player is not registered in the event: only a "
                "%(floor)s or heavier can be given (then add the player).", floor=floor)))
    reference = proposal if proposal is not None else merged.get("proposed")
    if reference not in (None, "") and deviates(catalog, penalty, reference) \
            and not str(merged.get("reason") or "").strip():
        problems.append(RecordProblem("reason", Message(
            "penalties.deviation-why", "The penalty differs from the proposed one: give the reason for the head judge.")))
    return problems
