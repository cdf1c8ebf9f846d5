"""Load the rules documents (`content/rules/**/*.md`) into a tree of sections.

The format is described in `docs/content-format.md`. Loading is deterministic: the same
files always give the same section ids and block anchors. A malformed file raises
`ContentError` naming the file and the line.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from judgekit.rules.content_error import ContentError
from judgekit.rules.questions import load_questions, question_files

REQUIRED_KEYS = ("id", "title", "edition", "kind", "copyright")

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{#([A-Za-z0-9][\w.-]*)\})?\s*$")
NUMBERED = re.compile(r"^(?:Appendix\s+)?((?:[A-Z]|\d+)(?:\.\d+)*)\.?(?:\s+[-–—]\s+|\s+)(.+)$")
LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
TABLE_SEP = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
TERM = re.compile(r"^\*\*([^*]+?):\*\*\s*(.*)$", re.S)
EXAMPLE_START = re.compile(r"^\*\*Example\b")
EDITORIAL = re.compile(r"^\*Editorial note:\s*(.*?)\*$", re.S)


@dataclass
class ListItem:
    text: str
    children: list["ListItem"] = field(default_factory=list)


@dataclass
class Block:
    kind: str                     # paragraph | list | table | example | term | quote | note
    anchor: str
    line: int
    text: str = ""                # paragraph, term definition (Markdown inline)
    items: list[ListItem] = field(default_factory=list)   # list
    ordered: bool = False
    header: list[str] = field(default_factory=list)       # table
    rows: list[list[str]] = field(default_factory=list)
    blocks: list["Block"] = field(default_factory=list)   # example / quote contents
    term: str | None = None       # glossary term
    label: str = ""               # example label ("Example 3.")

    def plain(self) -> str:
        """The block's text without Markdown markup (for search and diffs)."""
        if self.kind in ("paragraph", "term"):
            body = strip_inline(self.text)
            return f"{self.term}: {body}" if self.term else body
        if self.kind == "list":
            return " ".join(_plain_items(self.items))
        if self.kind == "table":
            cells = [*self.header] + [c for row in self.rows for c in row]
            return " ".join(strip_inline(c) for c in cells)
        if self.kind in ("example", "quote"):
            return " ".join(b.plain() for b in self.blocks)
        return ""  # editorial notes are ours, not rules text: not searched, not diffed


def _plain_items(items: list[ListItem]) -> list[str]:
    out = []
    for item in items:
        out.append(strip_inline(item.text))
        out.extend(_plain_items(item.children))
    return out


@dataclass
class Section:
    doc: str
    id: str
    number: str | None
    title: str
    level: int
    line: int
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    prev: str | None = None
    next: str | None = None

    @property
    def label(self) -> str:
        """"3.7.2. Victory Point Scoring", "Appendix A. …" or just the title."""
        if not self.number:
            return self.title
        prefix = f"Appendix {self.number}" if re.fullmatch(r"[A-Z]", self.number) else self.number
        return f"{prefix}. {self.title}"

    @property
    def examples(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "example"]

    def plain(self, include_examples: bool = True) -> str:
        return "\n".join(b.plain() for b in self.blocks
                         if include_examples or b.kind != "example")


@dataclass
class Document:
    id: str
    title: str
    edition: str
    kind: str
    copyright: str
    path: str
    meta: dict[str, str]
    preamble: list[Block] = field(default_factory=list)
    sections: dict[str, Section] = field(default_factory=dict)   # in document order
    top: list[str] = field(default_factory=list)                  # top-level section ids

    @property
    def history_of(self) -> str | None:
        return self.meta.get("history_of")

    @property
    def is_history(self) -> bool:
        return self.kind == "history"

    def section(self, section_id: str) -> Section | None:
        return self.sections.get(section_id)

    def ancestors(self, section_id: str) -> list[Section]:
        out = []
        sec = self.sections.get(section_id)
        while sec is not None and sec.parent:
            sec = self.sections[sec.parent]
            out.append(sec)
        return list(reversed(out))

    def blocks(self):
        """Every (section or None, block) pair of the document, in order."""
        for block in self.preamble:
            yield None, block
        for sec in self.sections.values():
            for block in sec.blocks:
                yield sec, block


