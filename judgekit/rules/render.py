"""Turn corpus blocks into HTML: inline Markdown, cross-reference links, glossary links.

Rendering is pure (no Flask) and cached per section: the content does not change while
the app runs.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import markdown

from judgekit.rules.corpus import Block, Corpus, Document, ListItem, Section
from judgekit.rules.entries import section_url

# Glossary terms too common to link on every page.
GLOSSARY_SKIP = {"VEKN", "VTES", "Round", "Rating", "Ranking"}
# Single-word terms that only mean the defined thing when capitalised.
GLOSSARY_CASED = {"Constructed", "Limited", "Rating", "Ranking"}

NUM = r"(?:\d+(?:\.\d+)+|[1-9])"
TAG_SPLIT = re.compile(r"(<[^>]+>)")


@dataclass
class RenderedBlock:
    kind: str
    anchor: str
    html: str
    label: str = ""
    blocks: list["RenderedBlock"] = field(default_factory=list)


class Renderer:
    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self._md = markdown.Markdown(extensions=[], output_format="html")
        gloss = corpus.glossary()
        self.glossary = {term: (doc, sec, block) for term, (doc, sec, block) in gloss.items()
                         if term not in GLOSSARY_SKIP}
        terms = sorted(self.glossary, key=len, reverse=True)
        self._term_re = None
        if terms:
            alts = []
            for t in terms:
                body = re.escape(t).replace(r"\ ", r"\s+")
                alts.append(f"(?-i:{body})" if t in GLOSSARY_CASED else body)
            self._term_re = re.compile(r"(?<![\w-])(" + "|".join(alts) + r")(?:s|es)?(?![\w-])", re.I)
        self._term_key = {t.lower(): t for t in terms}
        self._section_cache: dict[tuple[str, str], list[RenderedBlock]] = {}

    # --- public ------------------------------------------------------------------------
    def section_blocks(self, doc: Document, sec: Section | None) -> list[RenderedBlock]:
        """The rendered blocks of a section (or of the preamble when `sec` is None)."""
        key = (doc.id, sec.id if sec else "")
        cached = self._section_cache.get(key)
        if cached is None:
            state = {"terms_done": set()}
            blocks = sec.blocks if sec else doc.preamble
            cached = [self._block(doc, sec, b, state) for b in blocks]
            self._section_cache[key] = cached
        return cached

    def inline(self, doc: Document, sec: Section | None, text: str, state: dict | None = None) -> str:
        out = self._md.reset().convert(text)
        if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
            out = out[3:-4]
        return self._link(doc, sec, out, state if state is not None else {"terms_done": set()})

    # --- blocks --------------------------------------------------------------------------
    def _block(self, doc: Document, sec: Section | None, b: Block, state: dict) -> RenderedBlock:
        if b.kind == "paragraph":
            return RenderedBlock("paragraph", b.anchor, self.inline(doc, sec, b.text, state))
        if b.kind == "note":
            return RenderedBlock("note", b.anchor, self._md.reset().convert(b.text)[3:-4])
        if b.kind == "term":
            state["terms_done"].add(b.term)
            body = self.inline(doc, sec, b.text, state)
            return RenderedBlock("term", b.anchor, f"<strong class=\"defined\">{html.escape(b.term)}:</strong> {body}",
                                 label=b.term or "")
        if b.kind == "list":
            return RenderedBlock("list", b.anchor, self._list(doc, sec, b.items, b.ordered, state))
        if b.kind == "table":
            head = "".join(f"<th scope=\"col\">{self.inline(doc, sec, c, state)}</th>" for c in b.header)
            rows = "".join("<tr>" + "".join(f"<td>{self.inline(doc, sec, c, state)}</td>" for c in row) + "</tr>"
                           for row in b.rows)
            return RenderedBlock("table", b.anchor,
                                 f"<div class=\"table-scroll\"><table><thead><tr>{head}</tr></thead>"
                                 f"<tbody>{rows}</tbody></table></div>")
        if b.kind in ("example", "quote"):
            inner = [self._block(doc, sec, x, state) for x in b.blocks]
            return RenderedBlock(b.kind, b.anchor, "", label=b.label, blocks=inner)
        return RenderedBlock(b.kind, b.anchor, "")

    def _list(self, doc, sec, items: list[ListItem], ordered: bool, state) -> str:
        tag = "ol" if ordered else "ul"
        parts = []
        for item in items:
            child = self._list(doc, sec, item.children, False, state) if item.children else ""
            parts.append(f"<li>{self.inline(doc, sec, item.text, state)}{child}</li>")
        return f"<{tag}>{''.join(parts)}</{tag}>"

    # --- links ---------------------------------------------------------------------------
    def _link(self, doc: Document, sec: Section | None, out: str, state: dict) -> str:
        out = self._map_text(out, lambda t: self._xrefs(doc, sec, t), rewrite=doc)
        return self._map_text(out, lambda t: self._terms(doc, sec, t, state))

    def _map_text(self, out: str, fn, rewrite: Document | None = None) -> str:
        """Apply `fn` to the text outside tags and outside links."""
        pieces = TAG_SPLIT.split(out)
        depth_a = 0
        for i, piece in enumerate(pieces):
            if not piece:
                continue
            if piece.startswith("<"):
                if re.match(r"<a[\s>]", piece):
                    depth_a += 1
                    if rewrite is not None:
                        pieces[i] = self._rewrite_href(rewrite, piece)
                elif piece.startswith("</a"):
                    depth_a = max(0, depth_a - 1)
                continue
            if not depth_a:
                pieces[i] = fn(piece)
        return "".join(pieces)

    def _rewrite_href(self, doc: Document, tag: str) -> str:
        m = re.search(r'href="([^"]*)"', tag)
        if not m:
            return tag
        href = html.unescape(m.group(1))
        target = None
        if href.startswith("#"):
            sid = href[1:]
            if sid in doc.sections:
                target = section_url(doc.id, sid)
        elif re.fullmatch(r"[a-z0-9-]+#[\w.-]+", href):
            d, sid = href.split("#", 1)
            other = self.corpus.get(d)
            if other and sid in other.sections:
                target = section_url(d, sid)
        if target:
            return tag.replace(m.group(0), f'href="{html.escape(target)}" class="xref"')
        return tag

    def _xref_anchor(self, doc: Document, sid: str, text: str) -> str:
        sec = doc.sections[sid]
        return (f'<a class="xref" href="{html.escape(section_url(doc.id, sid))}" '
                f'title="{html.escape(sec.label)}">{text}</a>')

    def _xrefs(self, doc: Document, sec: Section | None, text: str) -> str:
        own = sec.id if sec else None
        # "3.1.4. Bowing Out of an Event", "2.9. Multi-Judge System"
        def numbered_title(m: re.Match) -> str:
            num, rest = m.group(1), m.group(2)
            target = doc.sections.get(num)
            if target and num != own and rest.lower().startswith(html.escape(target.title).lower()[:12]):
                n = len(html.escape(target.title))
                return self._xref_anchor(doc, num, f"{num}. {rest[:n]}") + rest[n:]
            return m.group(0)

        text = re.sub(rf"(?<![\w.])({NUM})\.\s+([A-Z][^<]*)", numbered_title, text)

        # "section 3.7.1", "sections 3.1 and 3.2", "(3.1.4)", "rule 4.9", "Appendix A"
        def by_context(m: re.Match) -> str:
            lead, num = m.group(1), m.group(2)
            if num in doc.sections and num != own:
                return lead + self._xref_anchor(doc, num, num)
            return m.group(0)

        text = re.sub(rf"(\b(?:[Ss]ections?|[Rr]ules?|[Ss]ee|[Pp]aragraph|and|or)\s+)({NUM})(?![\w]|\.\d)",
                      by_context, text)
        text = re.sub(rf"(\()({NUM})(?=[\s,);])", by_context, text)

        def appendix(m: re.Match) -> str:
            letter = m.group(1)
            if letter in doc.sections and letter != own:
                return self._xref_anchor(doc, letter, m.group(0))
            return m.group(0)

        text = re.sub(r"\bAppendix ([AB])\b(?!\s*[-.]\s*<)", appendix, text)

        # "(see Action declaration)": a section title of the same document after "see"
        def see_title(m: re.Match) -> str:
            words = m.group(2)
            for sid, s in doc.sections.items():
                if sid != own and words.lower().startswith(s.title.lower()) and len(s.title) > 6:
                    n = len(s.title)
                    return m.group(1) + self._xref_anchor(doc, sid, words[:n]) + words[n:]
            return m.group(0)

        text = re.sub(r"(\b[Ss]ee\s+(?:the\s+)?)([A-Z][^<().;]*)", see_title, text)
        return text

    def _terms(self, doc: Document, sec: Section | None, text: str, state: dict) -> str:
        if self._term_re is None or doc.is_history:
            return text

        def repl(m: re.Match) -> str:
            term = self._term_key.get(re.sub(r"\s+", " ", m.group(1)).lower())
            if not term or term in state["terms_done"]:
                return m.group(0)
            gdoc, gsec, block = self.glossary[term]
            state["terms_done"].add(term)
            url = section_url(gdoc.id, gsec.id, block.anchor) if gsec else "#"
            definition = html.escape(block.plain().split(": ", 1)[-1], quote=True)
            return (f'<a class="term" href="{html.escape(url)}" data-definition="{definition}" '
                    f'title="Defined in {html.escape(gsec.label if gsec else gdoc.title)}">{m.group(0)}</a>')

        return self._term_re.sub(repl, text)
