"""A player's progress in the trainer, and the mix of a session of questions.

The progress itself lives in the player's browser (localStorage, no account): a list of
answers `{"id": scenario id, "ok": true|false, "t": epoch seconds}`, oldest first. The
browser sends it when it wants the mastery of each section or a new session; these pure
functions turn it into per-section status and pick the next questions, favouring the
sections that need review and the questions answered wrongly.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from judgekit.i18n import N_
from judgekit.trainer.scenarios import SECTIONS, Catalog

MAX_ANSWERS = 500        # the browser keeps at most this many; more is ignored
SESSION_SIZE = 10
MASTERY_RUN = 3          # this many right answers in a row in a section: mastered
WEIGHTS = {"review": 6, "new": 4, "learning": 3, "mastered": 1}
STATUS_WORDS = {"new": N_("Not tried yet"), "learning": N_("Learning"), "review": N_("To review"),
                "mastered": N_("Mastered")}   # catalog ids: the view words them for the reader


@dataclass(frozen=True)
class Record:
    id: str
    ok: bool
    t: float = 0


@dataclass
class SectionProgress:
    section: str
    title: str
    total: int                  # scenarios in the section
    answered: int = 0
    right: int = 0
    streak: int = 0             # right answers in a row, most recent last
    seen: set[str] = field(default_factory=set)
    status: str = "new"

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.section, "title": self.title, "status": self.status,
                "status_label": STATUS_WORDS[self.status], "answered": self.answered,
                "right": self.right, "streak": self.streak, "seen": len(self.seen),
                "total": self.total}


def parse_records(raw: Any, catalog: Catalog) -> list[Record]:
    """The answers a browser sent, keeping only well-formed ones about known scenarios.

    Anything else (a missing list, wrong types, unknown ids) is skipped, never an error:
    the progress belongs to the player and may come from an older version of the page.
    """
    if isinstance(raw, dict):
        raw = raw.get("answers")
    if not isinstance(raw, list):
        return []
    out = []
    for item in raw[-MAX_ANSWERS:]:
        if not isinstance(item, dict):
            continue
        sid, ok, t = item.get("id"), item.get("ok"), item.get("t", 0)
        if not isinstance(sid, str) or catalog.get(sid) is None or not isinstance(ok, bool):
            continue
        if not isinstance(t, (int, float)) or isinstance(t, bool):
            t = 0
        out.append(Record(sid, ok, t))
    return out


def summarize(records: list[Record], catalog: Catalog) -> dict[str, SectionProgress]:
    """Per guideline section: answers, right answers, streak and status."""
    out = {sec: SectionProgress(sec, title, len(catalog.in_section(sec)))
           for sec, title in SECTIONS.items()}
    recent: dict[str, list[bool]] = {sec: [] for sec in SECTIONS}
    for r in records:
        sec = catalog.get(r.id).section
        p = out[sec]
        p.answered += 1
        p.right += r.ok
        p.streak = p.streak + 1 if r.ok else 0
        p.seen.add(r.id)
        recent[sec].append(r.ok)
    for sec, p in out.items():
        p.status = status(recent[sec])
    return out


def status(results: list[bool]) -> str:
    """new (never answered), mastered (the last 3 right), review (the last one wrong, or
    fewer than 3 of the last 5 right), else learning."""
    if not results:
        return "new"
    if len(results) >= MASTERY_RUN and all(results[-MASTERY_RUN:]):
        return "mastered"
    last5 = results[-5:]
    if not results[-1] or (len(last5) >= 3 and sum(last5) < 3):
        return "review"
    return "learning"


def overview(records: list[Record], catalog: Catalog) -> dict[str, Any]:
    """What the start page shows: every section's progress, and which to review."""
    summary = summarize(records, catalog)
    sections = [p.to_dict() for p in summary.values()]
    return {"sections": sections,
            "mastered": [p.section for p in summary.values() if p.status == "mastered"],
            "review": [p.section for p in summary.values() if p.status == "review"],
            "answered": len(records), "right": sum(r.ok for r in records)}


def pick_session(catalog: Catalog, records: list[Record], n: int = SESSION_SIZE,
                 seed: int | None = None, section: str | None = None) -> list[str]:
    """The ids of the next `n` questions.

    Sections are drawn by weight (review > new > learning > mastered), each draw halving
    that section's weight so that a session mixes several sections. Within a section the
    questions last answered wrongly come first, then unseen ones, then the ones answered
    right longest ago. With `section`, only that section's questions (at most `n`).
    """
    rng = random.Random(seed)
    summary = summarize(records, catalog)
    last: dict[str, tuple[int, bool]] = {}
    for i, r in enumerate(records):
        last[r.id] = (i, r.ok)

    def order(sec: str) -> list[str]:
        items = catalog.in_section(sec)
        keyed = []
        for s in items:
            if s.id in last:
                i, ok = last[s.id]
                rank = (2, i) if ok else (0, -i)
            else:
                rank = (1, 0)
            keyed.append((rank, rng.random(), s.id))
        return [sid for _, _, sid in sorted(keyed)]

    sections = [section] if section else list(SECTIONS)
    queues = {sec: order(sec) for sec in sections if catalog.in_section(sec)}
    weight = {sec: float(WEIGHTS[summary[sec].status]) for sec in queues}
    picked: list[str] = []
    while len(picked) < n and any(queues.values()):
        live = [sec for sec in queues if queues[sec]]
        sec = rng.choices(live, weights=[weight[s] for s in live])[0]
        picked.append(queues[sec].pop(0))
        weight[sec] /= 2
    return picked
