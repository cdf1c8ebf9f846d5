// A query as one part of the offline index reads it, as the server's judgekit/rules/query.py
// (and rules/query_groups.py, a part's groups) has it: its checks (`checkQuery`), a section number typed as
// such (`SECTION_QUERY`, `sectionsNamed`), and its groups: one per word or synonym phrase, with
// what each may match (its synonyms, the longer words it begins, one-typo words) and its
// weight, or a number with the entries stating it. Each function but checkQuery takes the
// part (an OfflineIndex, static/offline-index.js) as its first argument: its methods call them.
// Exports SECTION_QUERY, checkQuery, spellOutDisciplines, withoutAddress, withoutNameAsked, withoutRuledOut, withOneBlood, withNumbersApart, withWhatIf,
// sectionsNamed, queryGroups, docsOfGroup.
import { t } from "./i18n.js";
import { WORD, SEP, own, withinOneEdit } from "./offline-words.js";
import { numberValue, numbersIn, phraseItem, queryUnits, numberDocs } from "./offline-numbers.js";

// words joined by "/", "+" or "&" ("for/pre", "Aus/Cel/For", "obf+pre"), after what comes before them (as
// judgekit/rules/query.py SLASH_LIST; no look-behind, which old phones lack)
var SLASH_LIST = /(^|[^A-Za-z0-9_])([A-Za-z]+(?:[\/+&][A-Za-z]+)+)(?![A-Za-z0-9_])/g;

export const SECTION_QUERY = /^\s*(?:(?:section|sect|sec|rule|rules|§|appendix)\s*)?((?:\d+|[A-Ba-b])(?:\.\d+)*)\.?\s*$/i;
var SLUG = /^[a-z]+(?:-[a-z]+)+$/;
var ALPHA = /^\p{L}+$/u;

export function checkQuery(text, params) {
  text = (text || "").trim();
  if (!text) throw new Error(t("search.empty_query"));
  if (text.length > params.max_query) {
    throw new Error(t("search.long_query", {length: text.length, max: params.max_query}));
  }
  return text;
}

// the query with each list of disciplines written with slashes (or "+", "&") spelt out
// ("for/pre mod" -> "fortitude/presence mod"; spellings: code or short name -> name), as
// the server's spell_out_disciplines; any other list ("pred/prey", "R&D") is left as typed
export function spellOutDisciplines(text, spellings) {
  if (!/[\/+&]/.test(text)) return text;
  return text.replace(SLASH_LIST, function (m, before, list) {
    var items = list.toLowerCase().split(/([\/+&])/);     // words, with the separators between
    if (!items.every(function (w, k) { return k % 2 === 1 || own.call(spellings, w); })) return m;
    return before + items.map(function (w, k) { return k % 2 === 1 ? w : spellings[w]; }).join("");
  });
}

// the sections a query names by their number ("3.7.2", "section 4") or their slug
export function sectionsNamed(index, text) {
  var m = SECTION_QUERY.exec(text);
  if (m) return (index.byNumber.get(m[1].toLowerCase()) || []).slice();
  var slug = text.trim().toLowerCase();
  if (SLUG.test(slug)) return (index.byNumber.get(slug) || []).slice();
  return [];
}

// whether a stem of at least `least` letters is a word no part of the index knows, so
// possibly a typo (QueryGroups._unknown)
function unknown(index, stem, least) {
  return stem.length >= least && !index.vocab.has(stem) && !(index.knownWords && index.knownWords.has(stem)) &&
    ALPHA.test(stem);
}

// the words of `words` (those of the stem's first letter) one typo away from it, sorted as
// the server lists them (query_groups.one_typo_away)
function oneTypoAway(stem, words) {
  return (words || []).filter(function (w) {
    return Math.abs(w.length - stem.length) <= 1 && withinOneEdit(stem, w);
  }).sort();
}

