"""Trainer scenarios: load them from `content/trainer/*.toml`, check their format, and
replay their events through the recorder engine.

A scenario is a short table situation, what a player says or does, the question "What
would the judge say?", the answer choices (from the fixed set `ANSWERS`), the right answer, our own
explanation, the recorder events the situation stands for and the finding codes the
engine must report for them. `agreement()` says whether the engine's codes support the
scenario's answer: the trainer must never teach what the recorder contradicts.

The file format is documented in `content/trainer/README.md`. Loading never half-works:
`load_scenarios()` returns a `Catalog` or raises `ScenarioFileError` listing every
problem, each naming its file and its scenario; `check_file()` returns the problems of one
file as values.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judgekit.recorder import engine
from judgekit.recorder import findings as F
from judgekit.recorder.events import EventError, validate_event

DOC = "announcements"

# The announcement guidelines' sections, in document order; "intro" is the preamble.
SECTIONS: dict[str, str] = {
    "intro": "Declarations bind",
    "card-declaration": "Card declaration",
    "action-declaration": "Action declaration",
    "votes": "Votes and referendum terms",
    "shortcuts": "Shortcuts",
    "forbidden-shortcuts": "Forbidden shortcuts",
    "cancellation": "Cancellation window",
    "table-talk": "Table talk",
    "pace": "Pace of discussion",
    "hypotheticals": "Hypotheticals",
}


@dataclass(frozen=True)
class Answer:
    key: str
    label: str
    meaning: str
    codes: frozenset[str]   # the finding codes that support this answer (empty: no fault)


def _answer(key, label, meaning, *codes):
    return Answer(key, label, meaning, frozenset(codes))


# The fixed set of answer choices. `codes` ties each one to the recorder's findings.
ANSWERS: dict[str, Answer] = {a.key: a for a in [
    _answer("correct", "Correct",
            "The play or announcement is fine as it stands."),
    _answer("allowed-interruption", "Allowed interruption",
            "An opponent stepped into a window in time: the shortcut they interrupted does not bind."),
    _answer("misplay-not-binding", "Misplay, not binding",
            "The announcement is impossible or incomplete: a misplay, and the player is not bound by it.",
            "discipline-unavailable", "card-choice-missing"),
    _answer("misplay-binding", "Misplay, binding",
            "A valid play was misrepresented: it stays binding, and it is a misplay.",
            "misrepresented"),
    _answer("incomplete", "Incomplete announcement",
            "Something the player must say was left out (an amount, the votes, the terms, the stealth).",
            "bleed-amount-missing", "bleed-total-not-restated", "stealth-undeclared",
            "vote-incomplete", "vote-vampire-missing", "terms-unconfirmed"),
    _answer("forbidden-shortcut", "Forbidden shortcut",
            "One of the four shortcuts nobody may take: the pass after an action, the block "
            "passes, replacing before the next card, the end of turn.",
            "action-pass-missing", "block-pass-missing", "block-out-of-order",
            "replace-missing", "end-of-turn-missing"),
    _answer("too-late", "Too late",
            "The window was closed by a shortcut or by the next card or effect.",
            "phase-passed", "interrupt-too-late", "cancel-too-late"),
    _answer("binding", "Binding, cannot take it back",
            "A declaration was made; the player cannot change their mind.",
            "declaration-binding"),
    _answer("unsportsmanlike", "Unsportsmanlike",
            "Table talk that is not allowed: a raised voice, a slur, a physical threat.",
            "unsportsmanlike"),
    _answer("slow-play", "Slow play",
            "Discussion went on after the acting player asked for a decision and the last "
            "question was answered (the recorder files it as Slow Play; only a judge who finds "
            "it deliberate makes it Stalling).",
            "discussion-after-stop"),
]}
NO_FAULT = ("correct", "allowed-interruption")
# Findings that are not a fault (an interrupted shortcut is normal play).
INFO_CODES = frozenset(c for c, row in F.CODES.items() if row.severity in ("info", "warning"))

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
DEFAULT_QUESTION = "What would the judge say?"
TEXT_FIELDS = ("title", "situation", "statement", "explanation")
KNOWN_FIELDS = {"id", "section", "anchor", "seats", "question", "choices", "answer",
                "events", "expect", *TEXT_FIELDS}
MAX_TEXT = 1200


@dataclass(frozen=True)
class Scenario:
    id: str
    section: str
    title: str
    situation: str
    statement: str
    choices: tuple[str, ...]
    answer: str
    explanation: str
    events: tuple[dict[str, Any], ...]
    expect: tuple[str, ...]
    seats: tuple[str, ...]
    anchor: str | None = None
    question: str = DEFAULT_QUESTION
    file: str = ""

    @property
    def url(self) -> str:
        return rules_url(self.section, self.anchor)

    @property
    def section_title(self) -> str:
        return SECTIONS[self.section]

    @property
    def example_label(self) -> str | None:
        """"Example 3" when the scenario echoes a worked example of the guidelines."""
        m = re.search(r"-ex(\d+)$", self.anchor or "")
        return f"Example {m.group(1)}" if m else None

    def is_right(self, choice: str) -> bool:
        return choice == self.answer

    @property
    def shown_choices(self) -> tuple[str, ...]:
        """The choices in the order the page shows them: mixed, but the same every time
        (seeded by the id), so the right answer does not sit at the same place."""
        def key(choice: str) -> str:
            return hashlib.sha256(f"{self.id}:{choice}".encode()).hexdigest()
        return tuple(sorted(self.choices, key=key))


def rules_url(section: str, anchor: str | None = None) -> str:
    """The rules page of a guideline section (and paragraph or example anchor)."""
    if section == "intro":
        return f"/rules/{DOC}#{anchor or 'intro'}"
    return f"/rules/{DOC}/{section}" + (f"#{anchor}" if anchor else "")


@dataclass
class ScenarioProblem:
    """What is wrong in a scenario file: the file, the scenario (if known) and why."""
    file: str
    scenario: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: scenario {self.scenario!r}" if self.scenario else self.file
        return f"{where}: {self.message}"


class ScenarioFileError(ValueError):
    def __init__(self, problems: list[ScenarioProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class Catalog:
    scenarios: list[Scenario] = field(default_factory=list)

    def __post_init__(self):
        self.by_id = {s.id: s for s in self.scenarios}

    def get(self, scenario_id: str) -> Scenario | None:
        return self.by_id.get(scenario_id)

    def in_section(self, section: str) -> list[Scenario]:
        return [s for s in self.scenarios if s.section == section]

    def counts(self) -> dict[str, int]:
        return {sec: len(self.in_section(sec)) for sec in SECTIONS}

    def __len__(self) -> int:
        return len(self.scenarios)


# --- loading ----------------------------------------------------------------------------

def check_file(path: Path, cards=None) -> tuple[list[Scenario], list[ScenarioProblem]]:
    """Parse one scenario file: its scenarios and every problem found (as values)."""
    name = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        return [], [ScenarioProblem(name, None, f"cannot read the file ({exc})")]
    except tomllib.TOMLDecodeError as exc:
        return [], [ScenarioProblem(name, None, f"not valid TOML ({exc})")]
    return parse_data(data, name, cards)


def parse_data(data: dict[str, Any], name: str, cards=None) -> tuple[list[Scenario], list[ScenarioProblem]]:
    problems: list[ScenarioProblem] = []
    unknown_top = set(data) - {"section", "seats", "scenario"}
    if unknown_top:
        problems.append(ScenarioProblem(name, None, f"unknown top-level key(s): {', '.join(sorted(unknown_top))}"))
    default_section = data.get("section")
    if default_section is not None and default_section not in SECTIONS:
        problems.append(ScenarioProblem(name, None, f"section {default_section!r} is not a guideline section "
                                                    f"({', '.join(SECTIONS)})"))
        default_section = None
    default_seats = data.get("seats")
    raw_list = data.get("scenario")
    if not isinstance(raw_list, list) or not raw_list:
        problems.append(ScenarioProblem(name, None, "no [[scenario]] tables"))
        return [], problems
    out: list[Scenario] = []
    for i, raw in enumerate(raw_list, 1):
        label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"#{i}"
        errors: list[str] = []
        scenario = _parse_one(raw, default_section, default_seats, name, cards, errors)
        problems += [ScenarioProblem(name, label, e) for e in errors]
        if scenario is not None and not errors:
            out.append(scenario)
    return out, problems


def _text(raw, key, errors, required=True) -> str | None:
    value = raw.get(key)
    if value is None:
        if required:
            errors.append(f"{key} is missing")
        return None
    if not isinstance(value, str) or not value.strip():
        errors.append(f"{key} must be a non-empty string")
        return None
    if len(value) > MAX_TEXT:
        errors.append(f"{key} is too long ({len(value)} characters; at most {MAX_TEXT})")
    return " ".join(value.split())


def _parse_one(raw, default_section, default_seats, name, cards, errors) -> Scenario | None:
    if not isinstance(raw, dict):
        errors.append("a scenario must be a table")
        return None
    unknown = set(raw) - KNOWN_FIELDS
    if unknown:
        errors.append(f"unknown field(s): {', '.join(sorted(unknown))}")
    sid = raw.get("id")
    if not isinstance(sid, str) or not ID_RE.match(sid):
        errors.append("id is missing or not a slug (lower-case words joined by '-')")
    section = raw.get("section", default_section)
    if section is None:
        errors.append("section is missing")
    elif section not in SECTIONS:
        errors.append(f"section {section!r} is not a guideline section ({', '.join(SECTIONS)})")
    anchor = raw.get("anchor")
    if anchor is not None:
        if not isinstance(anchor, str) or not re.fullmatch(rf"{re.escape(str(section))}-(ex|p)\d+", anchor):
            errors.append(f"anchor {anchor!r} must be '<section>-ex<N>' or '<section>-p<N>' of section {section!r}")
    texts = {k: _text(raw, k, errors) for k in TEXT_FIELDS}
    question = _text(raw, "question", errors, required=False) or DEFAULT_QUESTION
    seats = raw.get("seats", default_seats)
    if not (isinstance(seats, list) and 4 <= len(seats) <= 5
            and all(isinstance(s, str) and s.strip() for s in seats)):
        errors.append("seats must be a list of 4 or 5 player names")
        seats = None
    answer = raw.get("answer")
    if answer not in ANSWERS:
        errors.append(f"answer {answer!r} is not one of: {', '.join(ANSWERS)}")
    choices = raw.get("choices")
    if not isinstance(choices, list) or not 2 <= len(choices) <= 5:
        errors.append("choices must be a list of 2 to 5 answers")
        choices = []
    else:
        bad = [c for c in choices if c not in ANSWERS]
        if bad:
            errors.append(f"unknown choice(s) {bad}; the fixed set is: {', '.join(ANSWERS)}")
        if len(set(choices)) != len(choices):
            errors.append("choices repeat an answer")
        if answer in ANSWERS and answer not in choices:
            errors.append(f"the answer {answer!r} is not among the choices")
    expect = raw.get("expect")
    if not isinstance(expect, list) or not all(isinstance(c, str) for c in expect):
        errors.append("expect must be a list of finding codes (empty when the play is allowed)")
        expect = []
    else:
        bad = [c for c in expect if c not in F.CODES]
        if bad:
            errors.append(f"unknown finding code(s) {bad}")
    events = raw.get("events")
    valid_events: list[dict[str, Any]] = []
    if not isinstance(events, list) or not events:
        errors.append("events must be a non-empty list of recorder events")
    elif seats is not None:
        for n, event in enumerate(events, 1):
            result = validate_event(event, len(seats), cards)
            if isinstance(result, EventError):
                errors.append(f"event {n}: {result}")
            else:
                valid_events.append(result)
    if errors:
        return None
    return Scenario(id=sid, section=section, title=texts["title"], situation=texts["situation"],
                    statement=texts["statement"], choices=tuple(choices), answer=answer,
                    explanation=texts["explanation"], events=tuple(valid_events),
                    expect=tuple(expect), seats=tuple(s.strip() for s in seats),
                    anchor=anchor, question=question, file=name)


def scenario_files(folder: Path) -> list[Path]:
    return sorted(p for p in Path(folder).glob("*.toml") if p.is_file())


def load_scenarios(folder: Path, cards=None) -> Catalog:
    """Every scenario of `folder` (content/trainer), or ScenarioFileError with all problems."""
    scenarios: list[Scenario] = []
    problems: list[ScenarioProblem] = []
    seen: dict[str, str] = {}
    files = scenario_files(folder)
    if not files:
        raise ScenarioFileError([ScenarioProblem(str(folder), None, "no scenario files (*.toml)")])
    for path in files:
        found, probs = check_file(path, cards)
        problems += probs
        for s in found:
            if s.id in seen:
                problems.append(ScenarioProblem(path.name, s.id, f"id already used in {seen[s.id]}"))
                continue
            seen[s.id] = path.name
            scenarios.append(s)
    if problems:
        raise ScenarioFileError(problems)
    order = list(SECTIONS)
    scenarios.sort(key=lambda s: order.index(s.section))  # stable: file order within a section
    return Catalog(scenarios)


# --- the engine's view ------------------------------------------------------------------

def replay(scenario: Scenario, cards=None) -> list[dict[str, Any]]:
    """The recorder's findings for the scenario's events."""
    return engine.check(list(scenario.events), list(scenario.seats), cards=cards)


def faults(codes: list[str] | tuple[str, ...]) -> list[str]:
    return [c for c in codes if c not in INFO_CODES]


def agreement(scenario: Scenario, codes: list[str]) -> list[str]:
    """Why the engine's finding codes do not support the scenario's answer ([] if they do).

    - "correct" / "allowed interruption": no fault at all (informative findings only);
    - any other answer: at least one code of that answer, and no fault that belongs to
      another answer offered as a choice (the question must not have two right answers).
    """
    problems = []
    answer = ANSWERS[scenario.answer]
    found = faults(codes)
    if scenario.answer in NO_FAULT:
        if found:
            problems.append(f"answer {scenario.answer!r} but the engine reports {found}")
        return problems
    if not answer.codes & set(found):
        problems.append(f"answer {scenario.answer!r} needs one of {sorted(answer.codes)}; "
                        f"the engine reports {found or 'no fault'}")
    for choice in scenario.choices:
        if choice == scenario.answer or choice in NO_FAULT:
            continue
        other = ANSWERS[choice].codes & set(found) - answer.codes
        if other:
            problems.append(f"the engine's {sorted(other)} would also make choice {choice!r} right")
    return problems
