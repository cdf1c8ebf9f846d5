// The recorder's text helpers (static/recorder-sync.js `text`) and the field names people
// read (static/recorder-form.js `words`), without a page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { text } from "../../judgekit/static/recorder-sync.js";
import { words } from "../../judgekit/static/recorder-form.js";

test("a lone half of a surrogate pair becomes U+FFFD, a whole pair stays", () => {
  assert.equal(text.wellFormed("ok \uD83D"), "ok \uFFFD");
  assert.equal(text.wellFormed("\uDE00 ok"), "\uFFFD ok");
  assert.equal(text.wellFormed("ok 😀"), "ok 😀");
  assert.equal(text.wellFormed("ok \uD83D", ""), "ok ");
  // halves in the wrong order, a high half before a pair, pairs side by side
  assert.equal(text.wellFormed("\uDE00\uD83D"), "\uFFFD\uFFFD");
  assert.equal(text.wellFormed("\uD83D\uD83D\uDE00"), "\uFFFD😀");
  assert.equal(text.wellFormed("😀😀\uDE00"), "😀😀\uFFFD");
  assert.equal(text.wellFormed("a $& b \uD83D", "$&"), "a $& b $&");   // `instead` taken as written
});

test("clean mends every string of a value, keys too", () => {
  assert.deepEqual(text.clean({ "a\uD83D": ["\uDE00", 3, null], b: { c: "😀" } }),
    { "a\uFFFD": ["\uFFFD", 3, null], b: { c: "😀" } });
});

test("a name is cut by characters, never inside an emoji", () => {
  assert.equal(text.cut("  😀abc  ", 2), "😀a");
  assert.equal(text.cut("ab\uD83D", 80), "ab");
  assert.equal(text.cut(null, 5), "");
});

test("a field's name for people", () => {
  assert.equal(words("seat"), "Who");
  assert.equal(words("judge_minutes"), "Judge time at the table (min)");
  assert.equal(words("actual_amount"), "Actual amount");      // no label: its name in words
});