function typos(index, stem) {
  if (index.typoCache.has(stem)) return index.typoCache.get(stem);
  var out = unknown(index, stem, 4) ? oneTypoAway(stem, index.byFirst.get(stem.charAt(0))) : [];
  index.typoCache.set(stem, out);
  return out;
}

// the synonym table's one-word keys of params.mistyped_min letters or more one typo away
// from a stem no part knows, of as many letters, sorted (QueryGroups._synonym_typos)
function synonymTypos(index, stem) {
  if (index.synonymTypoCache.has(stem)) return index.synonymTypoCache.get(stem);
  var least = index.params.mistyped_min, out = [];
  if (unknown(index, stem, least)) {
    out = oneTypoAway(stem, (index.synonymWords.get(stem.charAt(0)) || []).filter(function (w) {
      return w.length >= least && ALPHA.test(w);
    }));
  }
  index.synonymTypoCache.set(stem, out);
  return out;
}

// the indexed stems of the typed word (lower case) with one of its doubled letters typed once
// ("ratting" -> "rate"), when no part knows its stem and it has fewer than four letters,
// stems of three letters or more, sorted (QueryGroups._undoubled)
function undoubled(index, word, stem) {
  if (stem.length >= 4 || !unknown(index, stem, 0)) return [];
  var key = word + SEP + stem;
  if (index.undoubledCache.has(key)) return index.undoubledCache.get(key);
  var spellings = [];
  for (var i = 0; i < word.length - 1; i++) {
    if (word.charAt(i) === word.charAt(i + 1) && ALPHA.test(word.charAt(i))) spellings.push(word.slice(0, i) + word.slice(i + 1));
  }
  var out = respelt(index, spellings, stem);
  index.undoubledCache.set(key, out);
  return out;
}

// the stems of these spellings of a typed word that the part holds, of three letters or
// more, other than `stem`, sorted (QueryGroups._respelt)
function respelt(index, spellings, stem) {
  var out = [];
  spellings.forEach(function (spelling) {
    var st = index.stem(spelling);
    if (st !== null && st.length >= 3 && st !== stem && index.vocab.has(st) && out.indexOf(st) < 0) out.push(st);
  });
  return out.sort();
}

// the stems of the disciplines' names (params.discipline_names) one typo from the typed word
// (lower case) that the part holds, when no part knows its stem (four letters or more):
// "necromacy" -> "necrom" (QueryGroups._misspelt_discipline; an index saved before it has
// no names)
function misspeltDiscipline(index, word, stem) {
  var names = index.params.discipline_names || [];
  if (!names.length || word.length < index.params.discipline_min - 1 || !ALPHA.test(word) || !unknown(index, stem, 4)) return [];
  return respelt(index, names.filter(function (name) { return name !== word && withinOneEdit(word, name); }), stem);
}

// the indexed stems of the typed word (lower case) with its ending one typo from one of
// the misendings (params.misendings: "ing", "ment"…) written right ("votng" -> "vote",
// "equipmnt" -> "equip"), when no part knows its stem (four letters or more), the word does
// not end in one of them and three letters at least are left before the ending, stems of
// three letters or more, sorted (QueryGroups._misended)
function misended(index, word, stem) {
  var ends = index.params.misendings || [index.params.ing];    // an index saved before: "ing"
  if (!unknown(index, stem, 4) || !ALPHA.test(word) ||
      ends.some(function (end) { return word.endsWith(end); })) return [];
  var key = word + SEP + stem;
  if (index.misendedCache.has(key)) return index.misendedCache.get(key);
  var spellings = [];
  ends.forEach(function (end) {
    for (var k = end.length - 1; k <= end.length + 1; k++) {
      var tail = word.slice(-k);
      if (word.length - k >= 3 && tail !== end && withinOneEdit(tail, end)) spellings.push(word.slice(0, -k) + end);
    }
  });
  var out = respelt(index, spellings, stem);
  index.misendedCache.set(key, out);
  return out;
}

