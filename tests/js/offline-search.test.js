// What the offline search says of a query without reading any index (static/offline-search.js
// internals): card names' look-up keys (judgekit/recorder/card_names.py name_key) and the
// numbered sub-questions of a message (judgekit/rules/answer.py split_questions).
import { test } from "node:test";
import assert from "node:assert/strict";
import { internals } from "../../judgekit/static/offline-search.js";

test("a card name's key is as the server makes it", () => {
  // the server's name_key gives these
  const cases = { "Pentex™ Subversion": "pentexsubversion", "Rötschreck": "rotschreck",
    "Theo Bell (G2 ADV)": "theobellg2adv", "Æsop": "aesop", "Ms. Mary-Beth & Co": "msmarybethandco" };
  for (const [name, key] of Object.entries(cases)) assert.equal(internals.nameKey(name), key, name);
});

test("numbered sub-questions are split when there are two or more", () => {
  const p = { max_parts: 5 };
  assert.deepEqual(internals.splitQuestions("1) can I bleed? 2) can I hunt?", p), ["can I bleed?", "can I hunt?"]);
  assert.deepEqual(internals.splitQuestions("a) one b) two c) three", p), ["one", "two", "three"]);
  assert.deepEqual(internals.splitQuestions("just one question 1) here", p), []);
  assert.deepEqual(internals.splitQuestions("1) a 2) b 3) c", { max_parts: 2 }), ["a", "b"]);
  // marks one space apart: the space after one is the space before the next
  assert.deepEqual(internals.splitQuestions("1) 2) x 3) y", p), ["x", "y"]);
  assert.deepEqual(internals.splitQuestions("(1) one\n(2) two", p), ["one", "two"]);
});

test("an answer is good, weak or none", () => {
  const p = { weak_coverage: 0.5 };
  const says = () => true, saysNone = () => false;
  assert.equal(internals.matchOf([], p, says), "none");
  assert.equal(internals.matchOf([{ score: 1000, coverage: 0, direct: true }], p, saysNone), "good");   // a direct hit
  assert.equal(internals.matchOf([{ score: 3, coverage: 0.6 }], p, says), "good");
  assert.equal(internals.matchOf([{ score: 3, coverage: 0.4 }], p, says), "weak");
  // most of the question's weight, but none of its words that name something: its numbers
  // and question words only ("<script>alert(1)</script>")
  assert.equal(internals.matchOf([{ score: 3, coverage: 0.9 }], p, saysNone), "weak");
});

test("a name's typo needs seven letters besides a leading 'the'", () => {
  const names = new internals.CardNames({ keys: { thecall: 1, call: 1, thebarrens: 2, barrens: 2 }, common: [],
    phrases: [], filler: [], max_words: 8, typo_min: 7 });
  const found = (q) => names.find(q);
  assert.deepEqual(found("is it hot in the hall"), []);            // "the hall" is no The Call
  assert.deepEqual(found("can I go to the barrans"), [2]);        // "barrans": seven letters, one typo
});

test("in a name of two words found with a typo, a short word is spelt as in the name", () => {
  const names = new internals.CardNames({ keys: { subversion: 5, directintervention: 6 }, common: [],
    phrases: [], filler: [], max_words: 8, typo_min: 7, typo_word_min: 4 });
  assert.deepEqual(names.find("does it become the sup version"), []);    // a typo in "sup": another word
  assert.deepEqual(names.find("play direct intervension now"), [6]);     // the typo in a long word
  assert.deepEqual(names.find("the subversoin"), [5]);                    // one word: as before
});

test("a word of the rules spelt right beside a misspelt long word is a name's typo", () => {
  const names = new internals.CardNames({ keys: { directintervention: 6, targethand: 7, gargoyleslave: 8, bloodfeud: 9 },
    common: ["direct", "and", "gargoyle", "blood"], phrases: [], filler: [], max_words: 8, typo_min: 7,
    typo_word_min: 4, not_typos: [] });
  assert.deepEqual(names.find("too late for direct intervension now"), [6]);   // "direct" spelt, the typo in a long word
  assert.deepEqual(names.find("several targets and only one"), []);            // "and": too short to anchor a typo
  assert.deepEqual(names.find("a gargoyle slaved to my clan"), []);            // "slaved": too short to tell from a word
  assert.deepEqual(names.find("blood fued"), [9]);                              // but as the whole query
  assert.deepEqual(names.find("direct interventoin"), [6]);
});