@dataclass
class Corpus:
    documents: dict[str, Document]          # every document, current and history, by id
    content_hash: str
    # the questions each entry answers (`judgekit.rules.questions`): file name (a document
    # id, or "cards" for the card ruling groups) -> entry key -> phrasings
    questions: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)

    @property
    def current(self) -> list[Document]:
        """Current documents in reading order (front matter `order`, then id)."""
        docs = [d for d in self.documents.values() if not d.is_history]
        return sorted(docs, key=lambda d: (int(d.meta.get("order", 50)), d.id))

    @property
    def history(self) -> list[Document]:
        return [d for d in self.documents.values() if d.is_history]

    def editions_of(self, doc_id: str) -> list[Document]:
        """Older editions of a current document, oldest first (by file order)."""
        return [d for d in self.history if d.history_of == doc_id]

    def get(self, doc_id: str) -> Document | None:
        return self.documents.get(doc_id)

    def glossary(self) -> dict[str, tuple[Document, Section, Block]]:
        """Defined terms (Appendix B style `**Term:**` paragraphs) of the current documents."""
        out = {}
        for doc in self.current:
            for sec, block in doc.blocks():
                if block.kind == "term" and block.term:
                    out[block.term] = (doc, sec, block)
        return out


# --- inline helpers ------------------------------------------------------------------

LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def strip_inline(text: str) -> str:
    text = LINK.sub(r"\1", text)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"\1", text)
    text = re.sub(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?!\w)", r"\1", text)
    text = text.replace("\\", "")
    return text


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKD", strip_inline(text)).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[\s_-]+", "-", text)


# --- parsing ---------------------------------------------------------------------------

def parse_front_matter(lines: list[str], path: Path) -> tuple[dict[str, str], int]:
    if not lines or lines[0].strip() != "---":
        raise ContentError(path, 1, "the file must start with a front matter block ('---')")
    meta: dict[str, str] = {}
    for i in range(1, len(lines)):
        raw = lines[i].rstrip()
        if raw.strip() == "---":
            missing = [k for k in REQUIRED_KEYS if not meta.get(k)]
            if missing:
                raise ContentError(path, i + 1, f"front matter lacks {', '.join(missing)}")
            if meta["kind"] not in ("current", "history"):
                raise ContentError(path, i + 1, "front matter 'kind' must be current or history")
            if meta["kind"] == "history" and not meta.get("history_of"):
                raise ContentError(path, i + 1, "a history document needs 'history_of'")
            return meta, i + 1
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if ":" not in raw:
            raise ContentError(path, i + 1, f"front matter line is not 'key: value': {raw!r}")
        key, value = raw.split(":", 1)
        value = value.strip()
        if " #" in value and not value.startswith(("'", '"')):
            value = value.split(" #", 1)[0].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        meta[key.strip()] = value
    raise ContentError(path, len(lines), "front matter is not closed with '---'")