// a stem the index does not know that is a question word mistyped ("realy" for "really"):
// one typo away from a question word, both of at least params.mistyped_min letters (the
// server's QueryGroups._mistyped_question, rules/query_groups.py)
function mistypedQuestion(index, stem) {
  var least = index.params.mistyped_min;
  if (!unknown(index, stem, least)) return false;
  if (index.mistypedCache.has(stem)) return index.mistypedCache.get(stem);
  var found = false;
  index.question.forEach(function (q) { if (!found && q.length >= least && withinOneEdit(stem, q)) found = true; });
  index.mistypedCache.set(stem, found);
  return found;
}

// the longest synonym phrase starting at items[i] once the possessives and the one-word
// numbers after it are left out (params.possessives: "refill his hand" is "refill hand";
// `numbers`: token index -> [width, value], "hits 1 harder" is "hit harder"): [the items it
// spans, the places of its own], [1, null] when there is none (the server's
// QueryGroups._phrase_past_possessives, rules/query_groups.py)
function phrasePastPossessives(index, items, i, numbers) {
  var possessives = index.params.possessives || [];
  var places = [i];
  for (var k = i + 1; k < items.length && places.length < index.maxPhrase; k++) {
    if (possessives.indexOf(items[k]) < 0 && !(numbers.has(k) && numbers.get(k)[0] === 1)) places.push(k);
  }
  for (var size = places.length; size > 1; size--) {
    var last = places[size - 1];
    if (last - i + 1 === size) continue;   // no possessive inside: the plain phrase, tried before
    var key = places.slice(0, size).map(function (p) { return items[p]; }).join(SEP);
    if (index.synonyms.has(key)) return [last - i + 1, places.slice(0, size)];
  }
  return [1, null];
}

function extensions(index, stem) {
  if (index.extCache.has(stem)) return index.extCache.get(stem);
  var out = [];
  if (stem.length >= 4 && ALPHA.test(stem)) {
    // a word is extended by an ending only (params.endings: "player", not "stealth" for
    // "steal"), and a word no part knows is cut only by one ("diablerist" -> "diabler",
    // not "script" -> "scri"), as the server's QueryGroups._extensions
    var strange = unknown(index, stem, 0), endings = index.endings;
    out = (index.byFirst.get(stem.charAt(0)) || []).filter(function (w) {
      return (stem.length < w.length && w.indexOf(stem) === 0 && endings.has(w.slice(stem.length))) ||
        (4 <= w.length && w.length < stem.length && stem.length <= w.length + 3 && stem.indexOf(w) === 0 &&
         (!strange || endings.has(stem.slice(w.length))));
    }).sort();
    // a word the rules know extends only to words they know too (QueryGroups._extensions, rules/query_groups.py)
    var known = index.knownWords;
    if (known && known.has(stem)) out = out.filter(function (w) { return known.has(w); });
  }
  index.extCache.set(stem, out);
  return out;
}

// a question's sentences: they end after ".", "?", "!" or ";", at a dash between words, or
// after a colon that one of `afterColon` follows (the index's question_after_colon: an index
// saved before it splits at no colon) (the server's judgekit.rules.query.sentences,
// SENTENCE_BREAK, QUESTION_AFTER_COLON, SPACE, without a look-behind: older phones' Safari
// lacks it; the colon first, as its look-ahead reads the spaces the others replace)
var SPACE = "[ \\t\\n\\r\\f\\v\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
var END_MARK = new RegExp("([.?!;])" + SPACE + "+", "g");
var DASH = new RegExp(SPACE + "+-+" + SPACE + "+", "g");
var colonBreaks = new Map();    // the question words -> their colon's pattern

