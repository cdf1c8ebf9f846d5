"""Every text a template shows goes through the catalog: no English written outside `_()`
/ `ngettext` / `{% trans %}` — text between tags, a shown attribute (`title`, `placeholder`,
`aria-label`, an input button's `value`), or a string constant an expression shows
(`{{ "open" if … }}`, a parameter `_("…", value="and")`). What is not prose is allowed:
names, codes, addresses, class names, the notation people type, symbols."""
from __future__ import annotations

import bisect
import re
from html.parser import HTMLParser
from pathlib import Path

from jinja2 import Environment, nodes

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = ("_", "gettext", "ngettext")
# calls whose arguments are keys, addresses or typed notation, not prose
NOT_PROSE_CALLS = {"url_for", "venue_url", "auth_may", "csrf_token", "field_messages", "field_errors",
                   "state_chip", "literal", "rule", "tojson"}
SHOWN_ATTRS = {"title", "placeholder", "alt", "aria-label", "aria-description", "label"}
_OPEN, _CLOSE = "\ue000", "\ue001"            # around an expression's number in the flat text
_EXPR = re.compile(_OPEN + r"(\d+)" + _CLOSE)
_LETTER = re.compile(r"[^\W\d_]")
NOT_PROSE = re.compile(r"""
      [a-z0-9_]+(?:[._/-][a-z0-9_.]+)+      # a key, an endpoint, a class name: first_name, auth.sign_in
    | (?:https?:|/|\#|\.)\S*                  # an address, an anchor, a file extension
    | <[^>]*>(?:[^<\w]*<[^>]*>)*              # markup given as a parameter: <kbd>/</kbd>
    | judgekit(?:\ ·\ judgekit)?|judge|kit    # the app's name
    | VTES|VEKN
""", re.X)
# (template, text): shown as it is on purpose
ALLOWED = {
    ("auth/sign_in.html", "J-7KQ3-M9XP-4TRW"),            # the form of a code, as typed
    ("tournament/players_import.html", "Ana;Silva;1234567;Lyon;France"),   # a pasted line, as typed
    ("tournament/players_import.html", "Ana Silva, 1234567"),
    ("tournament/table.html", "W"),                        # the column's mark, explained by its title
    ("tournament/report.html", "Constructed"),             # a VEKN format's name, as the formats list shows it
    ("recorder/game.html", "time call"),                   # the notation's examples, as typed
    ("recorder/game.html", "undo"),
}
ALLOWED_PREFIX = {("recorder/game.html", re.compile(r"\d+ "))}   # the notation's examples


def _call_name(call: nodes.Call) -> str | None:
    return call.node.name if isinstance(call.node, nodes.Name) else \
        call.node.attr if isinstance(call.node, nodes.Getattr) else None


def shown(expr: nodes.Node) -> list[nodes.Const]:
    """The string constants of `expr` that reach the page as they are."""
    if isinstance(expr, nodes.Const):
        return [expr] if isinstance(expr.value, str) else []
    if isinstance(expr, nodes.CondExpr):
        return shown(expr.expr1) + (shown(expr.expr2) if expr.expr2 is not None else [])
    if isinstance(expr, (nodes.Or, nodes.And)):
        return shown(expr.left) + shown(expr.right)
    if isinstance(expr, nodes.Concat):
        return [c for n in expr.nodes for c in shown(n)]
    if isinstance(expr, nodes.Mod):
        return shown(expr.left)
    if isinstance(expr, (nodes.MarkSafe, nodes.MarkSafeIfAutoescape)):
        return shown(expr.expr)
    if isinstance(expr, (nodes.List, nodes.Tuple)):
        return [c for n in expr.items for c in shown(n)]
    if isinstance(expr, nodes.Getitem) and isinstance(expr.node, nodes.Dict):
        return [c for pair in expr.node.items for c in shown(pair.value)]
    if isinstance(expr, nodes.Filter):
        found = shown(expr.node) if expr.node is not None else []
        if expr.name in ("default", "d"):
            found += [c for a in expr.args for c in shown(a)]
        return found
    if isinstance(expr, nodes.Call):
        name = _call_name(expr)
        given = [c for k in expr.kwargs for c in shown(k.value)]
        if name in TRANSLATED:
            return given                       # the id is extracted; its parameters are shown
        if name in NOT_PROSE_CALLS:
            return []
        if name == "get":                      # a.get(key, default)
            table = expr.node.node if isinstance(expr.node, nodes.Getattr) else None
            values = [c for pair in table.items for c in shown(pair.value)] if isinstance(table, nodes.Dict) else []
            return values + [c for a in expr.args[1:] for c in shown(a)]
        # a macro's or helper's argument that is one lowercase word is a key (a field's name)
        return [c for a in [*expr.args, *(k.value for k in expr.kwargs)] for c in shown(a)
                if not re.fullmatch(r"[a-z_]+", c.value)]
    return []


