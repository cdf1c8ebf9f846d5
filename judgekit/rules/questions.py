"""The questions each search entry answers, in the words people use at a table.

Reviewed content beside the rules (`content/rules/questions/<name>.yaml`): one file per
rules document (`tournament-rules.yaml`, `announcements.yaml`: keyed by what follows
`<doc>/` in an entry's key, "3.7.2", "shortcuts#shortcuts-ex3", "B#term-proxy-card") and
one for the card ruling groups (`cards.yaml`, keyed by group id, "G00090"). Each key holds a
list of phrasings. The search indexes them as the entry's `questions` field, with its own
weight (document expansion: "fibbed" finds the section that says "misrepresent" because a
question filed under it says "fibbed"); they are never shown as rules text.

Pure Python: reading and checking the files. A malformed file raises `ContentError`
naming the file and the line, as a malformed rules document does.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from judgekit.rules.content_error import ContentError

FOLDER = "questions"
CARDS = "cards"      # the file of the card ruling groups' questions
MAX_PHRASING = 300   # characters: a question, not a paragraph
#: phrasings of one entry at most: the browser holds an entry's phrasings holding a word as
#: the bits of a 32-bit number (static/offline-phrasings.js); the most today is 20
MAX_PHRASINGS = 30


def question_files(content_dir: str | Path) -> list[Path]:
    """The questions files of a content folder, in name order."""
    return sorted((Path(content_dir) / "rules" / FOLDER).glob("*.yaml"))


def parse_questions(path: Path, raw: str) -> dict[str, tuple[str, ...]]:
    """One questions file: key -> its phrasings (stripped, in file order, repeats dropped)."""
    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ContentError(path, (mark.line + 1) if mark else 1, f"not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ContentError(path, 1, "expected a mapping of entry keys to lists of questions")
    out: dict[str, tuple[str, ...]] = {}
    for key, phrasings in data.items():
        line = _line_of(raw, str(key))
        if not isinstance(key, (str, int, float)) or not str(key).strip():
            raise ContentError(path, line, f"{key!r} is not an entry key")
        if not isinstance(phrasings, list) or not phrasings:
            raise ContentError(path, line, f"{key}: expected a non-empty list of questions")
        seen: dict[str, None] = {}
        for p in phrasings:
            if not isinstance(p, str) or not p.strip():
                raise ContentError(path, line, f"{key}: every question must be text, got {p!r}")
            if len(p) > MAX_PHRASING:
                raise ContentError(path, line, f"{key}: a question of {len(p)} characters (at most {MAX_PHRASING})")
            seen.setdefault(" ".join(p.split()), None)
        if len(seen) > MAX_PHRASINGS:
            raise ContentError(path, line, f"{key}: {len(seen)} questions (at most {MAX_PHRASINGS})")
        out[str(key)] = tuple(seen)
    return out


def _line_of(raw: str, key: str) -> int:
    for n, line in enumerate(raw.splitlines(), 1):
        if line.startswith((f'"{key}":', f"'{key}':", f"{key}:")):
            return n
    return 1


def load_questions(files: list[Path]) -> dict[str, dict[str, tuple[str, ...]]]:
    """Every questions file: its name (a document id, or `CARDS`) -> key -> phrasings."""
    return {path.stem: parse_questions(path, path.read_text(encoding="utf-8")) for path in files}


def questions_text(phrasings: tuple[str, ...] | list[str]) -> str:
    """The text an entry's `questions` field indexes: one phrasing a line."""
    return "\n".join(phrasings)


def unknown_keys(questions: dict[str, dict[str, tuple[str, ...]]], keys: set[str]) -> list[str]:
    """The questions' keys (as `<file>/<key>`) that name no entry among `keys` (entry keys,
    and the card groups as `cards/<group id>`): a question filed under nothing is lost."""
    return sorted(f"{name}/{key}" for name, table in questions.items() for key in table
                  if f"{name}/{key}" not in keys)