class _BlockParser:
    """Turns the body lines of one section (or one example) into blocks."""

    def __init__(self, path: Path, anchor_base: str, in_appendix_terms: bool = False):
        self.path = path
        self.base = anchor_base
        self.terms = in_appendix_terms
        self.blocks: list[Block] = []
        self.n_para = 0
        self.n_example = 0

    def _anchor(self) -> str:
        self.n_para += 1
        return f"{self.base}-p{self.n_para}"

    def parse(self, lines: list[tuple[int, str]]) -> list[Block]:
        i = 0
        while i < len(lines):
            lineno, raw = lines[i]
            line = raw.rstrip()
            if not line.strip():
                i += 1
                continue
            if line.lstrip().startswith(">"):
                i = self._quote(lines, i)
            elif line.lstrip().startswith("|"):
                i = self._table(lines, i)
            elif LIST_ITEM.match(line):
                i = self._list(lines, i)
            else:
                i = self._paragraph(lines, i)
        return self.blocks

    def _paragraph(self, lines, i):
        start = lines[i][0]
        parts = []
        while i < len(lines):
            line = lines[i][1].rstrip()
            if not line.strip() or line.lstrip().startswith((">", "|")) or (parts and LIST_ITEM.match(line)):
                break
            parts.append(line.strip())
            i += 1
        text = " ".join(parts)
        if "<" in text and re.search(r"</?[a-zA-Z][^>]*>", text):
            raise ContentError(self.path, start, "raw HTML is not allowed in content")
        if "{%" in text or "{{" in text:
            raise ContentError(self.path, start, "template markup ({% / {{) is not allowed in content")
        m = TERM.match(text) if self.terms else None
        if EDITORIAL.match(text):
            self.blocks.append(Block("note", f"{self.base}-note{len(self.blocks) + 1}", start,
                                     text=EDITORIAL.match(text).group(1).strip()))
        elif m:
            term = m.group(1).strip()
            self.blocks.append(Block("term", f"term-{slugify(term)}", start, text=m.group(2).strip(), term=term))
        else:
            self.blocks.append(Block("paragraph", self._anchor(), start, text=text))
        return i

    def _list(self, lines, i):
        start = lines[i][0]
        first = LIST_ITEM.match(lines[i][1])
        ordered = first.group(2) not in "-*+"
        root: list[ListItem] = []
        stack: list[tuple[int, list[ListItem]]] = [(len(first.group(1)), root)]
        last: ListItem | None = None
        while i < len(lines):
            line = lines[i][1].rstrip()
            if not line.strip():
                # a blank line ends the list unless the next line continues it
                if i + 1 < len(lines) and LIST_ITEM.match(lines[i + 1][1]) and \
                        len(LIST_ITEM.match(lines[i + 1][1]).group(1)) >= stack[0][0]:
                    i += 1
                    continue
                break
            m = LIST_ITEM.match(line)
            if m:
                indent = len(m.group(1))
                if indent > stack[-1][0] and last is not None:
                    stack.append((indent, last.children))
                while len(stack) > 1 and indent < stack[-1][0]:
                    stack.pop()
                item = ListItem(m.group(3).strip())
                stack[-1][1].append(item)
                last = item
            elif line.startswith((" ", "\t")) and last is not None:
                last.text += " " + line.strip()
            else:
                break
            i += 1
        self.blocks.append(Block("list", self._anchor(), start, items=root, ordered=ordered))
        return i

    def _table(self, lines, i):
        start = lines[i][0]
        rows = []
        while i < len(lines) and lines[i][1].lstrip().startswith("|"):
            rows.append((lines[i][0], lines[i][1].strip()))
            i += 1
        if len(rows) < 2 or not TABLE_SEP.match(rows[1][1]):
            raise ContentError(self.path, start, "a table needs a header row and a |---| separator row")

        def cells(row: str) -> list[str]:
            row = row.strip()
            if row.startswith("|"):
                row = row[1:]
            if row.endswith("|") and not row.endswith("\\|"):
                row = row[:-1]
            return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]

        header = cells(rows[0][1])
        body = []
        for lineno, row in rows[2:]:
            c = cells(row)
            if len(c) != len(header):
                raise ContentError(self.path, lineno,
                                   f"table row has {len(c)} cells, the header has {len(header)}")
            body.append(c)
        self.blocks.append(Block("table", self._anchor(), start, header=header, rows=body))
        return i

    def _quote(self, lines, i):
        start = lines[i][0]
        inner: list[tuple[int, str]] = []
        while i < len(lines) and lines[i][1].lstrip().startswith(">"):
            content = lines[i][1].lstrip()[1:]
            if content.startswith(" "):
                content = content[1:]
            inner.append((lines[i][0], content))
            i += 1
        first = next((t for _, t in inner if t.strip()), "")
        if EXAMPLE_START.match(first.strip()):
            self.n_example += 1
            anchor = f"{self.base}-ex{self.n_example}"
            m = re.match(r"^\*\*(Example[^*]*?)\*\*\s*", first.strip())
            label = m.group(1).strip() if m else "Example"
            # drop the label from the first line; the page shows it as a badge
            for k, (ln, t) in enumerate(inner):
                if t.strip():
                    inner[k] = (ln, t.strip()[m.end():] if m else t)
                    break
            sub = _BlockParser(self.path, anchor)
            blocks = sub.parse(inner)
            self.blocks.append(Block("example", anchor, start, blocks=blocks, label=label.rstrip(".:")))
        else:
            sub = _BlockParser(self.path, f"{self.base}-q{self.n_para + 1}")
            blocks = sub.parse(inner)
            self.blocks.append(Block("quote", self._anchor(), start, blocks=blocks))
        return i


