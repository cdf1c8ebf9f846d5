"""The server and the browser read words alike: one definition of tokenizing, stop words,
accent folding and stemming (`judgekit.rules.analysis`, whoosh's analyzer), checked against
the browser's fallback (`static/offline-index.js` `stem`/`tokenize` with
`static/porter2.js`, run in Node) over every word of the corpus, of the questions the
entries answer and of the query sets; and the whoosh judgekit depends on imports and
compiles without a warning."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
from whoosh.analysis import STOP_WORDS

from judgekit import paths
from judgekit.offline.search_index import build_offline_index, fold_table, ranking_params
from judgekit.rules.analysis import WORD, analyze
from judgekit.rules.answer import MAX_PARTS, says_a_word, split_questions
from judgekit.rules.query import (asks_plain, sentences, with_numbers_apart, with_one_blood, with_what_if, without_name_asked,
                                  without_ruled_out)
from judgekit.rules.service import RulesService

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "judgekit" / "static"

NODE_SCRIPT = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [, , staticDir, inputPath] = process.argv;
const X = await import(pathToFileURL(staticDir + "/offline-index.js"));   // imports porter2.js
const data = JSON.parse(fs.readFileSync(inputPath, "utf8"));
// the browser's own reading, with no table of known words: what it does for a word the
// offline index does not ship
const P = X.OfflineIndex.prototype;
const self = { words: new Map(), stop: new Set(data.stop), foldTable: data.fold };
self.stem = P.stem;
const out = { words: data.words.map((w) => self.stem(w)),
              texts: data.texts.map((t) => P.tokenize.call(self, t).map((x) => x[0])) };
process.stdout.write(JSON.stringify(out));
"""


