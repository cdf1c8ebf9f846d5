// A part's first step in ranking a question offline, as the server's judgekit/rules/scoring.py,
// phrases.py and covering.py have it: every entry holding some of the question scored (each
// word's BM25F weights, the numbers it states, the phrases it holds), the best of them picked,
// and beside them the entries holding the most of the question (`covering`); then the cards'
// factors of the re-ranking (a group's ruling, a card's own text). Each function takes the
// part (an OfflineIndex, static/offline-index.js) as its first argument: its `search` calls them.
// Exports candidates, groupRulingFactor, cardTextFactor, facetGroups, namedTypes, hasPhrase.

import { WORD, own } from "./offline-words.js";
import { sentences } from "./offline-query.js";

// whether the stems follow each other somewhere in these positions (stem -> [position])
export function hasPhrase(positions, stems) {
  var first = positions.get(stems[0]);
  if (!first) return false;
  var rest = stems.slice(1).map(function (s) { return new Set(positions.get(s) || []); });
  return first.some(function (p) {
    return rest.every(function (r, i) { return r.has(p + i + 1); });
  });
}

function entryIdf(index, df) {
  return Math.log(1 + (index.n - df + 0.5) / (df + 0.5));
}

function idf(index, field, term) {
  var plist = index.postingList(field, term);
  var df = plist ? plist.length : 0;
  return Math.log(1 + (index.n - df + 0.5) / (df + 0.5));
}

// a term's BM25F weight in each entry holding it, its fields summed (title, body, context):
// the part of its score that does not depend on the query (Postings.term_weights)
function termWeights(index, term) {
  var known = index.weightCache.get(term);
  if (known) return known;
  var k1 = index.params.k1, b = index.params.b, acc = new Map();
  Object.keys(index.boosts).forEach(function (field) {
    var plist = index.postingList(field, term);
    if (!plist) return;
    var fboost = index.boosts[field];
    // a sparse field (the questions) counts a term's rarity among all the entries
    var weight = index.sparse.has(field) ? entryIdf(index, index.dfOf(term)) : idf(index, field, term);
    var li = index.fields.indexOf(field), avg = index.avg[field], lengths = index.lengths, width = index.fields.length;
    plist.forEach(function (p) {
      var doc = p[0], tf = p[1];
      var norm = tf + k1 * (1 - b + b * lengths[doc * width + li] / avg);
      acc.set(doc, (acc.get(doc) || 0.0) + fboost * weight * tf * (k1 + 1) / norm);
    });
  });
  var out = Array.from(acc.entries());
  if (index.maxPostings && out.length > index.maxPostings) {
    // the entries where the term weighs most, in entry order (SearchIndex max_postings)
    out = out.slice().sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; }).slice(0, index.maxPostings);
    out.sort(function (a, b) { return a[0] - b[0]; });
    index.kept.set(term, new Set(out.map(function (dw) { return dw[0]; })));
  }
  index.weightCache.set(term, out);
  return out;
}

// the entries holding `term` in `field` that a phrase is looked for in
function phraseCandidates(index, field, term) {
  var plist = index.postingList(field, term) || [];
  termWeights(index, term);                               // decides what a truncated term keeps
  var kept = index.kept.get(term);
  return kept ? plist.filter(function (p) { return kept.has(p[0]); }) : plist;
}