def parse_document(path: Path, text: str | None = None) -> Document:
    """Parse one content file. Raises ContentError with the file and line on bad input."""
    path = Path(path)
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ContentError(path, 1, f"not UTF-8 text ({exc.reason})") from None
    lines = text.splitlines()
    meta, body_start = parse_front_matter(lines, path)
    doc = Document(id=meta["id"], title=meta["title"], edition=meta["edition"], kind=meta["kind"],
                   copyright=meta["copyright"], path=str(path), meta=meta)
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", doc.id):
        raise ContentError(path, 2, f"document id {doc.id!r} must be lower-case letters, digits and '-'")

    # split into (heading, body lines) chunks
    chunks: list[tuple[tuple[int, str] | None, list[tuple[int, str]]]] = [(None, [])]
    in_fence = False
    for idx in range(body_start, len(lines)):
        lineno, line = idx + 1, lines[idx]
        if line.strip().startswith("```"):
            in_fence = not in_fence
        if not in_fence and HEADING.match(line):
            chunks.append(((lineno, line), []))
        else:
            chunks[-1][1].append((lineno, line))

    doc.preamble = _BlockParser(path, "intro").parse(chunks[0][1])
    stack: list[Section] = []
    prev_level = 0
    base: int | None = None  # the first heading's level is the top level
    glossary_sections: set[str] = set()
    for heading, body in chunks[1:]:
        lineno, line = heading
        m = HEADING.match(line)
        hashes, title, explicit = len(m.group(1)), m.group(2).strip(), m.group(3)
        if base is None:
            base = hashes
        if hashes < base:
            raise ContentError(path, lineno, f"heading level {hashes} is above the document's top level {base}")
        level = hashes - base + 1
        if level > prev_level + 1:
            raise ContentError(path, lineno, f"heading level {hashes} skips a level")
        number = None
        nm = NUMBERED.match(title)
        if nm and not explicit:
            number, title = nm.group(1), nm.group(2).strip()
            depth = number.count(".") + 1
            if depth != level:
                raise ContentError(path, lineno,
                                   f"section {number} is at depth {level}; its number says {depth}")
        sid = explicit or number or slugify(title)
        if not sid:
            raise ContentError(path, lineno, "heading has no usable id")
        if sid in doc.sections:
            raise ContentError(path, lineno, f"duplicate section id {sid!r} (first at line {doc.sections[sid].line})")
        while stack and stack[-1].level >= level:
            stack.pop()
        parent = stack[-1] if stack else None
        if number and parent and parent.number and not number.startswith(parent.number + "."):
            raise ContentError(path, lineno, f"section {number} is not inside its parent {parent.number}")
        sec = Section(doc=doc.id, id=sid, number=number, title=strip_inline(title), level=level,
                      line=lineno, parent=parent.id if parent else None)
        is_terms = bool(re.search(r"definition", sec.title, re.I)) or \
            any(doc.sections[a].id in glossary_sections for a in ([parent.id] if parent else []))
        if is_terms:
            glossary_sections.add(sid)
        sec.blocks = _BlockParser(path, sid, in_appendix_terms=is_terms).parse(body)
        if parent:
            parent.children.append(sid)
        else:
            doc.top.append(sid)
        doc.sections[sid] = sec
        stack.append(sec)
        prev_level = level

    order = list(doc.sections)
    for a, b in zip(order, order[1:]):
        doc.sections[a].next = b
        doc.sections[b].prev = a
    return doc


def content_files(content_dir: Path) -> list[Path]:
    """The rules documents (current, then history), then the questions files."""
    rules = Path(content_dir) / "rules"
    return sorted(rules.glob("*.md")) + sorted((rules / "history").glob("*.md")) + question_files(content_dir)


def load_corpus(content_dir: str | Path) -> Corpus:
    """Load every rules document under `content_dir/rules` (current first, then history)."""
    files = content_files(Path(content_dir))
    digest = hashlib.sha256()
    documents: dict[str, Document] = {}
    for path in files:
        raw = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + raw)
        if path.suffix != ".md":
            continue      # a questions file: read below
        doc = parse_document(path, raw.decode("utf-8", errors="strict"))
        if doc.id in documents:
            raise ContentError(path, 2, f"document id {doc.id!r} is already used by {documents[doc.id].path}")
        documents[doc.id] = doc
    for doc in documents.values():
        if doc.is_history and doc.history_of not in documents:
            raise ContentError(doc.path, 2, f"history_of names an unknown document {doc.history_of!r}")
    questions = load_questions([p for p in files if p.suffix == ".yaml"])
    return Corpus(documents=documents, content_hash=digest.hexdigest()[:16], questions=questions)
