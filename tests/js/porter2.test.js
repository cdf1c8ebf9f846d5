// The browser's Porter2 stemmer (static/porter2.js) on words whose stems whoosh's porter2 (the
// server's analyzer) gives: the algorithm's exceptions, its steps, and the game's own words.
import { test } from "node:test";
import assert from "node:assert/strict";
import porter2 from "../../judgekit/static/porter2.js";

const WHOOSH = {
  // exceptions and invariant words of the algorithm
  skies: "sky", dying: "die", news: "news", inning: "inning", proceed: "proceed",
  // its steps: suffixes, doubled consonants, "y", R1/R2
  consign: "consign", consigned: "consign", generously: "generous", cried: "cri", ties: "tie",
  hopping: "hop", agreed: "agre", luxuriated: "luxuri",
  // the rules' words
  bleeding: "bleed", vampires: "vampir", diablerie: "diableri", torpor: "torpor", rescued: "rescu",
  hunting: "hunt", equipped: "equip",
};

test("stems words as whoosh's porter2 does", () => {
  const got = Object.fromEntries(Object.keys(WHOOSH).map((w) => [w, porter2(w)]));
  assert.deepEqual(got, WHOOSH);
});

test("short words are left as they are", () => {
  assert.equal(porter2("a"), "a");
  assert.equal(porter2("is"), "is");
});
