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

from judgekit.i18n import Message, Said
from judgekit.tournament.penalties.catalog import Catalog, Infraction
from judgekit.tournament.penalties.deviation import Proposal
from judgekit.tournament.penalties.records import in_force

_ORDINALS = [Message("penalties.ordinal-1", "First"), Message("penalties.ordinal-2", "Second"),
             Message("penalties.ordinal-3", "Third"), Message("penalties.ordinal-4", "Fourth"),
             Message("penalties.ordinal-5", "Fifth"), Message("penalties.ordinal-6", "Sixth"),
             Message("penalties.ordinal-7", "Seventh"), Message("penalties.ordinal-8", "Eighth"),
             Message("penalties.ordinal-9", "Ninth"), Message("penalties.ordinal-10", "Tenth")]


def ordinal(n: int) -> Said:
    """1 -> "First" … 10 -> "Tenth", then "11th", "12th", "21st"… (a `Said`: a catalog's
    message, its English text)."""
    if 1 <= n <= len(_ORDINALS):
        return Said(_ORDINALS[n - 1])
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return Said(Message("penalties.ordinal-th", "%(n)sth", n=n))
    return Said({1: Message("penalties.ordinal-st", "%(n)sst", n=n), 2: Message("penalties.ordinal-nd", "%(n)snd", n=n),
                 3: Message("penalties.ordinal-rd", "%(n)srd", n=n)}[n % 10])


def _then(first, *more) -> Said:
    """Sentences one after the other (a space between them), each a message or text."""
    said = first
    for sentence in more:
        said = Message("penalties.then", "%(first)s %(then)s", first=said, then=sentence)
    return said if isinstance(said, Said) else Said(said)


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
        said = Said(found.said) if found.said is not None else found.message
        return Proposal(None, None, said, error=said, suggestions=found.suggestions)
    inf: Infraction = found.infraction
    chosen = inf.variant(variant) if variant else None
    if variant and chosen is None:
        cases = ", ".join(v.id for v in inf.variants) or Message("penalties.no-cases", "none")
        message = Said(Message("penalties.no-such-case", "%(infraction)s has no case '%(variant)s' (cases: %(cases)s).",
                               infraction=inf.name, variant=variant, cases=cases))
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
    head = Message("penalties.proposal-case", "%(nth)s %(infraction)s (%(case)s) in this event", nth=ordinal(n + 1),
                   infraction=inf.name, case=chosen.when) if chosen else \
        Message("penalties.proposal-head", "%(nth)s %(infraction)s in this event", nth=ordinal(n + 1), infraction=inf.name)
    ladder = catalog.ladder
    tail = []
    if context:
        tail = [Message("penalties.proposal-context", "The player has %(n)s earlier %(infraction)s in other events: "
                        "context only, escalation resets at each event.", n=len(context), infraction=inf.name)]

    common = dict(history=history, context=tuple(_chronological(context)),
                  infraction=inf.id, variant=chosen.id if chosen else None,
                  escalates=bool(escalates and base is not None), repeat=n + 1)

    if base is None:  # remedy only
        reason = Message("penalties.proposal-remedy", "%(head)s: the %(catalog)s guide gives no penalty here, only a "
                         "remedy: %(remedy)s.", head=head, catalog=catalog.id, remedy=inf.remedy)
        return Proposal(None, None, _then(reason, *tail), acceptable=(), remedy=inf.remedy, **common)

    step = ladder.index(base) if base in ladder else None
    if n == 0:
        reason = Message("penalties.proposal-default-case", "%(head)s: the default penalty for this case is %(penalty)s.",
                         head=head, penalty=base) if chosen else \
            Message("penalties.proposal-default", "%(head)s: the default penalty is %(penalty)s.", head=head, penalty=base)
        return Proposal(base, step, _then(reason, *tail), acceptable=(base,), **common)

    if not escalates or step is None:
        reason = Message("penalties.proposal-no-escalation", "%(head)s: %(infraction)s does not escalate, so the "
                         "penalty stays at its default, %(penalty)s.", head=head, infraction=inf.name, penalty=base)
        note = [inf.escalation_note] if inf.escalation_note else []   # content: as the catalog writes it
        return Proposal(base, step, _then(reason, *note, *tail), acceptable=(base,), **common)

    start = step
    target = start + n
    last = len(ladder) - 1
    ladder_text = f"({catalog.ladder_text()})"
    if target > last:
        step = last
        penalty = ladder[last]
        reason = [Message("penalties.proposal-last-step", "%(head)s: the ladder is already at its last step, "
                          "%(penalty)s %(ladder)s.", head=head, penalty=penalty, ladder=ladder_text)]
    else:
        step = target
        penalty = ladder[step]
        reason = [Message("penalties.proposal-step", "%(head)s: the ladder moves from %(before)s to %(penalty)s "
                          "%(ladder)s.", head=head, before=ladder[step - 1], penalty=penalty, ladder=ladder_text)]
    acceptable = [penalty]
    if catalog.escalation == "step-up":
        repeat_level = ladder[max(min(target - 1, last), start)]
        if repeat_level != penalty:
            acceptable.append(repeat_level)
            reason.append(Message("penalties.proposal-may-repeat", "The judge may instead repeat the previous "
                                  "level, %(penalty)s.", penalty=repeat_level))
    if penalty == ladder[-1] and base != penalty and catalog.accumulation_note:
        reason.append(catalog.accumulation_note)   # content: as the catalog writes it
    return Proposal(penalty, step, _then(*reason, *tail), acceptable=tuple(acceptable), **common)
