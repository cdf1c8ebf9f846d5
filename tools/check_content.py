#!/usr/bin/env python3
"""Check the rules documents against docs/content-format.md.

Usage:
    python tools/check_content.py [FILE.md ...] [--sources DIR] [-v]

Without files, checks content/rules/*.md and content/rules/history/*.md.

This is a validator for humans editing content, not the loader: it re-implements only
the rules of the format that can be checked line by line (front matter keys, heading
levels and numbers, unique ids, tables, examples, no HTML or Jinja left over).

With --sources DIR (default: ../shared/sources next to the checkout, if it exists) it
also compares each document with the source file named in its front matter: every
numbered heading of the source must be a section of the document.

Exit status 1 if any error was found. Warnings do not change the exit status.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIRED_KEYS = ("id", "title", "edition", "kind", "copyright")
KINDS = ("current", "history")

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
EXPLICIT_ID = re.compile(r"\s*\{#([A-Za-z0-9_.:-]+)\}\s*$")
APPENDIX = re.compile(r"^Appendix ([A-Z])\.\s+(\S.*)$")
NUMBERED = re.compile(r"^((?:\d+|[A-Z])(?:\.\d+)*)(\.?)\s+(\S.*)$")
LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+\.)\s+\S")
TABLE_SEP = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(\s[^<>]*)?/?>")
ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")
TERM = re.compile(r"^\*\*([^*]+?):\*\*")


@dataclass
class Report:
    path: Path
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    sections: list[tuple[int, str, str]] = field(default_factory=list)  # level, id, title
    examples: int = 0
    tables: int = 0
    terms: int = 0

    def error(self, line: int, msg: str) -> None:
        self.errors.append(f"{self.path}:{line}: error: {msg}")

    def warn(self, line: int, msg: str) -> None:
        self.warnings.append(f"{self.path}:{line}: warning: {msg}")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def split_cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


def parse_front_matter(lines: list[str], rep: Report) -> int:
    """Return the index of the first body line."""
    if not lines or lines[0].strip() != "---":
        rep.error(1, "missing front matter (the file must start with '---')")
        return 0
    for i in range(1, len(lines)):
        line = lines[i]
        if line.strip() == "---":
            break
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$", line)
        if not m:
            rep.error(i + 1, f"front matter line is not 'key: value': {line!r}")
            continue
        key, value = m.group(1), m.group(2)
        value = re.sub(r"\s+#.*$", "", value).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if key in rep.meta:
            rep.error(i + 1, f"front matter key {key!r} given twice")
        rep.meta[key] = value
    else:
        rep.error(1, "unterminated front matter (no closing '---')")
        return len(lines)
    for key in REQUIRED_KEYS:
        if not rep.meta.get(key):
            rep.error(1, f"front matter key {key!r} is missing or empty")
    kind = rep.meta.get("kind")
    if kind and kind not in KINDS:
        rep.error(1, f"kind must be one of {KINDS}, not {kind!r}")
    if kind == "history" and not rep.meta.get("history_of"):
        rep.error(1, "history documents need 'history_of'")
    if kind == "current" and rep.meta.get("history_of"):
        rep.warn(1, "'history_of' on a current document")
    date = rep.meta.get("date")
    if date and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        rep.warn(1, f"date {date!r} is not YYYY-MM-DD")
    return i + 1


def heading_id(level: int, title: str, lineno: int, rep: Report) -> tuple[str, str]:
    m = EXPLICIT_ID.search(title)
    explicit = None
    if m:
        explicit = m.group(1)
        title = title[: m.start()].rstrip()
    am = APPENDIX.match(title)
    nm = NUMBERED.match(title)
    if am:
        number, rest = am.group(1), am.group(2)
        if level != 1:
            rep.error(lineno, f"'Appendix {number}' must be a top-level heading")
        sid = number
    elif nm and (nm.group(1)[0].isdigit() or "." in nm.group(1)):
        number, dot, rest = nm.group(1), nm.group(2), nm.group(3)
        depth = number.count(".") + 1
        if not dot:
            rep.error(lineno, f"section number {number!r} must end with a dot ('{number}.')")
        if depth != level:
            rep.error(lineno, f"section {number} has depth {depth} but heading level {level}")
        sid = number
    elif title.startswith("Appendix "):
        rep.error(lineno, f"appendix heading must read 'Appendix X. Title': {title!r}")
        sid = slug(title)
        rest = title
    else:
        sid = slug(title)
        rest = title
        if not explicit:
            rep.warn(lineno, f"unnumbered heading without explicit id, slug {sid!r} will be used")
    if explicit:
        if am or (nm and nm.group(1)[0].isdigit()):
            rep.warn(lineno, "numbered heading with an explicit id: the explicit id wins")
        sid = explicit
    return sid, rest


def check_inline(text: str, lineno: int, rep: Report) -> None:
    if HTML_TAG.search(text):
        rep.error(lineno, f"raw HTML: {HTML_TAG.search(text).group(0)!r}")
    if "{%" in text or "{{" in text or "%}" in text or "}}" in text:
        rep.error(lineno, "Jinja markup left in the text")
    em = ENTITY.search(text)
    if em:
        rep.error(lineno, f"HTML entity left in the text: {em.group(0)!r}")
    if "bi-link" in text or "link-45deg" in text or "¶" in text:
        rep.error(lineno, "link-icon leftover")
    if re.search("Â|â€|\ufffd|\xa0", text):
        rep.warn(lineno, "mis-decoded or non-breaking character (extraction damage?)")
    if text.count("**") % 2:
        rep.warn(lineno, "odd number of '**' (unbalanced bold)")
    for lm in re.finditer(r"\[([^\]]*)\]\(([^)]*)\)", text):
        target = lm.group(2)
        if not target or " " in target.strip():
            rep.error(lineno, f"malformed link target {target!r}")


def check_body(lines: list[str], start: int, rep: Report) -> None:
    ids: dict[str, int] = {}
    prev_level = 0
    base = None
    stack: list[tuple[int, str, str | None]] = []  # (level, id, number) of open sections
    current_section = None  # id
    i = start
    n = len(lines)
    while i < n:
        raw = lines[i]
        lineno = i + 1
        line = raw.rstrip("\n")
        if not line.strip():
            i += 1
            continue
        if "\t" in line:
            rep.warn(lineno, "tab character")
        if line != line.rstrip():
            rep.warn(lineno, "trailing whitespace")

        hm = HEADING.match(line)
        if hm:
            hashes = len(hm.group(1))
            if base is None:
                base = hashes  # the first heading's level is the document's top level
            if hashes < base:
                rep.error(lineno, f"heading level {hashes} is above the document's top level {base}")
            level = hashes - base + 1
            if level > 4:
                rep.error(lineno, "heading deeper than four levels")
            if level > prev_level + 1:
                rep.error(lineno, f"heading level {hashes} skips a level")
            sid, title = heading_id(level, hm.group(2), lineno, rep)
            while stack and stack[-1][0] >= level:
                stack.pop()
            number = sid if re.fullmatch(r"(?:\d+|[A-Z])(?:\.\d+)*", sid) else None
            if number and stack and stack[-1][2] and not number.startswith(stack[-1][2] + "."):
                rep.error(lineno, f"section {number} is not inside its parent {stack[-1][2]}")
            stack.append((level, sid, number))
            check_inline(title, lineno, rep)
            if sid in ids:
                rep.error(lineno, f"duplicate section id {sid!r} (first at line {ids[sid]})")
            else:
                ids[sid] = lineno
            rep.sections.append((level, sid, title))
            current_section = sid
            prev_level = level
            i += 1
            continue

        if line.lstrip().startswith(">"):
            # a block quote: must be an example, ends at a blank line
            first = re.sub(r"^\s*>\s?", "", line)
            if not first.startswith("**Example"):
                rep.warn(lineno, "block quote that is not an example (an example's first line starts with '**Example')")
            else:
                rep.examples += 1
            j = i
            while j < n and lines[j].strip():
                if not lines[j].lstrip().startswith(">"):
                    rep.error(j + 1, "unterminated example: a line inside a block quote lacks '>' "
                                     "(leave a blank line after the example)")
                    break
                inner = re.sub(r"^\s*>\s?", "", lines[j])
                if HEADING.match(inner):
                    rep.error(j + 1, "heading inside an example")
                if inner.lstrip().startswith("|"):
                    rep.warn(j + 1, "table inside an example")
                check_inline(inner, j + 1, rep)
                j += 1
            i = j
            continue

        if line.lstrip().startswith("|"):
            j = i
            rows = []
            while j < n and lines[j].strip().startswith("|"):
                rows.append((j + 1, lines[j]))
                j += 1
            rep.tables += 1
            if len(rows) < 2 or not TABLE_SEP.match(rows[1][1].strip()):
                rep.error(lineno, "table without a header row and a '|---|' separator row")
            else:
                width = len(split_cells(rows[0][1]))
                for ln, row in rows:
                    cells = split_cells(row)
                    if len(cells) != width:
                        rep.error(ln, f"table row has {len(cells)} cells, header has {width}")
                    for c in cells:
                        check_inline(c, ln, rep)
            if j < n and lines[j].strip():
                rep.error(j + 1, "text directly after a table (leave a blank line)")
            i = j
            continue

        if current_section is None:
            # preamble: allowed, just check the text
            check_inline(line, lineno, rep)
            i += 1
            continue

        lm = LIST_ITEM.match(line)
        if lm:
            j = i
            while j < n and lines[j].strip():
                item = lines[j]
                if LIST_ITEM.match(item):
                    indent = len(LIST_ITEM.match(item).group(1))
                    if indent % 2:
                        rep.warn(j + 1, "list item indented by an odd number of spaces")
                elif item.startswith("  "):
                    pass  # continuation line of an item
                else:
                    rep.warn(j + 1, "list followed directly by a non-item line (leave a blank line)")
                check_inline(item, j + 1, rep)
                j += 1
            i = j
            continue

        # paragraph
        j = i
        para = []
        while j < n and lines[j].strip() and not HEADING.match(lines[j]) \
                and not lines[j].lstrip().startswith((">", "|")):
            para.append(lines[j])
            check_inline(lines[j], j + 1, rep)
            j += 1
        text = " ".join(p.strip() for p in para)
        tm = TERM.match(text)
        if tm:
            if current_section == "B":
                rep.terms += 1
            else:
                rep.warn(lineno, f"paragraph starts like a glossary term ({tm.group(1)!r}) outside Appendix B")
        i = j


def compare_with_source(rep: Report, sources: Path) -> None:
    names = [s.strip() for s in rep.meta.get("source", "").split(",") if s.strip()]
    ids = {sid for _, sid, _ in rep.sections}
    for name in names:
        path = sources / name
        if not path.exists():
            rep.warn(1, f"source {name} not found in {sources}; comparison skipped")
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found: list[str] = []
        if "<h2" in text or "<h3" in text:
            for m in re.finditer(r"<h([234])[^>]*>(.*?)(?:<a |</h\1>)", text, re.S):
                title = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(2))).strip()
                am = re.match(r"Appendix ([A-Z])\b", title)
                nm = re.match(r"((?:\d+|[A-Z])(?:\.\d+)*)\.?\s", title)
                if am:
                    found.append(am.group(1))
                elif nm:
                    found.append(nm.group(1))
                # unnumbered headings ("Contents") are navigation
            kind = "HTML h2/h3/h4 headings"
        else:
            for line in text.splitlines():
                nm = re.match(r"^\s*(\d+(?:\.\d+)*)\.?\s+[A-Z][^|]*$", line)
                if nm and len(line) < 90 and not line.rstrip().endswith((".", ":")):
                    found.append(nm.group(1))
            kind = "numbered heading lines"
        missing = [sid for sid in found if sid not in ids]
        print(f"  {name}: {len(found)} {kind}, {len(found) - len(missing)} present as sections")
        for sid in missing:
            rep.error(1, f"section {sid} of source {name} is missing")


def check_file(path: Path, sources: Path | None) -> Report:
    rep = Report(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    start = parse_front_matter(lines, rep)
    check_body(lines, start, rep)
    if not rep.sections:
        rep.error(1, "no sections")
    if sources is not None:
        compare_with_source(rep, sources)
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--sources", type=Path, default=None,
                    help="directory of the source documents (default: ../shared/sources if present)")
    ap.add_argument("--no-sources", action="store_true", help="skip the comparison with the sources")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the sections of each document")
    args = ap.parse_args(argv)

    files = args.files or sorted((ROOT / "content" / "rules").glob("*.md")) + \
        sorted((ROOT / "content" / "rules" / "history").glob("*.md"))
    sources = None
    if not args.no_sources:
        sources = args.sources or (ROOT.parent / "shared" / "sources")
        if not sources.is_dir():
            sources = None

    n_err = 0
    for f in files:
        print(f"{f}:")
        rep = check_file(f, sources)
        counts = {}
        for level, _, _ in rep.sections:
            counts[level] = counts.get(level, 0) + 1
        levels = ", ".join(f"depth {k}: {v}" for k, v in sorted(counts.items()))
        print(f"  {rep.meta.get('id', '?')} ({rep.meta.get('kind', '?')}, edition {rep.meta.get('edition', '?')}): "
              f"{len(rep.sections)} sections ({levels}), {rep.examples} examples, "
              f"{rep.tables} tables, {rep.terms} glossary terms")
        if args.verbose:
            for level, sid, title in rep.sections:
                print(f"    {'  ' * (level - 1)}{sid}  {title}")
        for w in rep.warnings:
            print("  " + w)
        for e in rep.errors:
            print("  " + e)
        n_err += len(rep.errors)
    print(f"{len(files)} file(s), {n_err} error(s)")
    return 1 if n_err else 0


if __name__ == "__main__":
    sys.exit(main())
