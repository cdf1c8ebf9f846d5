// The rules' and the cards' answers in one list, as the server's judgekit/rules/merge.py
// merge: each part's own order kept, best score first; a third entry of one section yields
// to the other part's best (yield_share), and the entry holding clearly more of the question
// leads the first places (near_tie, coverage_lead, lead_below, lead_places;
// card_question_lead when the question names a discipline or a clan; `described`: a
// described card, which no rule leads). `p`: the index's params.
import { SEP } from "./offline-words.js";

export function merge(direct, rules, cards, limit, p, aboutCards, described) {
  var share = p.yield_share;
  var leadBelow = aboutCards ? p.card_question_lead[0] : p.lead_below;
  var leadPlaces = aboutCards ? p.card_question_lead[1] : p.lead_places;
  var merged = direct.slice(), seen = new Map();
  function count(h) { var k = h.entry.doc + SEP + h.entry.section; seen.set(k, (seen.get(k) || 0) + 1); }
  function seenOf(h) { return seen.get(h.entry.doc + SEP + h.entry.section) || 0; }
  merged.forEach(count);
  var heads = [rules, cards], at = [0, 0];
  while (merged.length < limit && (at[0] < rules.length || at[1] < cards.length)) {
    var live = [0, 1].filter(function (k) { return at[k] < heads[k].length; });
    var pick = live[0];
    if (live.length === 2 && heads[1][at[1]].score > heads[0][at[0]].score) pick = 1;
    if (live.length === 2) {
      var other = 1 - pick, h = heads[pick][at[pick]], o = heads[other][at[other]];
      if (seenOf(h) >= 2 && seenOf(o) < 2 && o.score >= share * h.score) pick = other;
      else if (merged.length - direct.length < leadPlaces && o.score >= p.near_tie * h.score &&
               o.coverage >= h.coverage + p.coverage_lead && h.coverage < leadBelow &&
               !(described && other === 0)) pick = other;     // a described card: no rule leads it
    }
    var next = heads[pick][at[pick]];
    at[pick] += 1;
    merged.push(next);
    count(next);
  }
  return merged.slice(0, limit);
}

// the hits with their first `first` places for different answers: a card (not one the query
// names) tied exactly with a card before it, the same score and share of the query, or an
// entry (not a named one) of a section already among them, goes below them, the rest keeping
// their order (the server's card_ranking.siblings_later, DISTINCT_FIRST; an index saved
// before it: first 0, nothing moves)
export function siblingsLater(hits, first) {
  if (!first) return hits;
  var top = [], ties = new Set(), sections = new Set();
  for (var i = 0; i < hits.length && top.length < first; i++) {
    var h = hits[i];
    if (!h.direct) {
      var tie = h.score + SEP + h.coverage, section = h.entry.doc + SEP + h.entry.section;
      if (sections.has(section) || (h.entry.kind === "card" && ties.has(tie))) continue;
      sections.add(section);
      if (h.entry.kind === "card") ties.add(tie);
    }
    top.push(h);
  }
  var rest = hits.filter(function (h) { return top.indexOf(h) < 0; });
  return top.concat(rest);
}
