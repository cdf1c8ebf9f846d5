// The offline index's reading of words and queries (static/offline-index.js and its helpers
// offline-words.js, offline-query.js, offline-numbers.js), run without a page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { OfflineIndex } from "../../judgekit/static/offline-index.js";
import { fold, withinOneEdit } from "../../judgekit/static/offline-words.js";
import { SECTION_QUERY, checkQuery, spellOutDisciplines } from "../../judgekit/static/offline-query.js";
import { closeness, numberDocs, queryUnits } from "../../judgekit/static/offline-numbers.js";
import { facetGroups, namedTypes } from "../../judgekit/static/offline-scoring.js";
import { nearestFirst } from "../../judgekit/static/offline-phrasings.js";

// an index part with no table of known words: what the browser does for a word the index
// does not ship (stop words dropped, accents folded, the rest stemmed)
function reader(stop, foldTable) {
  const P = OfflineIndex.prototype;
  const self = { words: new Map(), stop: new Set(stop), foldTable };
  self.stem = P.stem;
  return { stem: (w) => self.stem(w), tokenize: (t) => P.tokenize.call(self, t) };
}

test("a query is tokenized into stems with their places in the text", () => {
  const r = reader(["the", "a", "of"], { "ö": "o" });
  assert.deepEqual(r.tokenize("The bleeding of a Vampire"),
    [["bleed", 4, 12], ["vampir", 18, 25]]);
  assert.equal(r.stem("the"), null);
  assert.equal(r.stem("Rötschreck"), "rotschreck");
});

test("a word with digits is stemmed as whoosh stems it", () => {
  const r = reader([], {});
  assert.equal(r.stem("some1's"), "some1");   // the possessive, as whoosh's porter2 drops it
  assert.equal(r.stem("abc1ed"), "abc1");
  assert.equal(r.stem("9mm"), "9mm");
  assert.equal(r.stem("2R"), "2r");
});

test("a word the index knows is read as the index says", () => {
  const P = OfflineIndex.prototype;
  const self = { words: new Map([["vp", "victory-point"], ["and", 0]]), stop: new Set(), foldTable: {} };
  assert.equal(P.stem.call(self, "VP"), "victory-point");
  assert.equal(P.stem.call(self, "and"), null);          // 0: a stop word in the shipped table
});

test("accents are folded by the table the index ships", () => {
  assert.equal(fold("rötschreck", { "ö": "o" }), "rotschreck");
  assert.equal(fold("rötschreck", {}), "rötschreck");
});

test("one edit: a letter changed, added, dropped or two swapped", () => {
  assert.ok(withinOneEdit("bleed", "bleed"));
  assert.ok(withinOneEdit("bleed", "blead"));
  assert.ok(withinOneEdit("bleed", "bled"));
  assert.ok(withinOneEdit("bled", "bleed"));
  assert.ok(withinOneEdit("torpor", "tropor"));
  assert.ok(!withinOneEdit("torpor", "tropro"));
  assert.ok(!withinOneEdit("hunt", "hunting"));
});

test("numbers close to each other count, far ones do not", () => {
  assert.equal(closeness(4, 4), 1);
  assert.equal(closeness(4, 5), 0.6);
  assert.equal(closeness(2, 4), 0);
  assert.equal(closeness(0, 0), 1);
});

test("a query is trimmed, and refused when empty or too long", () => {
  assert.equal(checkQuery("  bleed  ", { max_query: 10 }), "bleed");
  assert.throws(() => checkQuery("   ", { max_query: 10 }), /type something/);
  assert.throws(() => checkQuery("x".repeat(11), { max_query: 10 }), /too long \(11 characters; at most 10\)/);
});

test("a section number is recognised, with or without its word", () => {
  assert.equal(SECTION_QUERY.exec("3.7.2")[1], "3.7.2");
  assert.equal(SECTION_QUERY.exec("rule 4.1.")[1], "4.1");
  assert.equal(SECTION_QUERY.exec("§ A")[1], "A");
  assert.equal(SECTION_QUERY.exec("bleed 3"), null);
});

test("the groups naming a discipline or a clan are found through their alternatives", () => {
  const alts = (...stems) => new Map(stems.map((s, k) => [s, [[s], k ? 0.8 : 1.0]]));
  const index = { facetStems: new Set(["auspex", "lasombra"]) };
  const groups = [{ number: null, alts: alts("aus", "auspex") }, { number: null, alts: alts("block") },
                  { number: 3, alts: alts("3") }, { number: null, alts: alts("lasombra") }];
  assert.deepEqual(facetGroups(index, groups), [0, 3]);
});

test("the card types a query names are read from its groups' one-stem alternatives", () => {
  const alts = (...stems) => new Map(stems.map((s, k) => [s, [[s], k ? 0.8 : 1.0]]));
  const index = { typeStems: { reaction: ["Reaction"], alli: ["Ally"], locat: ["Master", "Equipment"], polit: ["Political Action"] } };
  const groups = [{ number: null, alts: alts("reaction") }, { number: null, alts: alts("block", "alli") },
                  { number: 2, alts: alts("polit") }, { number: null, alts: new Map([["polit act", [["polit", "act"], 1.0]]]) },
                  { number: null, alts: alts("toString") }];
  assert.deepEqual(namedTypes(index, groups).sort(), ["Ally", "Reaction"]);
  assert.deepEqual(namedTypes(index, [{ number: null, alts: alts("locat", "alli") }]).sort(), ["Ally", "Equipment", "Master"]);
  // an index saved before the kinds of several types: one type a stem
  assert.deepEqual(namedTypes({ typeStems: { alli: "Ally", locat: "Master" } }, [{ number: null, alts: alts("locat", "alli") }]).sort(),
                   ["Ally", "Master"]);
  assert.deepEqual(namedTypes(index, []), []);
});

