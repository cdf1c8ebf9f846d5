"""Offline use: manifest, icons, service worker config, precache list and its version,
the offline search index and its consistency with the server's index."""
from __future__ import annotations

import gzip
import json
import re
import shutil
import struct
from pathlib import Path

import pytest

from judgekit.offline import precache
from judgekit.offline.compare import compare, read_queries
from judgekit.offline.search_index import (FIELDS, build_offline_index, decode_ids, entry_dicts,
                                           text_files, text_name)
from judgekit.rules.corpus import load_corpus
from judgekit.rules.group_rulings import name_stems
from judgekit.rules.analysis import WORD, analyze
from judgekit.rules.synonyms import SYNONYMS

pytestmark = pytest.mark.shared_app  # these tests only read: they share one app (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "judgekit" / "static"
TEMPLATES = ROOT / "judgekit" / "templates"


def sw_config(client) -> dict:
    body = client.get("/sw.js").get_data(as_text=True)
    m = re.match(r"self\.JUDGEKIT_OFFLINE = (\{.*?\});\n", body)
    assert m, body[:200]
    return json.loads(m.group(1))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


# --- manifest and icons ---------------------------------------------------------------------

def test_manifest_makes_the_app_installable(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.mimetype == "application/manifest+json"
    m = json.loads(r.data)
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    sizes = {}
    for icon in m["icons"]:
        data = client.get(icon["src"]).data
        w, h = png_size(data)
        assert f"{w}x{h}" == icon["sizes"], icon
        sizes.setdefault(icon.get("purpose", "any"), set()).add(w)
    assert {192, 512} <= sizes["any"]
    assert 512 in sizes["maskable"]


def test_every_page_links_the_manifest_and_shows_the_badge(client):
    html = client.get("/rules/tournament-rules/3.7.2").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    badge = re.search(r'<a class="net-badge"[^>]*>.*?</a>', html).group(0)
    assert "Rules 2025" in badge
    assert 'data-offline-index="/offline/search-index.json?v=' in badge
    assert "offline.js" in html and "offline-search.js" in html


def test_icon_script_draws_pngs_of_the_declared_sizes(tmp_path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "tools" / "make_icons.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    data = mod.png(16, mod.render(16, 0.2, 1.0))
    assert png_size(data) == (16, 16)
    for name, (size, _, _) in mod.ICONS.items():
        assert png_size((STATIC / "icons" / name).read_bytes()) == (size, size), name


# --- service worker and precache ---------------------------------------------------------------

def test_service_worker_is_served_from_the_root_never_stale(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.mimetype == "text/javascript"
    assert "no-cache" in r.headers["Cache-Control"]
    cfg = sw_config(client)
    assert re.fullmatch(r"[0-9a-f]{12}", cfg["version"])
    assert cfg["edition"] == "Rules 2025"
    assert "/trainer" in cfg["runtime_prefixes"] and "/games/" in cfg["runtime_prefixes"]
    assert "/api/search" in cfg["never_cache"]


def test_precache_lists_every_document_and_section_and_each_answers_200(client, app):
    cfg = sw_config(client)
    urls = cfg["precache"]
    assert len(urls) == len(set(urls))
    corpus = app.extensions["rules"].corpus
    for doc in corpus.documents.values():          # current and older editions
        assert f"/rules/{doc.id}" in urls
        for sid in doc.sections:
            assert f"/rules/{doc.id}/{sid}" in urls
    for page in ("/", "/reference", "/history", "/offline", "/static/app.css",
                 "/static/offline.js", "/static/offline-search.js", "/static/icons/icon-192.png"):
        assert page in urls
    assert "/static/sw.js" not in urls
    assert any(u.startswith("/offline/search-index.json?v=") for u in urls)
    # the pages' scripts are ES modules: every file a module imports, and the catalog of the
    # words i18n.js reads, is saved too, else a page opened offline runs none of its script
    static = Path(app.static_folder)
    imported = {m for js in static.glob("*.js")
                for m in re.findall(r'^import .* from "\./([^"]+)";$', js.read_text(encoding="utf-8"), re.M)}
    assert {"i18n.js", "offline-index.js", "offline-words.js", "recorder-sync.js", "recorder-steps.js",
            "live.js"} <= imported
    assert [m for m in sorted(imported) if f"/static/{m}" not in urls] == []
    assert "/static/i18n/en.json" in urls
    # one failing address would make the whole install fail in the browser
    failing = [(u, code) for u in urls if (code := client.get(u).status_code) != 200]
    assert failing == []


@pytest.fixture
def content_copy(tmp_path):
    dest = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "rules", dest / "rules")
    return dest


def test_plan_version_follows_the_content_hash(content_copy):
    before = precache.build_plan(load_corpus(content_copy), STATIC, TEMPLATES, "idx1")
    again = precache.build_plan(load_corpus(content_copy), STATIC, TEMPLATES, "idx1")
    assert again.version == before.version and again.urls == before.urls
    path = content_copy / "rules" / "tournament-rules.md"
    path.write_text(path.read_text(encoding="utf-8").replace("Victory Point", "Victory Points", 1),
                    encoding="utf-8")
    after = precache.build_plan(load_corpus(content_copy), STATIC, TEMPLATES, "idx1")
    assert after.content_hash != before.content_hash
    assert after.version != before.version


def test_plan_version_follows_static_files_and_index_version(tmp_path):
    corpus = load_corpus(ROOT / "content")
    static = tmp_path / "static"
    static.mkdir()
    (static / "a.js").write_text("one")
    first = precache.build_plan(corpus, static, TEMPLATES, "idx1")
    assert "/static/a.js" in first.urls
    (static / "a.js").write_text("two")
    second = precache.build_plan(corpus, static, TEMPLATES, "idx1")
    assert second.version != first.version
    third = precache.build_plan(corpus, static, TEMPLATES, "idx2")
    assert third.version != second.version
    assert "/offline/search-index.json?v=idx2" in third.urls


def test_edition_label_names_dated_editions_only():
    corpus = load_corpus(ROOT / "content")
    assert precache.edition_label(corpus) == "Rules 2025"


def test_ping_and_offline_page(client):
    r = client.get("/offline/ping")
    assert r.status_code == 204 and r.headers["Cache-Control"] == "no-store"
    html = client.get("/offline").get_data(as_text=True)
    assert "Offline use" in html and "VEKN Tournament Rules" in html
    assert "data-offline-missed" in html
    # what it says is kept is kept: the cards' data and the shell that draws a card's page
    assert "Every card and its rulings" in html
    precached = sw_config(client)["precache"]
    assert "/cards/offline" in precached and any(u.startswith("/offline/cards.json") for u in precached)


# --- offline search index ------------------------------------------------------------------------

def test_search_index_endpoint_is_versioned_and_compressed(client):
    cfg = sw_config(client)
    url = next(u for u in cfg["precache"] if u.startswith("/offline/search-index.json"))
    version = url.split("v=")[1]
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip"
    assert "immutable" in r.headers["Cache-Control"]
    data = json.loads(gzip.decompress(r.data))
    assert data["version"] == version
    plain = client.get("/offline/search-index.json")
    assert "Content-Encoding" not in plain.headers and plain.headers["Cache-Control"] == "no-cache"
    assert json.loads(plain.data)["version"] == version
    assert client.get(url, headers={"If-None-Match": f'"{version}"'}).status_code == 304


def browser_like_tokens(data: dict, text: str) -> list[str]:
    """Tokenize as offline-search.js does: the word pattern, then the shipped stem map."""
    out = []
    for w in re.findall(WORD, text):
        stem = data["words"][w.lower()]
        if stem:
            out.append(stem)
    return out


@pytest.fixture(scope="module")
def offline_data(shared_app):
    """The session app's offline search index, built once for the tests below that only read
    it (each build costs about half a second of CPU)."""
    return build_offline_index(shared_app.extensions["rules"].search)


@pytest.mark.parametrize("part", ["rules", "cards"])
def test_offline_index_rebuilds_the_servers_postings_exactly(app, part, offline_data):
    """From the shipped words map alone, the browser's weights equal the server's postings,
    for each part (the rules, the cards)."""
    search = app.extensions["rules"].search
    data = offline_data
    index = getattr(search, part)
    shipped = data["parts"][part]
    files = text_files(search)
    texts = [json.loads(files[text_name(part, i)]) for i in range(shipped["chunks"])]
    assert len(files) == sum(x["chunks"] for x in data["parts"].values())
    entries = entry_dicts(shipped, texts)
    p = index.postings
    assert [e["key"] for e in entries] == p.keys
    assert shipped["n"] == p.n and shipped["max_postings"] == index.max_postings
    for f in FIELDS:
        rebuilt: dict[str, list[tuple[int, float]]] = {}
        for docnum, e in enumerate(entries):
            counts: dict[str, int] = {}
            # the questions' text is not shipped (searched, never shown): the server's
            text = e[f] if f in e else index.entries[e["key"]].questions
            for stem in browser_like_tokens(data, text):
                counts[stem] = counts.get(stem, 0) + 1
            for stem, n in counts.items():
                weight = struct.unpack("f", struct.pack("f", n * data["posting_boosts"][f]))[0]
                rebuilt.setdefault(stem, []).append((docnum, weight))
        assert rebuilt == {t: list(pl) for t, pl in p.terms[f].items()}, f
        assert [e["lengths"][FIELDS.index(f)] for e in entries] == p.lengths[f]
        # and the postings shipped to the browser are these ones
        unpacked = {}
        for term, text in shipped["postings"][f].items():
            packed = decode_ids(text)
            doc, out = 0, []
            for i in range(0, len(packed), 2):
                doc += packed[i]
                out.append((doc, struct.unpack("f", struct.pack("f", packed[i + 1] * data["posting_boosts"][f]))[0]))
            unpacked[term] = out
        assert unpacked == {t: list(pl) for t, pl in p.terms[f].items()}, f
    assert shipped["token_totals"]["body"] == sum(len(analyze(e["body"])) for e in entries)
    # each entry's stems as the server's analyzer gives them, shipped as ids (phrase checks)
    body, title = decode_ids(shipped["tokens"]["body"]), decode_ids(shipped["tokens"]["title"])
    at = {"body": 0, "title": 0}
    for e in entries:
        for f, ids, text in (("body", body, e["body"]), ("title", title, e["title"])):
            n = e["lengths"][FIELDS.index(f)]
            assert [data["stems"][i] for i in ids[at[f]:at[f] + n]] == [st for st, _, _ in analyze(text)], e["key"]
            at[f] += n
    assert at == {"body": len(body), "title": len(title)}


def test_offline_text_files_are_served_versioned_and_precached(client, app):
    cfg = sw_config(client)
    texts = [u for u in cfg["precache"] if u.startswith("/offline/search-text/")]
    index_url = next(u for u in cfg["precache"] if u.startswith("/offline/search-index.json"))
    assert texts and all(u.endswith(index_url[index_url.index("?"):]) for u in texts)
    data = json.loads(gzip.decompress(client.get(index_url, headers={"Accept-Encoding": "gzip"}).data))
    assert len(texts) == sum(x["chunks"] for x in data["parts"].values())
    resp = client.get(texts[-1])
    assert resp.status_code == 200 and "immutable" in resp.headers["Cache-Control"]
    last = json.loads(resp.data)
    assert last["part"] == "cards" and last["first"] % data["parts"]["cards"]["chunk"] == 0
    assert last["first"] + len(last["entries"]) == data["parts"]["cards"]["n"]
    missing = client.get("/offline/search-text/nothing-9.json")
    assert missing.status_code == 404 and missing.get_json()["field"] == "name"


def test_offline_index_ships_the_card_names_and_the_merge(offline_data):
    data = offline_data
    assert data["card_names"]["keys"]["deflection"] == 100518
    assert "block" in data["card_names"]["common"]
    assert data["params"]["card_factor"] > 0 and data["params"]["yield_share"] > 0
    assert data["source_titles"]["cards"] == "Cards & rulings"


def test_offline_index_ships_each_card_s_name_as_its_rulings_write_it(app, offline_data):
    """The browser reads a card's name off its title's stems (`OfflineIndex.nameStems`):
    all of them, or as many as `name_lengths` says for a vampire whose title has its group
    and version; the same stems as the server's `name_stems`, for every card."""
    cards = app.extensions["rules"].search.cards
    pairs = decode_ids(offline_data["parts"]["cards"]["name_lengths"])
    lengths = dict(zip(pairs[::2], pairs[1::2]))
    assert len(lengths) > 100          # the vampires of several versions
    for doc, key in enumerate(cards.postings.keys):
        e = cards.entries[key]
        if e.kind == "card":
            title = [st for st, _, _ in analyze(e.title)]
            assert tuple(title[:lengths.get(doc, len(title))]) == name_stems(e), e.title


def test_offline_index_ships_synonyms_stemmed_like_the_server(offline_data):
    data = offline_data
    table = {tuple(k): [tuple(a) for a in alts] for k, alts in data["synonyms"]}
    assert table[("vp",)] == [("victori", "point")]
    assert table[("swainbank",)] == [("recurs",)]
    assert ("to",) not in table                       # "TO" expands only in capitals
    assert data["case_sensitive"][0]["typed"] == "TO"
    assert data["typed_as_is"] == ["ani", "spi"]       # "any" is no Animalism (`TYPED_AS_IS`)
    # every word of the synonym table stems without the browser having to guess
    for key, alts in SYNONYMS.items():
        for phrase in (key, *alts):
            for w in re.findall(WORD, phrase):
                assert w.lower() in data["words"], w
    assert data["words"]["the"] == 0 and data["words"]["withdrawal"] == "withdraw"
    # numbers in a phrase are keyed by value, so "2 cards" and "two cards" are one phrase
    assert table[("2", "card")] == [("multipl", "card")]


def test_offline_index_ships_question_words_and_stated_numbers(app, offline_data):
    index = app.extensions["rules"].index
    data = offline_data
    assert {"what", "my", "whole"} <= set(data["question"]) and "proxi" not in data["question"]
    assert data["number_words"]["ninety"] == 90 and "twenty" in data["number_tens"]
    six_two = next(e for e in entry_dicts(data["parts"]["rules"]) if e["key"] == "tournament-rules/6.2")
    stated = {value: units for value, units in six_two["numbers"]}   # "sixty cards", "ninety cards"
    assert "card" in stated[60] and "card" in stated[90]
    assert [[v, sorted(u)] for v, u in index.stated[index.postings.docnum["tournament-rules/6.2"]]] \
        == six_two["numbers"]


def test_offline_index_version_follows_the_ranking_tables(app, monkeypatch):
    from judgekit.offline import search_index
    search = app.extensions["rules"].search
    before = search_index.index_version(search)
    monkeypatch.setattr(search_index, "TABLES", "something-else")
    assert search_index.index_version(search) != before


def test_offline_index_version_follows_the_ranking_constants(app, monkeypatch):
    """A phone keeps the offline index it saved until its version changes: a ranking
    constant tuned on the server (its "params") must reach the phone too."""
    from judgekit.offline import search_index
    search = app.extensions["rules"].search
    before = search_index.index_version(search)
    assert search_index.build_offline_index(search)["params"]["informative"] == search_index.INFORMATIVE
    monkeypatch.setattr(search_index, "INFORMATIVE", search_index.INFORMATIVE + 0.5)
    assert search_index.index_version(search) != before


def test_offline_index_version_follows_a_part_s_own_settings(app, monkeypatch):
    """A part's own setting (the cards' `per_section`, `coverage_cap`…) is in the part's data,
    not in the shared params: changed on the server, it must reach the phone too."""
    from judgekit.offline import search_index
    search = app.extensions["rules"].search
    before = search_index.index_version(search)
    assert search_index.part_settings(search.cards)["per_section"] == search.cards.per_section
    monkeypatch.setattr(search.cards, "per_section", search.cards.per_section + 1)
    assert search_index.index_version(search) != before


def test_offline_index_version_follows_the_cards_own_question_words(app):
    """The cards' part's question words are read off the content and the code
    (`query.talk_stems`): a change to them is a new index for the phone too."""
    from judgekit.offline import search_index
    search = app.extensions["rules"].search
    before = search_index.index_version(search)
    kept = search.cards.question_stems
    search.cards.use_tables(question=kept - {"right"})
    try:
        assert search_index.index_version(search) != before
    finally:
        search.cards.use_tables(question=kept)
    assert search_index.index_version(search) == before


# --- comparison ----------------------------------------------------------------------------------

def r(doc, section, title=None):
    return {"doc": doc, "section": section, "title": title or section}


def test_overlap_counts_shared_top3_results_whatever_their_order():
    report = compare(["a", "b", "c"],
                     [[r("d", "1"), r("d", "2"), r("d", "3"), r("d", "4")],
                      [r("d", "1"), r("d", "1", "1 — Example 1"), r("d", "2")],
                      []],
                     [[r("d", "3"), r("d", "1"), r("d", "2")],
                      [r("d", "1"), r("d", "9"), r("d", "1", "1 — Example 2")],
                      []])
    assert [q.overlap for q in report.queries] == [1.0, pytest.approx(1 / 3), 1.0]
    assert report.overlap == pytest.approx((1 + 1 / 3 + 1) / 3)
    assert report.identical == pytest.approx(1 / 3)
    assert report.same_first == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        compare(["a"], [], [[]])


def test_overlap_counts_a_result_listed_twice_as_often_as_both_sides_list_it():
    """A numbered question's parts may each answer with the same section: the same list on
    both sides agrees fully; one side listing it once agrees on that one."""
    twice = [r("d", "1"), r("cards", "2"), r("d", "1")]
    assert compare(["a"], [twice], [list(twice)]).queries[0].overlap == 1.0
    once = [r("d", "1"), r("cards", "2"), r("d", "3")]
    assert compare(["a"], [twice], [once]).queries[0].overlap == pytest.approx(2 / 3)


def test_read_queries_skips_comments(tmp_path):
    f = tmp_path / "q.tsv"
    f.write_text("# comment\n\nvp withdraw\ttournament-rules/3.7.2\nproxy\n", encoding="utf-8")
    assert read_queries(f) == ["vp withdraw", "proxy"]
    assert len(read_queries(ROOT / "tests" / "search_queries")) > 50