def _query_texts() -> list[str]:
    out = []
    for path in [*ROOT.glob("tests/search_*"), *ROOT.glob("bench/*.tsv")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                out.append(line.split("\t")[0])
    return out


@pytest.fixture(scope="module")
def svc(shared_index) -> RulesService:
    """The rules service on the session's search index (tests/conftest.py), built by the
    first to ask for it: building one for this module alone cost about 5 s of CPU."""
    return RulesService.open(paths.content_dir(), shared_index)


@pytest.fixture(scope="module")
def texts(svc) -> list[str]:
    out = _query_texts()
    for e in svc.search.entries.values():
        out += [e.title, e.body, e.context, e.questions]
    return [t for t in out if t]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_stems_and_tokenizes_every_word_as_the_server(texts, tmp_path):
    words = sorted({w for t in texts for w in re.findall(WORD, t)})
    sample = _query_texts() + [t for t in texts if len(t) < 2000][:3000]
    payload = tmp_path / "in.json"
    payload.write_text(json.dumps({"stop": sorted(STOP_WORDS), "fold": fold_table(),
                                   "words": words, "texts": sample}))
    script = tmp_path / "parity.mjs"
    script.write_text(NODE_SCRIPT)
    got = json.loads(subprocess.run(["node", str(script), str(STATIC), str(payload)], check=True,
                                    capture_output=True, text=True).stdout)
    assert len(words) > 9000      # the corpus, the questions and the query sets
    differ = [(w, js, [s for s, _, _ in analyze(w)]) for w, js in zip(words, got["words"])
              if [js] != [s for s, _, _ in analyze(w)] and not (js is None and not analyze(w))]
    assert differ == [], f"{len(differ)} words stem differently, e.g. {differ[:10]}"
    tok_differ = [t for t, js in zip(sample, got["texts"]) if js != [s for s, _, _ in analyze(t)]]
    assert tok_differ == [], f"{len(tok_differ)} texts tokenize differently, e.g. {tok_differ[:3]}"


TYPE_SCRIPT = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [, , staticDir, inputPath] = process.argv;
const { internals } = await import(pathToFileURL(staticDir + "/offline-search.js"));
const data = JSON.parse(fs.readFileSync(inputPath, "utf8"));
const names = new internals.CardNames(data.table);
process.stdout.write(JSON.stringify(data.queries.map((q) => [names.describedType(q), names.describesCard(q),
                                                              names.closingAskType(q)])));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_reads_a_card_described_by_its_type_as_the_server(svc, tmp_path):
    """`CardNames.described_type` and `describes_card` and the offline search's
    `describedType` and `describesCard`, over every query of the query sets and the same
    table: the same card type, or none, and the same reading, for each."""
    queries = _query_texts()
    queries += [q.replace("the ", "is there a ", 1) for q in queries] + [q.upper() for q in queries[:200]]
    queries += [sentences(q)[-1] for q in queries if len(sentences(q)) > 1]     # closing asks
    # a card the imbued play ("imbued card"), kinds of cards of several types
    queries += ["the imbued card that", "imbued card where", "that imbued card where", "the new imbued card that", "an imbued who", "the imbued", "imbued card",
                "the ghoul that", "ghouls that", "a location that", "locations where", "the location card that",
                # a card used on the noun before "with", told of after it
                "hit an ally with that necromancy strike that", "an ally with that bolt that", "an ally with a dodge who",
                "rush an ally with the gun that", "an ally with a gun and", "a strike that", "presses that", "the maneuver that",
                # a closing ask by a type (read alone, as the last sentence)
                "Which modifier was that?", "What was that political card?", "which vamp has that?",
                "Which Gangrel card is that?", "what is the kind of superior ally it is", "Which ally, and can it pay?",
                "which one of the nine words in this sentence is the retainer", "Which vampire gets the Edge?",
                "Which master card lets me do that?", "Which master in play was that?", "What location out is it?",
                "mortal ally with the ability that lets it steal blood",
                "weird retainer with the vampire that", "an ally with that Necromancy strike that attaches"]
    payload = tmp_path / "in.json"
    payload.write_text(json.dumps({"table": svc.search.names.to_table(), "queries": queries}))
    script = tmp_path / "types.mjs"
    script.write_text(TYPE_SCRIPT)
    got = json.loads(subprocess.run(["node", str(script), str(STATIC), str(payload)], check=True,
                                    capture_output=True, text=True).stdout)
    names = svc.search.names
    want = [[names.described_type(q), names.describes_card(q), names.closing_ask_type(q)] for q in queries]
    assert sum(1 for k, _, _ in want if k) > 50       # the description sets open with a type
    assert sum(1 for _, told, _ in want if told) > 50    # … or describe one further on
    assert sum(1 for _, _, asked in want if asked) > 20   # … or ask for one by its type
    differ = [(q, w, g) for q, w, g in zip(queries, want, got) if w != g]
    assert differ == [], differ[:10]


INTERNALS_SCRIPT = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [, , staticDir, inputPath] = process.argv;
const { internals } = await import(pathToFileURL(staticDir + "/offline-search.js"));
const data = JSON.parse(fs.readFileSync(inputPath, "utf8"));
process.stdout.write(JSON.stringify(data.texts.map((t) => internals[data.fn](t, data.params))));
"""


def browser_texts(tmp_path, fn: str, texts: list[str], params: dict) -> list:
    """What the offline search's `internals[fn](text, params)` gives for each text (Node)."""
    payload = tmp_path / f"{fn}.json"
    payload.write_text(json.dumps({"fn": fn, "texts": texts, "params": params}))
    script = tmp_path / "internals.mjs"
    script.write_text(INTERNALS_SCRIPT)
    return json.loads(subprocess.run(["node", str(script), str(STATIC), str(payload)], check=True,
                                     capture_output=True, text=True).stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_leaves_out_the_ask_for_a_card_s_name_as_the_server(tmp_path):
    """`query.without_name_asked` and the offline search's `withoutNameAsked`, over every
    query of the query sets and each with the usual closing asks appended: the same text
    left, for each."""
    asks = [", whats it called?", ". What\u2019s the name?", " - forgot the nmae", ". name??", ", just the name?",
            ". Who's that?", " which one is that", ". What card was it?", " Which is it?", " name please",
            ". Can't recall her name.", ". Anyone know the name?", " does anybody know its name",
            " if I cant recall his name?"]
    queries = _query_texts()
    queries += [q.rstrip("?") + ask for q in queries[:300] for ask in asks] + [a.lstrip(" ,.-") for a in asks]
    # separators only, or a long run of them (each part of the ask starts a word)
    queries += ["?!", "!" * 4000, "what " + " " * 3000 + "is it", "- " * 1500 + "name", "somewhat is it"]
    got = browser_texts(tmp_path, "withoutNameAsked", queries, ranking_params())
    want = [without_name_asked(q) for q in queries]
    assert sum(1 for q, w in zip(queries, want) if w != q) > 300    # the asks are left out…
    assert "What card was it?" in want                               # … but never the whole question
    differ = [(q, w, g) for q, w, g in zip(queries, want, got) if w != g]
    assert differ == [], differ[:10]


RANK_SCRIPT = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [, , staticDir, inputPath] = process.argv;
const { internals } = await import(pathToFileURL(staticDir + "/offline-search.js"));
const data = JSON.parse(fs.readFileSync(inputPath, "utf8"));
// no text file is ever read: what a phone ranks before the idle reading has brought them
const search = new internals.Search(data.index, () => Promise.reject(new Error("no texts")));
process.stdout.write(JSON.stringify(data.queries.map((q) => search.rank(q, 3).map((h) => h.entry.key))));
"""


def browser_first_three(svc, tmp_path, queries: list[str]) -> list[list[str]]:
    """The keys of the browser's first three answers to each query (node, the offline index
    of `svc`, no text file read)."""
    payload = tmp_path / "in.json"
    payload.write_text(json.dumps({"index": build_offline_index(svc.search), "queries": queries}), encoding="utf-8")
    script = tmp_path / "rank.mjs"
    script.write_text(RANK_SCRIPT)
    return json.loads(subprocess.run(["node", str(script), str(STATIC), str(payload)], check=True,
                                     capture_output=True, text=True).stdout)


SAYS_SCRIPT = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [, , staticDir, inputPath] = process.argv;
const { internals } = await import(pathToFileURL(staticDir + "/offline-search.js"));
const data = JSON.parse(fs.readFileSync(inputPath, "utf8"));
const search = new internals.Search(data.index, () => Promise.reject(new Error("no texts")));
process.stdout.write(JSON.stringify(data.queries.map((q) => {
  const first = search.rank(q, 3)[0];
  return first ? [first.entry.key, search.saysAWord(first, q)] : null;
})));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_tells_a_first_answer_holding_no_word_as_the_server(svc, tmp_path):
    """`answer.says_a_word` and the browser's `saysAWord`: whether the first answer holds a
    word of the question that names something, not only its numbers and question words
    (then a guess: "weak"), read as each part reads the question (`Search.read`: a
    discipline's short name spelt out, a closing ask for a card's name left out)."""
    queries = ["<script>alert(1)</script>", "%00", "91", "what does kridd do", "90 cards", "how many vp for a win",
               "cel strike that does 2 damage", "a 3cap vamp with 1bleed", "the master that burns a location. name?",
               "can i take notes", "is 4 ok"]
    payload = tmp_path / "in.json"
    payload.write_text(json.dumps({"index": build_offline_index(svc.search), "queries": queries}), encoding="utf-8")
    script = tmp_path / "says.mjs"
    script.write_text(SAYS_SCRIPT)
    got = json.loads(subprocess.run(["node", str(script), str(STATIC), str(payload)], check=True,
                                    capture_output=True, text=True).stdout)
    want = []
    for q in queries:
        hits = svc.search.search(q, 3)[0]
        want.append([hits[0].entry.key, says_a_word(svc.search, hits[0], q)] if hits else None)
    assert got == want
    says = dict(zip(queries, (w[1] for w in want)))
    assert not says["<script>alert(1)</script>"] and not says["what does kridd do"]
    assert says["90 cards"] and says["cel strike that does 2 damage"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_ranks_questions_naming_two_cards_before_reading_any_text(svc, tmp_path):
    """A question naming two cards looks for a ruling of one that names the other
    (`ruling_naming_another`): the browser reads a card's name off its title's stems
    (`OfflineIndex.nameStems`, the vampires' group and version left out as the server's
    `name_stems` does), which it has before any text file; the same first three as the
    server, with no text read."""
    queries = ["waters of duat vampire dies and is in my ash heap, can possession take it as a vampire from there",
               "can alan sovereign advanced pay for a concealed weapon from his own blood",
               "kamiri wa itherero burned by a referendum with draught of the soul on her",
               "does freak drive work with sudden reversal", "deflection and redirection on the same bleed"]
    want = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want
    assert "cards/G00054#r1" in want[0]      # the ruling naming Possession, after the two cards


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_places_a_restated_card_s_group_ruling_as_the_server_does(svc, tmp_path):
    """A question naming a card whose other words are all in its text (`restating_ruling`):
    the browser puts the same ruling of the card's groups third, and keeps the card's own
    ruling third where the server keeps it."""
    queries = ["sunset strip when do i lock it", "night terrors on 0 stealth", "deflection bounce bleed",
               "kine resources contested pool", "zip gun strike range",
               "sunset strip: ally costs 3 pool and i have 2, can i still recruit? when do i lock it",
               "can i throw night terrors if hes at 0 stealth"]
    want = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want
    assert want[0][2] == "cards/G00130#r1" and want[1][2] == want[-1][2] == "cards/G00162#r1"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_reads_a_mistyped_ending_as_the_server_does(svc, tmp_path):
    """A word whose "ing" is mistyped ("votng", "ratign", "showin"), or another ending
    ("equipmnt"), is read with it written
    right (`QueryGroups._misended`, the browser's `misended`): the same first three, in the
    same order, as the server's."""
    queries = ["votng rules", "how many ratign points for winning the final", "huntng", "blockng a hunt",
               "how many raiting pts do u get just for showin up", "guy keeps slappin cards down never says which level hes usin",
               "superior vis halving card, only half of current strike?", "discardng cards",
               # the other endings (`MISENDINGS`): "equipmnt", "destructon", "requirment"
               "unique equipmnt u burn to stop 2 dmg", "destructon of a location", "no capacity requirmnt",
               "weaknes", "equipmet"]
    want = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want
    assert want[0][0].startswith("announcements/votes")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_finds_a_long_name_typed_as_it_sounds_as_the_server_does(svc, tmp_path):
    """A long name typed alone two letters away ("crisanthemum": `CardNames._far`, the
    browser's `far`): the same first three, in the same order, as the server's."""
    queries = ["crisanthemum", "crisanthemum rulings", "plasmatic form", "what does plasmatic form do",
               "fee steak boston", "nosferatoo justicar", "politcal actoin", "blood hunting",
               # a long name with one typo where a name of one word starts (`CardNames.find`)
               "is mark of the dammed banned", "mark of damation", "what does muse of flames do", "mark"]
    want = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want
    assert want[0][0] == "cards/201542" and want[3][0] == "cards/101402"


def test_whoosh_imports_and_compiles_without_warnings():
    """The analyzer's modules of the whoosh judgekit depends on, compiled from source with
    every warning shown (Python 3.12 turns an invalid escape into a SyntaxWarning; 3.11
    reports it as a DeprecationWarning): none."""
    import whoosh
    root = Path(whoosh.__file__).parent
    used = ["analysis", "lang/porter2.py", "support/charset.py", "compat.py", "util"]
    files = [p for u in used for p in ((root / u).rglob("*.py") if (root / u).is_dir() else [root / u])]
    assert len(files) > 5
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for p in files:
            compile(p.read_text(encoding="utf-8"), str(p), "exec")
    assert [f"{w.filename}: {w.message}" for w in caught] == []


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_reads_a_phrase_past_a_possessive_as_the_server_does(svc, tmp_path):
    """A synonym phrase with a possessive inside ("refills his hand", "pick their seat",
    "take my pool": `QueryGroups._phrase_past_possessives`, the browser's
    `phrasePastPossessives`, the possessives shipped in the params): the same first three,
    in the same order, as the server's."""
    queries = ["guy slaps down 2 cards back to back and only refills his hand after, is that legit",
               "does top seed pick their seat in the final?", "top seed going into finals, do i get to pick my seat",
               "forgot to take my pool from the edge and already played a card. can i go back",
               "he already drew his replacment, am i too late to stop his card",
               "flight maneuver that comes back to his hand out of the ash heap",
               "my my my hand", "refill my their hand", "take my",
               # an object pronoun
               "giovanni vamp whose own clan blocks him better", "block it them better", "him it"]
    want = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want
    groups = svc.search.rules.groups_of(queries[0])
    assert any(g.words == "refills his hand" and ("replac",) in g.alts for g in groups)
    groups = svc.search.cards.groups_of("giovanni vamp whose own clan blocks him better")
    assert any(g.words == "blocks him better" and ("intercept",) in g.alts for g in groups)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_reads_a_phrase_a_part_holds_nothing_of_as_its_words(svc, tmp_path):
    """A synonym phrase none of whose phrases a part holds ("no discipline" in the rules:
    `QueryGroups.use_tables`, the browser's per-part table in `OfflineIndex`) is read as its
    words there and as the phrase in the cards: the same first three as the server's."""
    queries = ["opp dropped a conditioning and just said 'conditioning', no discipline level or anything, is that legit?",
               "the no discipline reaction that gives any ready vamp +2 votes during a referendum",
               "+1 stealth action no disc needed that adds 2 blood to a gangrel in my uncontrolled region",
               "combat card without a discipline that ends combat", "no discipline", "no no discipline discipline"]
    want = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want
    assert ("no", "disciplin") in svc.search.cards._synonyms
    assert ("no", "disciplin") not in svc.search.rules._synonyms


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
@pytest.mark.parametrize("queries", [
    # "bleed for one more" (`numbers.COMPARATIVES`, the browser's `queryUnits` with the
    # params' `comparatives`)
    ["Which Presence card do you play on your own vampire so they bleed for one more from then on?",
     "the card you drop on an opponent's Gangrel to make him bleed for one less",
     "Which Sabbat vamp bleeds for one extra against anyone who has Ventrue out and ready?",
     "more 1", "1 more", "for one more", "vote for two extra", "cost 1 less pool"],
    # a discipline's name mistyped where the stemmer hides the typo ("necromacy", "animalsim":
    # `QueryGroups._misspelt_discipline`, the browser's `misspeltDiscipline` with the params'
    # `discipline_names`)
    ["necromacy card, +1 stealth at basic and at superior it flips to +1 intercept when im blocking",
     "animalsim card that makes the other guy hit for one less this round",
     "obfuscte reaction", "thaumaturgey strike", "blight", "spirits", "vision", "visons", "necromacy"],
    # "a blood" read as "1 blood" (`query.with_one_blood`, the browser's `withOneBlood` with
    # the params' `one_blood`)
    ["reaction costing a blood that lowers the bleed by the bleeder's stealth",
     "he paid a blood for an animalism strike doing 2 ranged damage", "a blood", "A  BLOOD", "an blood cost",
     "a bloody mess"],
    # a phrase's words without their apostrophes ("can't prevent": `analysis.phrase_item`, the
    # browser's `phraseItem`)
    ["hand strike where the damage can't be prevented", "he can\u2019t prevent it", "my vamp doesn't untap next turn",
     "can't", "'"],
    # a plain card asked for (`query.asks_plain`, `CardFactors.plain_factor`; the browser's
    # `asksPlain` with the params' `plain_asked` and `just_now`, `plainFactor`)
    ["2 pool master that just destroys a location", "the plain pistl that does 2 ranged dmg for 1 pool",
     "master that jsut taps any minion for 1 pool, nothing else", "vanilla 5 cap sabbat, only text is black hand",
     "I just burned the Edge for a vote, does my torpid vamp gain a blood"],
    # a card told of with a clan it does not name (`SearchIndex.EACH_FACET_COVERING`, the
    # browser's `covering` with the params' `each_facet_covering`)
    ["My Ventrue went all spooky with some necromancy card last night: +1 stealth, nothing could hurt him except "
     "aggravated, but he couldn't hurt anyone either, and he had to pay a blood every master phase to keep it going.",
     "my tremere played some auspex card that let him see my hand", "malk dementation vote card",
     "brujah potence celerity combat card that gives an extra strike"],
    # a closing ask for a card's name (`merge(described=…)` through `asks_name`, the browser's
    # `asksName`), a number typed against its word (`query.with_numbers_apart`, the browser's
    # `withNumbersApart` with the params' `number_glued`) and a kind of card of several types
    # (`descriptions.KIND_TYPES`, the browser's `cardTypes`, `ofTypes` and `typeStems`)
    ["A titled vamp called a vote: name a piece of gear and any vampire, and if it passes the gear goes to that vamp. "
     "What's the card?", "2pool master: pick a player, hand shrinks 1 till a vamp acts to burn it",
     "whats the ghoul that gives your vamp +2 bleed but costs a blood every unlock or he dies",
     "a location played as equipment that lets my vampire burn X blood before range for X maneuvers",
     "which location gives +1 stealth, name?", "a 3cap vamp with 1bleed"],
    # a last sentence asking for the card by its type ("… Which modifier was that?":
    # `Search._described_type`, the browser's `closingAskType`)
    ["The Ministry player bled me using Auspex and Serpentis together for an extra point, and the superior "
     "version later dropped a corruption counter on one of my minions. Which modifier was that?",
     "My Gangrel got blocked by a Ravnos with a bonus point of intercept vs Gangrel. Which vampire has that?",
     "Which modifier was that?", "It untaps. Which one?"],
    # a synonym phrase with a number of one word inside ("hits 1 harder": "hit harder" and the
    # number 1 as its own group; the browser's `phrasePastPossessives` and `numberGroup`)
    ["ministry indie 7 cap who hits 1 harder vs younger vamps",
     "i spend 2 blood to untap, is that ok", "vamp that can pay 3 pool to steal a vote",
     "hits twenty eight harder", "hit 1 2 harder", "spend my 2 blood", "1 2 3"],
], ids=["number said to be more", "mistyped discipline", "a blood", "apostrophes", "plain card", "each clan named",
        "name asked, numbers glued, kinds of cards", "closing ask by a type", "phrase past a number"])
def test_browser_ranks_these_readings_as_the_server(svc, tmp_path, queries):
    """The same first three as the server's for the queries each reading concerns."""
    want = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_leaves_out_a_ruled_out_card_as_the_server(svc, tmp_path):
    """`query.without_ruled_out` and the offline search's `withoutRuledOut` (the server's
    pattern, shipped in the params): the same text for every query of the sets and for
    clauses at the ends, in brackets, after dashes and "and"; and the same first three for
    questions that rule a card out."""
    texts = _query_texts() + [
        "not the grenade", "x? not the grenade", "a, not the b, c. Not the d", "a (not the b) c", "a - not the b",
        "a and not the b", "a but Not The b; c", "cannot the b", "knot the b", "not the", "not the ", "a,not the b",
        "a \u2014 not the b \u2013 c", "he is not the acting one", "1) not the x 2) y"]
    got = browser_texts(tmp_path, "withoutRuledOut", texts, ranking_params(True))
    want = [without_ruled_out(t) for t in texts]
    assert sum(1 for t, w in zip(texts, want) if w != t) >= 12
    differ = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert differ == [], differ[:10]
    queries = ["whats the 2 pool wepon that just does 1 agg dmg per strike? not the grenade",
               "cammy vamp w +1 strenght fighting lasombra, not the sabbat guy w the same thing",
               "not the grenade", "Not the one with the press"]
    want_keys = [[h.entry.key for h in svc.search.search(q, 3)[0]] for q in queries]
    assert browser_first_three(svc, tmp_path, queries) == want_keys


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_reads_a_blood_as_one_as_the_server(svc, tmp_path):
    """`query.with_one_blood` and the offline search's `withOneBlood` (the server's pattern,
    of its cards' names, shipped in the params): the same text for every query of the sets
    and for the edges of words, spaces and cases."""
    texts = _query_texts() + [
        "a blood", "A BLOOD", "an\tblood", "a  blood", "ka blood", "a bloody", "\u00e9a blood", "a\u00a0blood",
        "a blood a blood", "(a blood)", "a-blood", "a blood hunt", "A Blood Doll", "a blood-doll", "a blood  sorcery",
        "a blood huntress", "a blood\u00a0hunt", "a blood cursed", "a blood curses"]
    got = browser_texts(tmp_path, "withOneBlood", texts, ranking_params(True, svc.search.one_blood))
    want = [with_one_blood(t, svc.search.one_blood) for t in texts]
    assert sum(1 for t, w in zip(texts, want) if w != t) >= 20
    differ = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert differ == [], differ[:10]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_sets_a_glued_number_apart_as_the_server(tmp_path):
    """`query.with_numbers_apart` and the offline search's `withNumbersApart` (the server's
    pattern, shipped in the params): the same text for every query of the sets and for
    ordinals, "2R", decimals, cases and word edges."""
    texts = _query_texts() + [
        "2pool", "2POOL master", "a 3cap vamp", "1blood", "4vp", "2nd", "30TH", "3R", "9mm", "2.5pool", "x2pool",
        "10mins", "2ND", "30TH", "2MM", "1St", "(2pool)", "2pool2pool", "\u00e92pool", "2pool\u00e9", "12345blood", "2_pool", "-2pool", "2st"]
    got = browser_texts(tmp_path, "withNumbersApart", texts, ranking_params(True))
    want = [with_numbers_apart(t) for t in texts]
    assert sum(1 for t, w in zip(texts, want) if w != t) >= 9
    differ = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert differ == [], differ[:10]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_reads_a_what_if_as_the_server(tmp_path):
    """`query.with_what_if` and the offline search's `withWhatIf` (the server's pattern,
    shipped in the params): the same text for every query of the sets and for hyphens,
    plurals, cases, a question opening with "what if" and word edges."""
    texts = _query_texts() + [
        "meaning it as a what-if", "just a what if", "a what ifs", "What-ifs are fine", "A WHAT IF", "a  what\tif",
        "What if he blocks?", "somewhat-if", "what-iffy", "a what if-", "a what ifs?", "so what if i do"]
    got = browser_texts(tmp_path, "withWhatIf", texts, ranking_params(True))
    want = [with_what_if(t) for t in texts]
    assert sum(1 for t, w in zip(texts, want) if w != t) >= 6
    differ = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert differ == [], differ[:10]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_tells_a_plain_card_asked_for_as_the_server(tmp_path):
    """`query.asks_plain` and the offline search's `asksPlain` (the server's patterns,
    shipped in the params): the same answer for every query of the sets and for "just" said
    of time, word edges, spaces and cases."""
    texts = _query_texts() + [
        "the master that just destroys a location", "I just burned the Edge", "who just got influenced",
        "he's just +1 stealth", "I've just played it", "I\u2019ve just played it", "just for the stealth",
        "JUST", "unjust", "just\u00a0for", "nothing  else", "nothing\u00a0else", "NOTHING MORE", "nothin else", "nothin' more", "nothingg else", "plainly",
        "vanilla vamp", "a simple one", "we just", "just now", "it's just a maneuver"]
    got = browser_texts(tmp_path, "asksPlain", texts, ranking_params(True))
    want = [asks_plain(t) for t in texts]
    assert 20 <= sum(want) <= len(want) - 20
    differ = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert differ == [], differ[:10]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the browser's code")
def test_browser_splits_numbered_sub_questions_as_the_server(tmp_path):
    """`answer.split_questions` and the offline search's `splitQuestions` (whose mark is
    written without a look-behind): the same sub-questions for every query of the sets and
    for marks packed close together, at the ends, in brackets and after line breaks."""
    texts = _query_texts() + [
        "1) 2) x", "1) a 2) b", "1)a 2) b 3) c", "(1) can i bleed (2) can i hunt", "a. one b. two", "x 1) y\n2) z",
        "1.\tone\n2.\ttwo", "12) a 13) b 100) c", "1) a  2)  b ", "1) a2) b 3) c", "i) one ii) two", "1)", "1) 2)",
        "1) a 2) b 3) c 4) d 5) e 6) f 7) g 8) h", " 1) lead 2) next", "e.g. 1) a 2) b"]
    got = browser_texts(tmp_path, "splitQuestions", texts, {"max_parts": MAX_PARTS})
    want = [split_questions(t) for t in texts]
    assert sum(1 for w in want if w) >= 10
    differ = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert differ == [], differ[:10]


def test_the_browser_code_uses_no_look_behind():
    """Safari before 16.4 (older iPhones, which judges still carry) rejects a regular
    expression with a look-behind, and the whole module holding it then fails to load: no
    script the pages load writes one."""
    found = [(path.name, line) for path in sorted(STATIC.rglob("*.js"))
             for line in path.read_text(encoding="utf-8").splitlines() if re.search(r"\(\?<[=!]", line)]
    assert found == []