// [[docnum, score]]: the best scored entries, then those covering most of the question
export function candidates(index, groups, text, groupDocs) {
  var scores = new Map(), question = new Set(), p = index.params;
  groups.forEach(function (g, gi) {
    if (g.number !== null) {
      groupDocs[gi].forEach(function (near, doc) {
        scores.set(doc, (scores.get(doc) || 0) + p.number_boost * g.weight * near);
      });
      return;
    }
    if (g.factor !== 1.0) {
      g.alts.forEach(function (pair) { if (pair[0].length === 1) question.add(pair[0][0]); });
    }
    g.alts.forEach(function (pair) {
      if (pair[0].length !== 1) return;
      termWeights(index, pair[0][0]).forEach(function (dw) {
        scores.set(dw[0], (scores.get(dw[0]) || 0) + pair[1] * g.factor * dw[1]);
      });
    });
  });
  var phrases = [];
  groups.forEach(function (g) {
    g.alts.forEach(function (pair) { if (pair[0].length > 1) phrases.push(pair); });
  });
  var stems = index.tokenize(text).map(function (t) { return t[0]; });
  var chosen = new Set();                                 // a long question's chosen words
  groups.forEach(function (g) { g.alts.forEach(function (pair) { pair[0].forEach(function (st) { chosen.add(st); }); }); });
  for (var i = 0; i + 1 < stems.length; i++) {
    if (stems[i] !== stems[i + 1] && chosen.has(stems[i]) && chosen.has(stems[i + 1])) {
      var asked = question.has(stems[i]) || question.has(stems[i + 1]);
      phrases.push([[stems[i], stems[i + 1]], 0.6 * (asked ? p.question_factor : 1.0)]);
    }
  }
  var titleBoost = index.boosts.title;
  phrases.forEach(function (pair) {
    var alt = pair[0], boost = pair[1];
    if (!alt.every(function (a) { return index.vocab.has(a); })) return;
    var rarest = alt[0];
    alt.forEach(function (a) { if (index.dfOf(a) < index.dfOf(rarest)) rarest = a; });
    var weight = alt.reduce(function (sum, a) { return sum + idf(index, "body", a); }, 0);
    phraseCandidates(index, "body", rarest).forEach(function (p) {
      if (hasPhrase(index.stemPositions(index.entries[p[0]], "body"), alt)) scores.set(p[0], (scores.get(p[0]) || 0) + boost * weight);
    });
    phraseCandidates(index, "title", rarest).forEach(function (p) {
      if (hasPhrase(index.stemPositions(index.entries[p[0]], "title"), alt)) {
        scores.set(p[0], (scores.get(p[0]) || 0) + boost * weight * titleBoost);
      }
    });
  });
  var best = Array.from(scores.entries());
  best.sort(function (a, b) { return b[1] - a[1]; });    // stable, like Python's sorted
  best = best.slice(0, index.params.candidates);
  var picked = new Set(best.map(function (dw) { return dw[0]; }));
  covering(index, groups, groupDocs, firstSentenceGroups(index, groups, text)).forEach(function (d) {
    if (!picked.has(d)) best.push([d, scores.get(d) || 0.0]);
  });
  return best;
}

// the query's groups (their places) made of the words of its first sentence, when it has
// several and the part looks through them (SearchIndex._first_sentence_groups)
function firstSentenceGroups(index, groups, text) {
  if (!index.firstSentence) return [];
  var parts = sentences(text, index.params.question_after_colon);
  if (parts.length < 2) return [];
  var words = new Set((parts[0].match(WORD) || []).map(function (w) { return w.toLowerCase(); }));
  var out = [];
  groups.forEach(function (g, i) {
    if (g.words.toLowerCase().split(" ").every(function (w) { return words.has(w); })) out.push(i);
  });
  return out;
}

// the entries holding the most of the question among those holding one of its rarest
// words (SearchIndex._covering): a long card text holding a whole described effect; and
// among those holding one of the first sentence's rarest words (`first`)
function covering(index, groups, groupDocs, first) {
  var p = index.params;
  function rarest(among) {
    var words = [];
    among.forEach(function (i) {
      if (groups[i].number === null && groups[i].factor === 1.0 && groupDocs[i].size >= p.rare_min_docs) words.push(i);
    });
    words.sort(function (a, b) { return groups[b].weight - groups[a].weight || a - b; });
    return words.slice(0, p.rare_groups);
  }
  function poolOf(words) {
    var held = new Map();
    words.forEach(function (i) {
      if (groupDocs[i].size <= p.rare_docs) groupDocs[i].forEach(function (d) { held.set(d, 0.0); });
    });
    return held;
  }
  var words = rarest(groups.map(function (g, i) { return i; }));
  var out = mostHeld(poolOf(words), groups, groupDocs, p.covering);
  // the first sentence's rarest words that are not the question's (those are looked through above)
  var more = rarest(first).filter(function (i) { return words.indexOf(i) < 0; });
  if (more.length) {
    var found = new Set(out);
    mostHeld(poolOf(more), groups, groupDocs, p.first_covering).forEach(function (d) { if (!found.has(d)) out.push(d); });
  }
  // and the entries holding every discipline and clan the question names (the cards)
  var facets = facetGroups(index, groups);
  if (facets.length) {
    var among = new Map();
    groupDocs[facets[0]].forEach(function (d) {
      if (facets.every(function (i) { return groupDocs[i].has(d); })) among.set(d, 0.0);
    });
    var seen = new Set(out);
    mostHeld(among, groups, groupDocs, p.facet_covering).forEach(function (d) { if (!seen.has(d)) out.push(d); });
  }
  // and, when it names several, those holding each one (the card told of may not hold them all)
  if (facets.length > 1 && p.each_facet_covering) {
    facets.forEach(function (i) {
      var holding = new Map(), taken = new Set(out);
      groupDocs[i].forEach(function (d) { holding.set(d, 0.0); });
      mostHeld(holding, groups, groupDocs, p.each_facet_covering).forEach(function (d) {
        if (!taken.has(d)) { out.push(d); taken.add(d); }
      });
    });
  }
  return out;
}

