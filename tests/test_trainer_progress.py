"""Progress kept by the browser: parsing it, mastery per section, and the session mix."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from judgekit import paths
from judgekit.game.cards import load_cards
from judgekit.trainer import progress as G
from judgekit.trainer.scenarios import SECTIONS, load_scenarios


@lru_cache(maxsize=1)
def catalog():
    return load_scenarios(paths.content_dir() / "trainer", load_cards())


def ids(section):
    return [s.id for s in catalog().in_section(section)]


def rec(sid, ok):
    return G.Record(sid, ok)


def test_parse_records_skips_junk():
    good = ids("votes")[0]
    raw = {"answers": [{"id": good, "ok": True, "t": 5}, {"id": "no-such", "ok": True},
                       {"id": good, "ok": "yes"}, "x", None, {"id": good, "ok": False, "t": "late"}]}
    assert G.parse_records(raw, catalog()) == [G.Record(good, True, 5), G.Record(good, False, 0)]
    assert G.parse_records("garbage", catalog()) == []
    assert G.parse_records({"answers": {"a": 1}}, catalog()) == []
    many = [{"id": good, "ok": True}] * (G.MAX_ANSWERS + 50)
    assert len(G.parse_records(many, catalog())) == G.MAX_ANSWERS


def test_status_rules():
    assert G.status([]) == "new"
    assert G.status([True]) == "learning"
    assert G.status([True, False]) == "review"
    assert G.status([False, True, True, True]) == "mastered"
    assert G.status([False, False, True]) == "review"        # 1 of 3 right
    assert G.status([True, True, False, True]) == "learning"


def test_summarize_counts_per_section():
    v, p = ids("votes"), ids("pace")
    records = [rec(v[0], True), rec(v[1], True), rec(v[0], True), rec(p[0], False)]
    summary = G.summarize(records, catalog())
    assert summary["votes"].answered == 3 and summary["votes"].right == 3
    assert summary["votes"].status == "mastered" and len(summary["votes"].seen) == 2
    assert summary["pace"].status == "review"
    assert summary["shortcuts"].status == "new"
    over = G.overview(records, catalog())
    assert over["mastered"] == ["votes"] and over["review"] == ["pace"]
    assert over["answered"] == 4 and over["right"] == 3
    assert [s["section"] for s in over["sections"]] == list(SECTIONS)


def test_session_has_ten_distinct_questions_from_several_sections():
    picked = G.pick_session(catalog(), [], seed=1)
    assert len(picked) == 10 == len(set(picked))
    sections = {catalog().get(i).section for i in picked}
    assert len(sections) >= 5


def test_session_favours_weak_sections_and_wrong_answers():
    # Everything mastered except pace, answered wrongly.
    records = []
    for sec in SECTIONS:
        for sid in ids(sec)[:3]:
            records.append(rec(sid, sec != "pace"))
    wrong = ids("pace")[:3]
    counts = Counter()
    seen_wrong = Counter()
    runs = 100
    for seed in range(runs):
        picked = G.pick_session(catalog(), records, seed=seed)
        counts.update(catalog().get(i).section for i in picked)
        seen_wrong.update(i for i in picked if i in wrong)
    # The section to review gets about 2.5 of the 10 questions, a mastered one under 1.
    assert counts["pace"] / runs >= 2.2
    assert max(counts[s] / runs for s in SECTIONS if s != "pace") < 1.2
    assert set(seen_wrong) == set(wrong)


def test_within_a_section_wrong_then_unseen_then_oldest_right():
    sec = "shortcuts"
    all_ids = ids(sec)
    records = [rec(all_ids[0], True), rec(all_ids[1], False)]
    picked = G.pick_session(catalog(), records, n=len(all_ids), seed=3, section=sec)
    assert picked[0] == all_ids[1]
    assert picked[-1] == all_ids[0]
    assert sorted(picked) == sorted(all_ids)


def test_same_seed_same_session():
    assert G.pick_session(catalog(), [], seed=7) == G.pick_session(catalog(), [], seed=7)
    assert G.pick_session(catalog(), [], seed=7) != G.pick_session(catalog(), [], seed=8)