test("a list of disciplines written with slashes is spelt out, any other list left as typed", () => {
  const spellings = { for: "fortitude", pre: "presence", aus: "auspex", cel: "celerity", obf: "obfuscate" };
  assert.equal(spellOutDisciplines("for/pre mod", spellings), "fortitude/presence mod");
  assert.equal(spellOutDisciplines("the Aus/Cel/For vamp", spellings), "the auspex/celerity/fortitude vamp");
  assert.equal(spellOutDisciplines("(obf/pre) and obf/cel", spellings), "(obfuscate/presence) and obfuscate/celerity");
  assert.equal(spellOutDisciplines("pred/prey and for/toString", spellings), "pred/prey and for/toString");
  assert.equal(spellOutDisciplines("x_for/pre for/pre2 for pre", spellings), "x_for/pre for/pre2 for pre");
  assert.equal(spellOutDisciplines("obf+pre reaction, aus&cel/for", spellings), "obfuscate+presence reaction, auspex&celerity/fortitude");
  assert.equal(spellOutDisciplines("R&D and str+1, pre+", spellings), "R&D and str+1, pre+");
});

test("a number stated beside an entry's text counts only for a query's number in its unit", () => {
  // (numbers.py StatedNumbers.near and query_units: a capacity, a cost in pool or in blood)
  const index = {
    params: { number_near: 0.5, number_exact: 0.75, unit_miss: 0.5, capacity: "#cap", capacity_words: ["cap", "capac"],
              cost_units: { pool: "#pool", blood: "#blood" }, beside_units: ["#blood", "#cap", "#pool"] },
    // entry 0 costs 2 pool; entry 1's text says "2 pool"; entry 2 costs 2 pool and 2 blood
    numbers: new Map([[2, [[0, new Set(["#pool"])], [1, new Set(["pool"])], [2, new Set(["#pool"])], [2, new Set(["#blood"])]]]]),
    numberValues: [2], nEntries: 3, otherPart: null,
  };
  assert.deepEqual([...queryUnits(index, ["pool", "master"], null)].sort(), ["#pool", "master", "pool"]);
  assert.deepEqual([...queryUnits(index, ["damag"], "pool")], ["damag"]);
  const found = (after) => Object.fromEntries(numberDocs(index, 2, queryUnits(index, after, null))[0]);
  assert.deepEqual(found([]), { 1: 1 });                       // a plain "2": no cost
  assert.deepEqual(found(["damag"]), { 1: 0.5 });              // "2 damage": the text's, half
  assert.deepEqual(found(["pool"]), { 0: 1, 1: 1, 2: 1 });     // "2 pool": the costs and the text
  assert.deepEqual(found(["blood"]), { 1: 0.5, 2: 1 });        // "2 blood": the blood cost
});

test("the nearest phrasing re-orders the first entries and the scores keep their places", () => {
  // (encode_ids of numbers under 57, which need no skip of the backslash)
  const pack = (ids) => String.fromCharCode(...ids.map((n) => n + 35));
  // entry 1 has the phrasings "draft pick timer" and "slow"; entry 0 has none
  const index = { phrasingFactor: 15, nearestAmong: 10,
                  phrasingData: { stems: ["draft", "pick", "timer", "slow"], idf: [1, 2, 3, 0.5],
                                  packed: pack([1, 2, 3, 0, 1, 2, 1, 3]) } };
  const groups = [{ alts: new Map([["draft", [["draft"], 1]]]), weight: 2, factor: 1, number: null },
                  { alts: new Map([["choose", [["choose"], 1]], ["pick", [["pick"], 0.8]]]), weight: 3, factor: 1, number: null },
                  { alts: new Map([["timer", [["timer"], 1]]]), weight: 4, factor: 1, number: null },
                  { alts: new Map([["how", [["how"], 1]]]), weight: 0.1, factor: 0.2, number: null }];
  const ranked = [[9, "a", { docnum: 0 }, 1, 9], [5, "b", { docnum: 1 }, 1, 5]];
  const out = nearestFirst(index, ranked, groups);
  // entry 1's first phrasing is all held, and holds all the question: 5 x 16 = 80 > 9
  assert.deepEqual(out.map((x) => x[1]), ["b", "a"]);
  assert.deepEqual(out.map((x) => x[0]), [9, 5]);
  assert.equal(out[0][4], 80);
  // a question of words no phrasing holds leaves the order as it was
  const other = [{ alts: new Map([["bleed", [["bleed"], 1]]]), weight: 1, factor: 1, number: null }];
  assert.deepEqual(nearestFirst(index, ranked, other).map((x) => x[1]), ["a", "b"]);
});
