// How the offline search chooses the ruling of a described card's group
// (static/offline-group-rulings.js bestGroupRuling, the server's best_group_ruling):
// by the share of the whole question, and of its last sentence at last_sentence_share.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bestGroupRuling, groupRulingAfter, namedCardRuling } from "../../judgekit/static/offline-group-rulings.js";

// a cards part whose shares are given per list of groups: "whole" and "last" stand for the
// question's groups and its last sentence's
function searchWith(params, shares) {
  const byKey = new Map([["cards/G1#r1", { docnum: 1 }], ["cards/G2#r1", { docnum: 2 }]]);
  return {
    params,
    cards: { byKey, shares: (groups, docnums) => docnums.map((d) => shares[groups[0]][d - 1]) },
  };
}
const card = { docnum: 0 };
const withGroups = [{ place: 0, card, keys: ["cards/G1#r1", "cards/G2#r1"] }];

test("the ruling holding as much of the question and more of its last sentence is chosen", () => {
  const search = searchWith({ last_sentence_share: 0.5 }, { whole: [0.5, 0.5], last: [0.1, 0.4] });
  const best = bestGroupRuling(search, withGroups, ["whole"], 0.5, ["last"]);
  assert.deepEqual(best, { share: 0.5, key: "cards/G2#r1", place: 0 });   // its share of the whole question
});

test("the whole question still counts most: a little more of the last sentence does not pass it", () => {
  const search = searchWith({ last_sentence_share: 0.5 }, { whole: [0.6, 0.4], last: [0.1, 0.4] });
  assert.equal(bestGroupRuling(search, withGroups, ["whole"], 0.5, ["last"]).key, "cards/G1#r1");
});

test("without the last sentence (or an index saved before its share) ties go to the page's order", () => {
  const shares = { whole: [0.5, 0.5], last: [0.1, 0.4] };
  assert.equal(bestGroupRuling(searchWith({ last_sentence_share: 0.5 }, shares), withGroups, ["whole"], 0.5, null).key,
    "cards/G1#r1");
  assert.equal(bestGroupRuling(searchWith({}, shares), withGroups, ["whole"], 0.5, []).key, "cards/G1#r1");
});

test("an index saved before last_sentence_share chooses by the whole question alone", () => {
  // two cards' answers: the described card first, far ahead; its two group rulings tie on the
  // whole question, and the second holds more of the last sentence
  const card = { key: "cards/1", docnum: 0, kind: "card", section: "1" };
  const byKey = new Map([["cards/1", card], ["cards/G1#r1", { key: "cards/G1#r1", docnum: 1, url: "/g1" }],
    ["cards/G2#r1", { key: "cards/G2#r1", docnum: 2, url: "/g2" }]]);
  const shares = { whole: [0.5, 0.5], last: [0.1, 0.4] };
  function search(params) {
    return {
      params: { group_ruling_cards: 2, group_ruling_cards_asked: 3, ruling_inherits: 0.5, group_ruling_lead: 3,
        group_ruling_near: 0.8, second_group_share: 2, ...params },
      cardGroups: { 1: ["G1", "G2"] },
      rulingsBySection: () => new Map([["G1", ["cards/G1#r1"]], ["G2", ["cards/G2#r1"]]]),
      cards: { byKey, shares: (groups, docnums) => docnums.map((d) => shares[groups[0]][d - 1]),
        groups: () => ["last"] },
    };
  }
  const hits = [{ entry: card, score: 10, coverage: 0.4 }, { entry: { key: "rules/a" }, score: 1, coverage: 0.3 },
    { entry: { key: "rules/b" }, score: 1, coverage: 0.3 }];
  const keys = (out) => out.map((h) => h.entry.key);
  assert.deepEqual(keys(groupRulingAfter(search({ last_sentence_share: 0.5 }), hits, ["whole"], 10, true, "x")),
    ["cards/1", "cards/G2#r1", "rules/a", "rules/b"]);
  assert.deepEqual(keys(groupRulingAfter(search({}), hits, ["whole"], 10, true, "x")),
    ["cards/1", "cards/G1#r1", "rules/a", "rules/b"]);
});