export function sentences(text, afterColon) {
  var out = text.trim();
  if (afterColon && afterColon.length) {
    var key = afterColon.join("|"), colon = colonBreaks.get(key);
    if (!colon) {
      colon = new RegExp(":" + SPACE + "+(?=(?:" + key + ")" + SPACE + ")", "gi");
      colonBreaks.set(key, colon);
    }
    out = out.replace(colon, ":\u0000");
  }
  return out.replace(END_MARK, "$1\u0000").replace(DASH, "\u0000").split("\u0000")
    .filter(function (part) { return part.trim() !== ""; });
}

// a call to the judge that opens a question ("Judge!", "judge,", "Call:", "hey judge -"): it
// names nothing (the server's judgekit.rules.query ADDRESS and without_address); the whole
// text when nothing else is left
var ADDRESS = /^\s*(?:(?:hey|hi)\s+)?(?:judge\s*(?:[!:,.;?]+|\s-+)|call\s*(?:[!:]+|\s-+))\s*/i;

export function withoutAddress(text) {
  var rest = text.replace(ADDRESS, "");
  return rest.trim() ? rest : text;
}

// a pattern the server ships in the params (`source`), compiled once with `flags`
var shippedPatterns = new Map();   // pattern and flags -> its RegExp

function shippedPattern(source, flags) {
  var pattern = shippedPatterns.get(flags + "/" + source);
  if (!pattern) {
    pattern = new RegExp(source, flags);
    shippedPatterns.set(flags + "/" + source, pattern);
  }
  return pattern;
}

// the text without what a shipped pattern matches (an index saved before it leaves the text
// as typed), each match put back as `keep` gives it; the whole text when nothing but
// separators (params.ask_separators) is left
function withoutShipped(text, params, source, flags, keep) {
  if (!source) return text;
  var rest = text.replace(shippedPattern(source, flags), keep);
  for (var i = 0; i < rest.length; i++) if (params.ask_separators.indexOf(rest.charAt(i)) < 0) return rest;
  return text;
}

// a question's closing ask for a card's name ("…, whats it called", "forgot the name",
// "name?"): it describes nothing. The server's pattern (params.name_asked: judgekit.rules.query
// NAME_ASKED, without_name_asked); the separator before the ask is kept
export function withoutNameAsked(text, params) {
  return withoutShipped(text, params, params && params.name_asked, "i",
                        function (m, before, mark, sentenceMark) { return before || mark || sentenceMark || ""; });
}

// the question without the clauses that rule out another card ("…? not the grenade"), for
// the cards' part: the server's pattern (params.ruled_out: judgekit.rules.query RULED_OUT,
// without_ruled_out), every clause
export function withoutRuledOut(text, params) {
  return withoutShipped(text, params, params && params.ruled_out, "gi",
                        function (m, before, space) { return (before || "") + (space || ""); });
}

// the question with "a blood" read as "1 blood" ("paid a blood for a strike"): the server's
// pattern, made of its cards' names (params.one_blood: judgekit.rules.query one_blood_pattern,
// Search.one_blood, with_one_blood); an index saved
// before it leaves the text as typed
export function withOneBlood(text, params) {
  var source = params && params.one_blood;
  return source ? text.replace(shippedPattern(source, "gi"), "1$1$2") : text;
}

// the question with each number typed against its word set apart ("2pool master" -> "2 pool
// master"): the server's pattern (params.number_glued: judgekit.rules.query NUMBER_GLUED,
// with_numbers_apart); an index saved before it leaves the text as typed
export function withNumbersApart(text, params) {
  var source = params && params.number_glued;
  return source ? text.replace(shippedPattern(source, "g"), "$1$2 $3") : text;
}

// the question with each "what-if" (hyphenated, or "a what if") written as one word, a
// hypothetical: the server's pattern (params.what_if: judgekit.rules.query WHAT_IF,
// with_what_if); an index saved before it leaves the text as typed
export function withWhatIf(text, params) {
  var source = params && params.what_if;
  return source ? text.replace(shippedPattern(source, "gi"), "$2what$1$3") : text;
}

