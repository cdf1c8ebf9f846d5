"""A sentence with inline markup (a link, bold, code) is one catalog id whose markup comes in
as a parameter (`link`, `bold`, `literal`), not several ids around the tags: a translator
gets the whole sentence and may put the markup where the language needs it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from jinja2 import Environment, nodes
from tests.conftest import app_with_language

ROOT = Path(__file__).resolve().parent.parent
INLINE = "a|b|strong|code|em|kbd|i|time|span|br"
_OPENS = re.compile(rf"^\s*<(?:{INLINE})\b")
_CLOSES = re.compile(rf"</(?:{INLINE})>(?:\s*<br\s*/?>)?\s*$")
_ENDS = tuple(".:?!…)")              # a text ending so is a whole sentence or a label
_GOES_ON = re.compile(r"^[a-z,.;:)(—–]")   # a text starting so continues the one before
# a heading's, a label's or a legend's own text, with a link or a chip beside it: a title
_TITLE = re.compile(r"<(?:h[1-6]|label|legend|summary|th)\b[^>]*>\s*$")

# a value with a note beside it, not a sentence
NOT_SENTENCES = {("tournament/round.html", "%(vp_adjusted)s VP")}


def _msgid(node) -> str | None:
    if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name) and node.node.name in ("_", "gettext") \
            and node.args and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def split_sentences(source: str) -> list[tuple[int, str]]:
    """The ids of `source` (a template) that are part of a sentence cut by an inline tag:
    an id that does not end its sentence right before a tag opens, or one that goes on
    with a sentence right after a tag closes (unless the text in the tag, an id too,
    ended its own). Each as (line, id)."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    found = []
    for output in env.parse(source).find_all(nodes.Output):
        parts = output.nodes
        for i, node in enumerate(parts):
            text = _msgid(node)
            if text is None:
                continue
            after = parts[i + 1] if i + 1 < len(parts) else None
            before = parts[i - 1] if i > 0 else None
            title = isinstance(before, nodes.TemplateData) and _TITLE.search(before.data)
            if isinstance(after, nodes.TemplateData) and _OPENS.match(after.data) and not title \
                    and not text.rstrip().endswith(_ENDS):
                found.append((node.lineno, text))
            elif isinstance(before, nodes.TemplateData) and _CLOSES.search(before.data) and _GOES_ON.match(text):
                inside = _msgid(parts[i - 2]) if i > 1 else None
                if not (inside and inside.rstrip().endswith(_ENDS)):
                    found.append((node.lineno, text))
    return found


def test_the_check_finds_a_sentence_cut_around_a_tag_and_not_a_label():
    assert split_sentences('<p>{{ _("Recording as") }} <b>{{ who }}</b></p>') == [(1, "Recording as")]
    assert split_sentences('<p><a href="/x">{{ _("The floor view") }}</a> {{ _("has the queue.") }}</p>') \
        == [(1, "has the queue.")]
    assert split_sentences('<p><b>{{ n }}</b>\n{{ _("(seat %(s)s): gone", s=1) }}</p>') == [(2, "(seat %(s)s): gone")]
    assert split_sentences('<p>{{ _("Winner:") }} <b>{{ name }}</b></p>') == []        # a label
    assert split_sentences('<p><b>{{ _("Not saved.") }}</b> {{ _("the reasons are below.") }}</p>') == []
    assert split_sentences('<nav><a href="/t">{{ _("Trainer") }}</a> {{ _("› Results") }}</nav>') == []
    assert split_sentences('<p>{{ _("Called at %(time)s", time=t) }}</p>') == []
    assert split_sentences('<h2 id="h">{{ _("Judge calls") }} <span data-count></span></h2>') == []   # a title
    assert split_sentences('<p>{{ _("Scan it, or open") }}<br><b>{{ url }}</b><br>{{ _("and type") }}</p>') \
        == [(1, "Scan it, or open"), (1, "and type")]


def test_no_template_sentence_is_cut_into_several_ids_around_inline_markup():
    cut = []
    for path in sorted((ROOT / "judgekit").glob("**/templates/**/*.html")):
        name = path.as_posix().split("/templates/", 1)[1]
        for line, text in split_sentences(path.read_text(encoding="utf-8")):
            if (name, text) not in NOT_SENTENCES:
                cut.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert cut == []


@pytest.fixture
def xx_app(tmp_path, template_db, shared_index):
    """An app with English and a fake language "xx" that puts a joined sentence's links in
    another order and words a link's text (with a `<` that must come out as text)."""
    return app_with_language(tmp_path, template_db, shared_index, {
        "%(reference)s and %(editions)s": "XX %(editions)s und %(reference)s",
        "older editions": "XX-ältere <Ausgaben>",
    })


def test_a_joined_sentence_is_translated_as_one_unit_with_its_links_where_the_language_puts_them(xx_app):
    client = xx_app.test_client()
    xx = client.get("/offline", headers={"Accept-Language": "xx"}).get_data(as_text=True)
    assert ('<li>XX <a href="/history">XX-ältere &lt;Ausgaben&gt;</a> und '
            '<a href="/reference">Quick reference</a></li>') in xx
    en = client.get("/offline").get_data(as_text=True)
    assert '<li><a href="/reference">Quick reference</a> and <a href="/history">older editions</a></li>' in en