test("a named card's group ruling holding what the question asks beyond the card comes second, or third", () => {
  // the named card (score 1000) first; its one group ruling holds 0.8 of the words beyond it
  const card = { key: "cards/1", docnum: 0, kind: "card", section: "1" };
  const ruling = { key: "cards/G1#r1", docnum: 1, url: "/g1" };
  const byKey = new Map([["cards/1", card], ["cards/G1#r1", ruling]]);
  const words = [{ words: "dr jest", number: null, factor: 1.0 }, { words: "torpor", number: null, factor: 1.0 },
    { words: "prey", number: null, factor: 1.0 }, { words: "can", number: null, factor: 0.2 }];
  let asked = null;
  function search(params) {
    return {
      params: { named_ruling_share: 0.5, named_ruling_third: 0.1, ...params },
      cardGroups: { 1: ["G1"] },
      rulingsBySection: () => new Map([["G1", ["cards/G1#r1"]]]),
      names: { nameWords: () => new Set(["dr", "jest"]) },
      // the card holds "prey"; the shares are asked of the words beyond it
      cards: { byKey, holds: (g, d) => d === 0 && g.words === "prey",
        shares: (groups, docnums) => { asked = groups.map((g) => g.words); return docnums.map(() => 0.8); } },
    };
  }
  const named = { entry: card, score: 1000, coverage: 1.0, direct: true };
  const rule = (k, c) => ({ entry: { key: k }, score: 1, coverage: c });
  const keys = (out) => out.map((h) => h.entry.key);
  assert.deepEqual(keys(namedCardRuling(search({}), [named, rule("a", 0.5), rule("b", 0.4)], "q", [], words, 10)),
    ["cards/1", "cards/G1#r1", "a", "b"]);
  assert.deepEqual(asked, ["torpor"]);     // not the name, a question word, nor what the card holds
  // the second answer holds as much of the question: third, when as much as the third's
  assert.deepEqual(keys(namedCardRuling(search({}), [named, rule("a", 0.8), rule("b", 0.8)], "q", [], words, 10)),
    ["cards/1", "a", "cards/G1#r1", "b"]);
  // third whatever the third answer holds, once it holds the least share for that
  assert.deepEqual(keys(namedCardRuling(search({}), [named, rule("a", 0.9), rule("b", 0.85)], "q", [], words, 10)),
    ["cards/1", "a", "cards/G1#r1", "b"]);
  assert.deepEqual(keys(namedCardRuling(search({ named_ruling_third: 0.85 }), [named, rule("a", 0.9), rule("b", 0.85)],
    "q", [], words, 10)), ["cards/1", "a", "b"]);
  // under the share for second, third; under both, or fewer than three answers, or an index
  // saved before it: the hits as they were
  assert.deepEqual(keys(namedCardRuling(search({ named_ruling_share: 0.9 }), [named, rule("a", 0.1), rule("b", 0.1)],
    "q", [], words, 10)), ["cards/1", "a", "cards/G1#r1", "b"]);
  assert.deepEqual(keys(namedCardRuling(search({ named_ruling_share: 0.9 }), [named, rule("a", 0.1)], "q", [], words, 10)),
    ["cards/1", "a"]);
  assert.deepEqual(keys(namedCardRuling(search({ named_ruling_share: 0.9, named_ruling_third: 0.9 }),
    [named, rule("a", 0.1), rule("b", 0.1)], "q", [], words, 10)), ["cards/1", "a", "b"]);
  assert.deepEqual(keys(namedCardRuling(search({ named_ruling_share: undefined }), [named, rule("a", 0.1)], "q", [], words, 10)),
    ["cards/1", "a"]);
  assert.deepEqual(keys(namedCardRuling(search({ named_ruling_third: undefined }), [named, rule("a", 0.1)], "q", [], words, 10)),
    ["cards/1", "a"]);
});

test("cards tied exactly leave the first places to different answers (siblings_later)", async () => {
  const { siblingsLater } = await import("../../judgekit/static/offline-merge.js");
  const card = (k) => ({ key: "cards/" + k, doc: "cards", section: k, kind: "card" });
  const keys = (hs) => hs.map((h) => h.entry.section);
  const hits = ["a", "b", "c", "d"].map((k) => ({ entry: card(k), score: 27.2, coverage: 0.637 }))
    .concat([{ entry: card("x"), score: 20, coverage: 0.555 }]);
  assert.deepEqual(keys(siblingsLater(hits, 3)), ["a", "x", "b", "c", "d"]);
  assert.deepEqual(keys(siblingsLater(hits, 0)), ["a", "b", "c", "d", "x"]);   // an older index
  const named = hits.map((h) => ({ entry: h.entry, score: 1000, coverage: 1, direct: true }));
  assert.deepEqual(keys(siblingsLater(named, 3)), ["a", "b", "c", "d", "x"]);
});

test("a section's second entry leaves the first places to other sections (siblings_later)", async () => {
  const { siblingsLater } = await import("../../judgekit/static/offline-merge.js");
  const rule = (section, key, score) => ({ entry: { key: "tournament-rules/" + section + key, doc: "tournament-rules",
                                                    section: section, kind: key ? "example" : "section" },
                                           score: score, coverage: 0.5 });
  const hits = [rule("3.7.4", "", 9), rule("3.7.4", "#ex1", 8), rule("3.1.2", "", 7), rule("3.7.3", "", 6),
                rule("3.7.2", "", 5)];
  const order = (hs) => hs.map((h) => h.entry.key.slice("tournament-rules/".length));
  assert.deepEqual(order(siblingsLater(hits, 3)), ["3.7.4", "3.1.2", "3.7.3", "3.7.4#ex1", "3.7.2"]);
  // a section the query names (its entries direct) keeps its entries together
  const direct = hits.slice(0, 2).map((h) => Object.assign({}, h, { direct: true })).concat(hits.slice(2));
  assert.deepEqual(order(siblingsLater(direct, 3)), ["3.7.4", "3.7.4#ex1", "3.1.2", "3.7.3", "3.7.2"]);
});