test("a card's initials name it as one word, and a word one typo from a name is a word", () => {
  const names = new internals.CardNames({ keys: { ata: 3, ashestoashes: 3, haunting: 4, thehaunting: 4 },
    common: [], phrases: [], filler: [], max_words: 8, typo_min: 7, initials: ["ata"], not_typos: ["hunting"] });
  assert.deepEqual(names.find("who goes first at a four player table"), []);   // "at a" is no "ata"
  assert.deepEqual(names.find("can I play ata now"), [3]);
  assert.deepEqual(names.find("stealth when hunting"), []);                      // a word, not a typo
  assert.deepEqual(names.find("does the hauntng stay"), [4]);                    // a misspelt name
});

test("a one-word name many card texts use names the card only as the whole query", () => {
  const names = new internals.CardNames({ keys: { dodge: 5, corruption: 6 }, common: [], phrases: [], filler: [],
    max_words: 8, typo_min: 7, text_words: ["dodge", "corruption"] });
  assert.deepEqual(names.find("they cant dodge this round"), []);
  assert.deepEqual(names.find("dodge"), [5]);
  assert.deepEqual(names.find("with my corrupton counters"), []);              // no typo of a text word
  assert.deepEqual(names.find("corruption"), [6]);
  const two = new internals.CardNames({ keys: { bloodhunt: 7 }, common: [], phrases: [], filler: [],
    max_words: 8, typo_min: 7, text_words: ["bloodhunt"] });
  assert.deepEqual(two.find("can I call a blood hunt in torpor"), []);
  assert.deepEqual(two.find("blood hunt"), [7]);
});

test("a question's sentences end as on the server (SENTENCE_BREAK)", () => {
  // the server splits these alike: judgekit.rules.query.SENTENCE_BREAK (tests/test_cards_search.py
  // test_a_question_s_sentences_end_as_in_the_browser holds the same cases)
  const colon = ["can", "could", "does", "do", "did", "is", "are", "was", "will", "would", "should", "must", "may",
    "what", "how", "when", "who", "which", "where", "why"];
  const cases = [
    ["werewolf ally, 3 life. does he HAVE to strike?", ["werewolf ally, 3 life.", "does he HAVE to strike?"]],
    ["puts it on him - does he count as ani?", ["puts it on him", "does he count as ani?"]],
    ["a -- b; c!  d", ["a", "b;", "c!", "d"]],
    ["+1 stealth D action, 3.5 blood", ["+1 stealth D action, 3.5 blood"]],
    ["pre-fight: x-y", ["pre-fight: x-y"]],
    ["Tapped my vehicle to carry on: Can passers block?", ["Tapped my vehicle to carry on:", "Can passers block?"]],
    ["my weapon: strike: combat ends. does it", ["my weapon: strike: combat ends.", "does it"]],
    ["a: canal", ["a: canal"]],
    ["foo: can - bar", ["foo:", "can", "bar"]],
    ["Tremere: \u0130S she ok", ["Tremere: \u0130S she ok"]],       // letters compared in ASCII
    ["foo:\u0085can x", ["foo:\u0085can x"]],                    // spaces both languages' \\s match
  ];
  for (const [text, parts] of cases) assert.deepEqual(internals.sentences(text, colon), parts, text);
  // an index saved before the colon's break: no colon ends a sentence
  assert.deepEqual(internals.sentences("Tapped my vehicle: can passers block?"), ["Tapped my vehicle: can passers block?"]);
});

test("a call to the judge that opens a question is left out, as on the server (ADDRESS)", () => {
  const w = internals.withoutAddress;
  assert.equal(w("Judge! His minion has a gun"), "His minion has a gun");
  assert.equal(w("judge, his vamp bled me"), "his vamp bled me");
  assert.equal(w("Call: my opponent says"), "my opponent says");
  assert.equal(w("hey judge - can I block?"), "can I block?");
  // not a call: a word of the question, a longer word, or nothing after it
  assert.equal(w("judge what does a judge do"), "judge what does a judge do");
  assert.equal(w("judgement: the card"), "judgement: the card");
  assert.equal(w("call the vote"), "call the vote");
  assert.equal(w("Judge!"), "Judge!");
});
