// The numbers of the offline search, as the server's judgekit/rules/numbers.py (and
// analysis.py's numbers_in, phrase_item, closeness) has them: the numbers a query asks
// ("91", "twenty-eight") and the entries of one part of the index that state them or a
// number near them. Each function takes the part (an OfflineIndex, static/offline-index.js)
// as its first argument: the index's methods and offline-query.js call them.
// Exports closeness, numberValue, numbersIn, phraseItem, statesNear, queryUnits, numberDocs.
import { decodeNumbers, own } from "./offline-words.js";

var DIGITS = /^[0-9]{1,6}$/;
var APOSTROPHES = /['\u2019]/g;     // a phrase's words are matched without them (phrase_item)

// 1 for the same number, falling to 0 when they differ by half the larger one
export function closeness(a, b) {
  if (a === b) return 1.0;
  var big = Math.max(Math.abs(a), Math.abs(b));
  return big ? Math.max(0.0, 1.0 - 2.0 * Math.abs(a - b) / big) : 0.0;
}

// the value of a word that is a whole number ("91", "ninety"), else null
export function numberValue(index, word) {
  var low = word.toLowerCase();
  if (DIGITS.test(low)) return parseFloat(low);
  return own.call(index.numberWords, low) ? index.numberWords[low] : null;
}

// [first token index, number of tokens, value] of each number `text` states ("twenty-eight")
export function numbersIn(index, text, tokens) {
  var out = [], i = 0;
  while (i < tokens.length) {
    var word = text.slice(tokens[i][1], tokens[i][2]);
    var value = numberValue(index, word);
    if (value === null) { i++; continue; }
    if (index.tens.has(word.toLowerCase()) && i + 1 < tokens.length) {
      var next = text.slice(tokens[i + 1][1], tokens[i + 1][2]).toLowerCase();
      var unit = index.tens.has(next) ? 0 : (numberValue(index, next) || 0);
      var between = text.slice(tokens[i][2], tokens[i + 1][1]);
      if (/^[a-z]+$/.test(next) && unit >= 1 && unit <= 9 &&
          (between === "-" || between === " " || between === "\u2011")) {
        out.push([i, 2, value + unit]);
        i += 2;
        continue;
      }
    }
    out.push([i, 1, value]);
    i++;
  }
  return out;
}

// a word in a synonym phrase: its value for a number ("2 cards" = "two cards"), else its stem
export function phraseItem(index, word, stem) {
  var value = numberValue(index, word);
  return value !== null ? String(Math.trunc(value)) : stem.replace(APOSTROPHES, "");
}

// the numbers the part's entries state, read when first asked: value -> [[docnum, Set(units)]]
function readNumbers(index) {
  if (!index.numbers) {
    var numbers = index.numbers = new Map();
    decodeNumbers(index.part.numbers).forEach(function (stated, docnum) {
      stated.forEach(function (n) {
        if (!numbers.has(n[0])) numbers.set(n[0], []);
        numbers.get(n[0]).push([docnum, new Set(n[1])]);
      });
    });
    index.numberValues = Array.from(numbers.keys()).sort(function (a, b) { return a - b; });
  }
}

// whether an entry of this part states `value` or a number near it (SearchIndex.states_near)
export function statesNear(index, value) {
  readNumbers(index);
  var near = index.params.number_near;
  return index.numberValues.some(function (stated) { return closeness(value, stated) >= near; });
}

// the words that say what a query's number counts (a capacity's, more or less), as Sets made
// once per part
function unitWords(index) {
  if (!index.unitWords) {
    var p = index.params;
    index.unitWords = { capacity: new Set(p.capacity_words), more: new Set(p.comparatives || []) };
  }
  return index.unitWords;
}

// the units a query's number counts: the stems of the words after it that are not numbers
// (`after`), the capacity's unit when one of them or the word before it (`before`, or
// null) says it is a vampire's capacity ("5 cap", "cap 5"), and a cost's unit for "pool" or
// "blood" ("the 2-pool master"), and the word before it for a number said to be more or less
// of something: numbers.py's query_units
export function queryUnits(index, after, before) {
  var p = index.params, units = new Set(after), known = unitWords(index), words = known.capacity;
  // a number said to be more or less of something ("bleed for one more"): the word before it
  // counts (numbers.py's COMPARATIVES; an index saved before it has none)
  var more = known.more;
  if (before !== null && before !== undefined && after.some(function (u) { return more.has(u); })) units.add(before);
  if (after.some(function (u) { return words.has(u); }) || words.has(before)) units.add(p.capacity);
  var costs = p.cost_units || {};     // (an index saved before costs were stated has none)
  Object.keys(costs).forEach(function (stem) { if (units.has(stem)) units.add(costs[stem]); });
  return units;
}

// entries stating `value` or a number near it: [Map(docnum -> closeness x unit), weight]; a
// place stating it only beside an entry's text (a capacity, a cost) counts only when the
// query's `units` count the same
export function numberDocs(index, value, units) {
  var p = index.params, out = new Map(), close = new Set(), beside = new Set(p.beside_units || [p.capacity]);
  readNumbers(index);
  index.numberValues.forEach(function (stated) {          // ascending, as the server looks
    var places = index.numbers.get(stated);
    var near = closeness(value, stated);
    if (near < p.number_near) return;
    places.forEach(function (place) {
      var doc = place[0], statedUnits = place[1];
      if (statedUnits.size && Array.from(statedUnits).every(function (u) { return beside.has(u) && !units.has(u); })) return;
      if (near >= p.number_exact) close.add(doc);
      var same = !units.size || !statedUnits.size ||
        Array.from(units).some(function (u) { return statedUnits.has(u); });
      var score = same ? near : near * p.unit_miss;
      if (score > (out.get(doc) || 0.0)) out.set(doc, score);
    });
  });
  if (out.size) return [out, Math.log(1 + index.nEntries / (1 + close.size))];
  // no entry here states it: as rare as can be if the other part does, else it counts little
  return [out, index.otherPart && statesNear(index.otherPart, value) ? Math.log(1 + index.nEntries) : 0.3];
}