// whether the question asks for a plain card ("the master that just destroys a location"),
// a "just" of time taken out first ("I just burned the Edge"): the server's patterns
// (params.plain_asked, params.just_now: judgekit.rules.query PLAIN_ASKED, JUST_NOW,
// asks_plain); an index saved before them asks for none
export function asksPlain(text, params) {
  var source = params && params.plain_asked;
  if (!source) return false;
  var rest = params.just_now ? text.replace(shippedPattern(params.just_now, "gi"), " ") : text;
  return shippedPattern(source, "i").test(rest);
}

// one group per query word, or per synonym phrase; alts: Map(joined stems -> [stems, boost])
export function queryGroups(index, text) {
  var groups = [], m;
  var words = [];
  WORD.lastIndex = 0;
  while ((m = WORD.exec(text)) !== null) words.push([m[0], index.stem(m[0])]);
  function setDefault(alts, stems, boost) {
    var k = stems.join(SEP);
    if (!alts.has(k)) alts.set(k, [stems, boost]);
  }
  words.forEach(function (w) {
    index.caseSensitive.forEach(function (cs) {
      if (w[0].toLowerCase() === cs.word && w[0] === cs.typed) {
        var alts = new Map();
        cs.alts.forEach(function (a) { alts.set(a.join(SEP), [a, cs.boost]); });
        groups.push({ words: w[0], alts: alts, weight: 1.0, factor: 1.0, number: null });
      }
    });
  });
  var tokens = index.tokenize(text);
  var seq = tokens.map(function (t) { return [text.slice(t[1], t[2]), t[0]]; });
  // (a word whose stem is a code that expands only as typed, "any" for "ani": the word itself)
  var items = seq.map(function (w) {
    var low = w[0].toLowerCase();
    return index.typedAsIs.has(w[1]) && low !== w[1] ? low : phraseItem(index, w[0], w[1]);
  });
  var numbers = new Map();                                // token index -> [width, value]
  numbersIn(index, text, tokens).forEach(function (n) { numbers.set(n[0], [n[1], n[2]]); });
  // the group of the number starting at token k ("91", "twenty-eight"), matched against the
  // numbers entries state (QueryGroups._number_group)
  function numberGroup(k) {
    var width = numbers.get(k)[0], value = numbers.get(k)[1], after = [];
    seq.slice(k + width, k + width + 2).forEach(function (w) { if (numberValue(index, w[0]) === null) after.push(w[1]); });
    var units = queryUnits(index, after, k ? seq[k - 1][1] : null);
    var found = numberDocs(index, value, units), numAlts = new Map();
    setDefault(numAlts, seq.slice(k, k + width).map(function (w) { return w[1]; }), 1.0);
    return { words: seq.slice(k, k + width).map(function (w) { return w[0]; }).join(" "),
             alts: numAlts, weight: found[1], factor: 1.0, number: value, near: found[0] };
  }
  var i = 0;
  while (i < seq.length) {
    var n = 1, phrase = null;
    for (var k = Math.min(index.maxPhrase, seq.length - i); k > 1; k--) {
      if (index.synonyms.has(items.slice(i, i + k).join(SEP))) { n = k; break; }
    }
    if (n === 1) {
      // a phrase with a possessive or a number inside ("refill his hand": "refill hand";
      // "hits 1 harder": "hit harder", and the number)
      var past = phrasePastPossessives(index, items, i, numbers);
      n = past[0]; phrase = past[1];
    }
    if (n === 1 && numbers.has(i)) {
      groups.push(numberGroup(i));
      i += numbers.get(i)[0];
      continue;
    }
    var span = [];
    for (var p = i; p < i + n; p++) if (phrase === null || phrase.indexOf(p) >= 0) span.push(p);
    var key = span.map(function (p) { return seq[p][1]; });
    var typed = seq.slice(i, i + n).map(function (w) { return w[0]; }).join(" ");
    var alts = new Map();
    setDefault(alts, key, 1.0);
    var synonyms = index.synonyms.get(span.map(function (p) { return items[p]; }).join(SEP)) || [];
    synonyms.forEach(function (alt) { setDefault(alts, alt, 0.8); });
    if (n === 1) {
      extensions(index, key[0]).forEach(function (longer) { setDefault(alts, [longer], 0.4); });
    }
    // a word of the synonym table is no misspelt word (QueryGroups._word_group)
    if (n === 1 && !synonyms.length) {
      // a mistyped ending explains the word as typed: the stem's typos are then other words
      var ending = misended(index, typed.toLowerCase(), key[0]);
      (ending.length ? ending : typos(index, key[0])).forEach(function (typo) {
        setDefault(alts, [typo], 0.6);
        (index.synonyms.get(typo) || []).forEach(function (alt) { setDefault(alts, alt, 0.5); });
      });
      undoubled(index, typed.toLowerCase(), key[0]).concat(misspeltDiscipline(index, typed.toLowerCase(), key[0]))
        .forEach(function (typo) { setDefault(alts, [typo], 0.6); });
      // a word of the synonym table mistyped: what that word stands for
      synonymTypos(index, key[0]).forEach(function (typo) {
        index.synonyms.get(typo).forEach(function (alt) { setDefault(alts, alt, 0.5); });
      });
    }
    var rarest = 0;
    alts.forEach(function (pair) {
      var stems = pair[0];
      if (!stems.every(function (s) { return index.vocab.has(s); })) return;
      var least = Math.min.apply(null, stems.map(function (s) { return index.dfOf(s); }));
      rarest = Math.max(rarest, least);
    });
    var factor = n === 1 && (index.question.has(key[0]) || mistypedQuestion(index, key[0]))
      ? index.params.question_factor : 1.0;
    // a word this part lacks but the other part knows is as rare as can be (QueryGroups._rarity)
    var other = index.otherWords, elsewhere = false;
    if (!rarest && other) alts.forEach(function (pair) { if (pair[0].some(function (st) { return other.has(st); })) elsewhere = true; });
    var weight = (rarest ? Math.log(1 + index.nEntries / (1 + rarest))
                  : elsewhere ? Math.log(1 + index.nEntries) : 0.3) * factor;
    groups.push({ words: typed, alts: alts, weight: weight, factor: factor, number: null });
    if (phrase !== null) {
      for (var q = i; q < i + n; q++) if (numbers.has(q) && phrase.indexOf(q) < 0) groups.push(numberGroup(q));
    }
    i += n;
  }
  var most = index.params.max_groups;
  if (groups.length > most) {
    // a long question: its most informative words, each once, in their order (ties: the first)
    var firstOf = new Map();
    groups.forEach(function (g, k) { var w = g.words.toLowerCase(); if (!firstOf.has(w)) firstOf.set(w, k); });
    var order = Array.from(firstOf.values());
    order.sort(function (a, b) { return groups[b].weight - groups[a].weight || a - b; });
    // … and past them each word at least `informative` (QueryGroups._groups), up to `max_informative`
    var kept = new Set(order.slice(0, most));
    order.slice(most, index.params.max_informative).forEach(function (k) {
      if (groups[k].weight >= index.params.informative) kept.add(k);
    });
    groups = groups.filter(function (g, k) { return kept.has(k); });
  }
  return groups;
}

// the entries holding a group: a number's (docnum -> closeness), else those holding one of its
// alternatives (every stem of a phrase)
export function docsOfGroup(index, g) {
  if (g.number !== null) return g.near;
  var docs = new Set();
  g.alts.forEach(function (pair) {
    var alt = pair[0];
    var found = index.termDocs(alt[0]);
    for (var j = 1; j < alt.length; j++) {
      var other = index.termDocs(alt[j]);
      found = new Set(Array.from(found).filter(function (d) { return other.has(d); }));
    }
    found.forEach(function (d) { docs.add(d); });
  });
  return docs;
}