def _flatten(tree: nodes.Template):
    """The template's markup in document order (every branch, block and macro), each shown
    expression replaced by a numbered mark; with each piece's offset and line."""
    pieces: list[str] = []
    starts: list[int] = []
    lines: list[int] = []
    exprs: list[nodes.Node] = []
    assigned: list[nodes.Const] = []

    def put(text: str, line: int) -> None:
        starts.append(sum(map(len, pieces)))
        pieces.append(text)
        lines.append(line)

    def walk(node: nodes.Node) -> None:
        if isinstance(node, nodes.Block) and node.name.endswith("_class"):
            return                             # a class name given to the layout
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if isinstance(child, nodes.TemplateData):
                    put(child.data, child.lineno)
                else:
                    exprs.append(child)
                    put(f"{_OPEN}{len(exprs) - 1}{_CLOSE}", child.lineno)
            return
        if isinstance(node, nodes.CallBlock):
            exprs.append(node.call)
            put(f"{_OPEN}{len(exprs) - 1}{_CLOSE}", node.lineno)
        elif isinstance(node, nodes.Assign):
            assigned.extend(shown(node.node))  # `{% set where = {...}.get(k) %}`, shown later
        for child in node.iter_child_nodes():
            if isinstance(child, nodes.Stmt):
                walk(child)
    walk(tree)
    return "".join(pieces), starts, lines, exprs, assigned


class _Shown(HTMLParser):
    """The text between tags (outside scripts and styles) and the shown attributes' text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, int, str]] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        kinds = dict(attrs)
        for key, value in attrs:
            if value and (key in SHOWN_ATTRS
                          or (key == "value" and tag == "input" and kinds.get("type") in ("submit", "button", "reset"))
                          or (key == "content" and tag == "meta" and kinds.get("name") == "description")):
                self.found.append((*self.getpos(), value))

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data):
        if not self.skip:
            self.found.append((*self.getpos(), data))


def untranslated(source: str, allowed=lambda text: False) -> list[tuple[int, str]]:
    """(line, text) of each English text `source` (a template) shows outside the catalog."""
    flat, starts, lines, exprs, assigned = _flatten(Environment(extensions=["jinja2.ext.i18n"]).parse(source))
    line_starts = [0] + [m.end() for m in re.finditer("\n", flat)]
    parser = _Shown()
    parser.feed(flat)
    parser.close()
    found = []

    def prose(text: str) -> bool:
        text = text.strip()
        core = re.sub(r"^[\W_]+|[\W_]+$", "", text)     # without the punctuation around it
        return bool(_LETTER.search(text)) and not NOT_PROSE.fullmatch(text) and \
            not NOT_PROSE.fullmatch(core) and not allowed(text)

    for row, col, text in parser.found:
        at = line_starts[row - 1] + col
        for part in _EXPR.split(text)[::2]:
            if prose(part):
                where = flat.find(part, at)
                piece = bisect.bisect_right(starts, where) - 1
                found.append((lines[piece] + flat.count("\n", starts[piece], where), " ".join(part.split())))
        for number in _EXPR.findall(text):
            found += [(c.lineno, c.value) for c in shown(exprs[int(number)]) if prose(c.value)]
    found += [(c.lineno, c.value) for c in assigned if prose(c.value) and " " in c.value.strip()
              or c.value[:1].isupper() and prose(c.value)]
    return found


def test_the_check_finds_english_outside_the_catalog_and_not_what_is_no_prose():
    assert untranslated('<p>{{ _("Hello") }} <b>Seat {{ n }}</b></p>') == [(1, "Seat")]
    assert untranslated('<p>{{ "open" if x else _("closed") }}</p>\n<i title="Withdrew">W</i>') == \
        [(1, "open"), (2, "Withdrew"), (2, "W")]
    assert untranslated('{{ _("%(n)s thing%(s)s", n=n, s="s" if n > 1) }}') == [(1, "s")]
    assert untranslated('<optgroup label="Table {{ t }}"><option>{{ p.name }} #{{ p.vekn }}</option></optgroup>') == \
        [(1, "Table")]
    assert untranslated('<a class="chip-{{ "in-progress" }}" href="{{ url_for("x.y", k="v") }}">{{ _("Go") }}</a>'
                        '{{ field_messages(m, "form") }}{% block body_class %}home{% endblock %}') == []
    assert untranslated('{% trans %}One line{% endtrans %}<script>var a = "text";</script>') == []
    assert untranslated('<p>{{ link(u, "this page") }} · VTES</p>') == [(1, "this page")]
    assert untranslated('{% set where = {"seats": "Seats", "k": "v"}.get(f) %}{{ field("date", type="date") }}') == \
        [(1, "Seats")]


def test_no_template_shows_english_outside_the_catalog():
    """Fails on a new English phrase written into a template outside `_()`: wrap it
    (`{{ _("…") }}`, `ngettext` for a count), or allow it in ALLOWED if it is not prose."""
    left = []
    for path in sorted((ROOT / "judgekit").glob("**/templates/**/*.html")):
        name = path.as_posix().split("/templates/", 1)[1]
        prefixes = [p for n, p in ALLOWED_PREFIX if n == name]

        def allowed(text: str, name=name, prefixes=prefixes) -> bool:
            return (name, text) in ALLOWED or any(p.match(text) for p in prefixes)
        left += [f"{name}:{line}: {text!r}" for line, text in untranslated(path.read_text(encoding="utf-8"), allowed)]
    assert left == []
