// The browser's catalog of words (static/i18n.js, static/i18n/en.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { has, t } from "../../judgekit/static/i18n.js";

const STATIC = new URL("../../judgekit/static/", import.meta.url);
const catalog = JSON.parse(fs.readFileSync(new URL("i18n/en.json", STATIC), "utf8"));

test("a key gives its text, its places filled in", () => {
  assert.equal(t("hall.table", { table: 7 }), "Table 7");
  assert.equal(t("recorder.not_recorded", { field: "Seat", reason: "no such seat." }), "Not recorded — Seat: no such seat.");
  assert.equal(t("hall.table"), "Table {table}");                 // no params: the text as it is
  assert.equal(t("hall.table", { other: 1 }), "Table {table}");    // a place without its value stays
});

test("a text that depends on a number takes its plural form", () => {
  assert.equal(t("search.results", { count: 1 }), "1 result");
  assert.equal(t("search.results", { count: 2 }), "The best 2 results");
  assert.equal(t("search.results", { count: 12 }), "The best 12 results");
});

test("an unknown key shows itself, never breaks the page", () => {
  assert.equal(has("no.such.key"), false);
  assert.equal(t("no.such.key", { count: 2 }), "no.such.key");
});

// every key the browser code asks for is in the catalog, and every key in the catalog is used
test("the code and the catalog agree", () => {
  const asked = new Set(), prefixes = [];
  for (const name of fs.readdirSync(STATIC)) {
    if (!name.endsWith(".js")) continue;
    const src = fs.readFileSync(new URL(name, STATIC), "utf8");
    for (const m of src.matchAll(/\b(?:t|tr)\(\s*"([a-z_]+\.[a-z0-9_.-]*[a-z0-9_])"(?!\s*\+)/g)) asked.add(m[1]);
    // keys made from a code: t("recorder.action." + k) and the like
    for (const m of src.matchAll(/\b(?:t|tr|has)\(\s*"([a-z_]+\.[a-z0-9_.-]*)"\s*\+/g)) prefixes.push(m[1]);
    // a key chosen by a condition: t(cond ? "a.b" : "a.c", ...)
    for (const m of src.matchAll(/\b(?:t|tr)\([^()"]*\?\s*"([a-z_]+\.[a-z0-9_]+)"\s*:\s*"([a-z_]+\.[a-z0-9_]+)"/g)) {
      asked.add(m[1]); asked.add(m[2]);
    }
  }
  const missing = [...asked].filter((k) => !(k in catalog));
  assert.deepEqual(missing, []);
  const unused = Object.keys(catalog).filter((k) => !asked.has(k) && !prefixes.some((p) => k.startsWith(p)));
  assert.deepEqual(unused, []);
  assert.ok(asked.size > 100);
});

test("every text of the catalog is a string or plural forms with `other`", () => {
  for (const [key, text] of Object.entries(catalog)) {
    if (typeof text === "string") continue;
    assert.equal(typeof text.other, "string", key);
    for (const form of Object.keys(text)) assert.ok(["zero", "one", "two", "few", "many", "other"].includes(form), key);
  }
});