// the `n` entries of `held` (docnum -> 0) holding the most of the question's weight, most
// first, ties by entry order (covering.most_held)
function mostHeld(held, groups, groupDocs, n) {
  if (!held.size) return [];
  groups.forEach(function (g, gi) {
    if (g.number !== null) return;
    held.forEach(function (w, d) { if (groupDocs[gi].has(d)) held.set(d, w + g.weight); });
  });
  var out = Array.from(held.entries());
  out.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
  return out.slice(0, n).map(function (dw) { return dw[0]; });
}

// a card group's ruling: group_weight, times group_factor as far as only its title (the
// group's name) holds the query, 1 as far as its own text does (CardFactors.group_ruling_factor)
export function groupRulingFactor(index, groups, doc, covered) {
  if (!covered) return index.groupWeight * index.groupFactor;
  return index.groupWeight * (index.groupFactor + (1.0 - index.groupFactor) * heldIn(index, groups, doc, "body") / covered);
}

// the query's groups that name a discipline or a clan: one of their alternatives is one of
// the index's facet stems ("aus" -> auspex) (CardFactors.facet_groups)
export function facetGroups(index, groups) {
  var out = [];
  groups.forEach(function (g, gi) {
    if (g.number !== null) return;
    var named = false;              // g.alts: a Map, stems key -> [stems, boost]
    g.alts.forEach(function (pair) { if (pair[0].length === 1 && index.facetStems.has(pair[0][0])) named = true; });
    if (named) out.push(gi);
  });
  return out;
}

// the card types the query's words name: an alternative of one stem that is a card type's
// word's ("reactions" -> Reaction; "location" -> Master, Equipment) (CardFactors.named_types)
export function namedTypes(index, groups) {
  var out = new Set();
  groups.forEach(function (g) {
    if (g.number !== null) return;
    g.alts.forEach(function (pair) {
      if (pair[0].length === 1 && own.call(index.typeStems, pair[0][0])) {
        // (an index saved before kinds of several types has one type, not a list)
        [].concat(index.typeStems[pair[0][0]]).forEach(function (kind) { out.add(kind); });
      }
    });
  });
  return Array.from(out);
}

// a card's own entry: text_factor, unless its name holds every word it matches
// (SearchIndex._card_text_factor)
export function cardTextFactor(index, groups, doc, covered) {
  return covered && heldIn(index, groups, doc, "title") >= covered ? 1.0 : index.textFactor;
}

// a card's own entry when the question asks for a plain card: (the median card text's
// length / its own) ** plain_power, between 1 / plain_cap and plain_cap, lengths in the
// body's indexed words (CardFactors.plain_factor)
export function plainFactor(index, doc) {
  var length = index.lengths[doc * index.fields.length + index.bodyField];
  var factor = Math.pow(index.plainLength / Math.max(length, 1), index.plainPower);
  return Math.min(index.plainCap, Math.max(1.0 / index.plainCap, factor));
}

// the query weight the entry `doc` holds in one field, summed in the groups' order
// (CardFactors._held)
function heldIn(index, groups, doc, field) {
  var held = 0.0;
  groups.forEach(function (g) {
    if (g.number !== null) return;
    var found = Array.from(g.alts.values()).some(function (pair) {
      return pair[0].every(function (st) { return index.fieldDocs(field, st).has(doc); });
    });
    if (found) held += g.weight;
  });
  return held;
}
