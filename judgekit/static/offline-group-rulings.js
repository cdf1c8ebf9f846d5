// The rulings of a described card's groups among the first answers, as the server's Search
// in judgekit/rules/group_rulings.py places them (group_ruling_after, second_group_ruling,
// asked_group_ruling, named_card_ruling, ruling_naming_another and their helpers): functions of the offline `search`
// (offline-search.js's Search: its cards part, params, card groups and rulings by section).

import { nameKey } from "./offline-names.js";
import { hasPhrase } from "./offline-scoring.js";

// the keys of the rulings of the card's groups, in the card page's order
export function groupRulings(search, card) {
  var rulings = search.rulingsBySection(), keys = [];
  (search.cardGroups[card.section] || []).forEach(function (gid) { keys = keys.concat(rulings.get(gid) || []); });
  return keys;
}

// the hits with the best group ruling of the first answers' cards among the first three
// (the server's group_ruling_after, GROUP_RULING_AFTER_CARD, GROUP_RULING_CARDS,
// GROUP_RULING_CARDS_ASKED); last: the question's last sentence (LAST_SENTENCE_SHARE), its
// groups made by groupsOf (default the cards part's)
export function groupRulingAfter(search, hits, groups, limit, asks, last, groupsOf) {
  if (!hits.length) return hits;
  var among = asks ? search.params.group_ruling_cards_asked || search.params.group_ruling_cards :
    search.params.group_ruling_cards;
  var withGroups = cardsWithGroups(search, hits, among);
  // the question's last sentence, what it asks (read only when needed; an index saved before
  // last_sentence_share ranks without it)
  var asked = !withGroups.length || !search.params.last_sentence_share ? null :
    asks ? (groupsOf || search.cards.groups.bind(search.cards))(last) : groups;
  var best = bestGroupRuling(search, withGroups, groups, search.params.ruling_inherits, asked);
  if (best === null) return hits;
  var key = best.key, share = best.share, at;
  // (a ruling holding nothing of the question never comes up)
  if (!share || hits.slice(0, 3).some(function (h) { return h.entry.key === key; })) return hits;
  // the first answer's card far ahead of the rest, and more asked than its description:
  // its group's ruling passes answers holding a little more of the question
  // (GROUP_RULING_LEAD, GROUP_RULING_NEAR)
  var p = search.params;
  // (the lead over the next card's answer: a rule's score is on another scale)
  var runner = null;
  for (var r = 1; r < hits.length && runner === null; r++) if (search.cards.byKey.has(hits[r].entry.key)) runner = hits[r];
  var sure = asks && best.place === 0 && runner !== null && hits[0].score >= p.group_ruling_lead * runner.score;
  // (the card second: group_ruling_near_later; an index saved before it: 1.0)
  var near = sure ? p.group_ruling_near :
    best.place === 1 ? (p.group_ruling_near_later === undefined ? 1.0 : p.group_ruling_near_later) : 1.0;
  function covers(h) { return share >= near * (h.coverage === undefined ? 1.0 : h.coverage); }
  if (best.place === 0 && hits.slice(1, 3).every(covers)) at = 1;
  else if (hits.length > 2 && (covers(hits[2]) || (asks && best.place === 0))) at = 2;   // (asked more: third)
  else return hits;
  hits = withRuling(search, hits, key, at, hits.length > at ? hits[at].score : hits[hits.length - 1].score, share, limit);
  return at === 1 ? secondGroupRuling(search, hits, groups, share, limit) : hits;
}

// the hits (the first a card, the second the ruling of its groups groupRulingAfter chose,
// holding `share` of the query) with the ruling of another of the card's groups holding the
// most of the whole query (by share alone) third, when it holds at
// least second_group_share of that share and as much as the third answer (the server's
// second_group_ruling, SECOND_GROUP_SHARE)
export function secondGroupRuling(search, hits, groups, share, limit) {
  if (hits.length < 3) return hits;
  var cards = search.cards, card = hits[0].entry, first = hits[1].entry;
  var keys = groupRulings(search, card).filter(function (k) { return cards.byKey.get(k).section !== first.section; });
  if (!keys.length) return hits;
  var second = bestGroupRuling(search, [{ place: 0, card: card, keys: keys }], groups, search.params.ruling_inherits);
  var third = hits[2].coverage === undefined ? 1.0 : hits[2].coverage;
  if (second.share < search.params.second_group_share * share || second.share < third ||
      hits.slice(0, 3).some(function (h) { return h.entry.key === second.key; })) return hits;
  return withRuling(search, hits, second.key, 2, hits[2].score, second.share, limit);
}

// the hits with the ruling of the first answer's groups that answers what the question asks
// beyond the card, second (or third), when that answer is a card the query names (the
// server's named_card_ruling, NAMED_RULING_SHARE and NAMED_RULING_THIRD; groups: the cards
// part's)
// the query's groups (a part's) that are neither a card's name (`names`: the name words
// found), a question word nor a number (group_rulings.other_words)
export function otherWords(groups, names) {
  return groups.filter(function (g) {
    return g.number === null && g.factor === 1.0 &&
      !g.words.split(/\s+/).every(function (w) { return names.has(nameKey(w)); });
  });
}

export function namedCardRuling(search, hits, text, found, groups, limit) {
  var cards = search.cards, share = search.params.named_ruling_share, third = search.params.named_ruling_third;
  if (share === undefined || third === undefined || !hits.length || !hits[0].direct || !cards.byKey.has(hits[0].entry.key) ||
      hits[0].entry.kind !== "card") return hits;
  var card = hits[0].entry, keys = groupRulings(search, card);
  if (!keys.length) return hits;
  // the question's words that are not the card's name nor in the card's own entry (question
  // words and numbers left out)
  var other = otherWords(groups, search.names.nameWords(text, found));
  var beyond = other.filter(function (g) { return !cards.holds(g, card.docnum); });
  if (!beyond.length) return restatingRuling(search, hits, card, keys, groups, other, limit);
  var shares = cards.shares(beyond, keys.map(function (k) { return cards.byKey.get(k).docnum; }), card.docnum, 0);
  var i = 0;
  for (var j = 1; j < keys.length; j++) if (shares[j] > shares[i]) i = j;
  // no ruling holds a word beyond the card ("throw": a player's word for play): as if none
  // were, unless a ruling is third already (another card's group's: the question describes
  // another card, this one named in passing)
  if (!shares[i] && !(hits.length >= 3 && hits[2].entry.kind === "ruling")) {
    return restatingRuling(search, hits, card, keys, groups, other, limit);
  }
  if (shares[i] < third || hits.slice(0, 3).some(function (h) { return h.entry.key === keys[i]; })) return hits;
  function coverage(h) { return h.coverage === undefined ? 1.0 : h.coverage; }
  // second when it holds more of that than the second answer holds of the question, else third
  var at;
  if (shares[i] >= share && (hits.length < 2 || shares[i] > coverage(hits[1]))) at = 1;
  else if (hits.length >= 3) at = 2;
  else return hits;
  return withRuling(search, hits, keys[i], at, hits.length > at ? hits[at].score : hits[hits.length - 1].score,
                    shares[i], limit);
}

// the hits (the first the card the query names, `keys` its groups' rulings) with the ruling
// holding the most of the question's `other` words (all in the card's own entry, or the others
// in none of its groups' rulings) and of its numbers third, unless the third answer is already
// a ruling of the card or of its groups (the server's restating_ruling, RESTATED_SHARE)
function restatingRuling(search, hits, card, keys, groups, other, limit) {
  var least = search.params.restated_share;
  if (least === undefined || !other.length || hits.length < 3) return hits;
  var said = new Set(other), cards = search.cards;
  var asked = groups.filter(function (g) { return g.factor === 1.0 && (g.number !== null || said.has(g)); });
  var shares = cards.shares(asked, keys.map(function (k) { return cards.byKey.get(k).docnum; }), card.docnum, 0);
  var i = 0;
  for (var j = 1; j < keys.length; j++) if (shares[j] > shares[i]) i = j;
  var third = hits[2].entry;
  if (shares[i] < least || hits.slice(0, 3).some(function (h) { return h.entry.key === keys[i]; }) ||
      keys.indexOf(third.key) >= 0 ||
      (third.kind === "ruling" && third.doc === card.doc && third.section === card.section)) return hits;
  return withRuling(search, hits, keys[i], 2, hits[2].score, shares[i], limit);
}

// whether the entry's body says these stems in a row (SearchIndex.says)
function says(index, entry, stems) {
  return stems.length > 0 && hasPhrase(index.stemPositions(entry, "body"), stems);
}

// the hits with the ruling of a card the query names that names another card the query names,
// after the named cards and third at the latest, when no such ruling is among the first three
// (the server's ruling_naming_another, RULING_NAMING_ANOTHER)
export function rulingNamingAnother(search, hits, found, groups, limit) {
  if (!search.params.ruling_naming_another) return hits;
  var cards = search.cards, seen = new Set(), named = [];
  found.forEach(function (h) {
    var key = "cards/" + h.id, e = cards.byKey.get(key);
    if (seen.has(key)) return;
    seen.add(key);
    if (e && e.kind === "card") named.push(e);
  });
  if (named.length < 2) return hits;
  // (a card's name as its rulings write it: OfflineIndex.nameStems, the server's name_stems)
  var names = new Map(named.map(function (c) { return [c.key, cards.nameStems(c)]; }));
  var rulings = search.rulingsBySection(), citing = [];
  named.forEach(function (card) {
    (rulings.get(card.section) || []).concat(groupRulings(search, card)).forEach(function (key) {
      var entry = cards.byKey.get(key);
      if (named.some(function (other) { return other !== card && says(cards, entry, names.get(other.key)); })) {
        citing.push([card, key]);
      }
    });
  });
  if (!citing.length) return hits;
  var top = hits.slice(0, 3).map(function (h) { return h.entry.key; });
  if (citing.some(function (c) { return top.indexOf(c[1]) >= 0; })) return hits;
  var at = hits.findIndex(function (h) { return !h.direct; });
  at = Math.min(2, at < 0 ? hits.length : at);
  if (at >= hits.length) return hits;
  var card = citing[0][0], key = citing[0][1];
  var share = cards.shares(groups, [cards.byKey.get(key).docnum], card.docnum, 0)[0];
  return withRuling(search, hits, key, at, hits[at].score, share, limit);
}

// the hits with the group ruling answering the question's last sentence third (the
// server's asked_group_ruling, ASKED_SHARE)
export function askedGroupRuling(search, hits, parts, limit, groupsOf) {
  if (!hits.length) return hits;
  if (parts.length < 2) return hits;
  var withGroups = cardsWithGroups(search, hits, undefined, true);
  var asked = withGroups.length ? (groupsOf || search.cards.groups.bind(search.cards))(parts[parts.length - 1]) : [];
  // (read only when needed)
  var best = asked.length ? bestGroupRuling(search, withGroups, asked, 0) : null;
  if (best === null || best.share < search.params.asked_share ||
      hits.slice(0, 3).some(function (h) { return h.entry.key === best.key; })) return hits;
  var at = Math.min(2, hits.length);
  return withRuling(search, hits, best.key, at, hits[at - 1].score, best.share, limit);
}

// the first answers that are cards the query does not name and that have groups:
// {place, card, keys: its groups' rulings}; a card's own ruling stands for its card (named:
// that of a card the query names too); among: how many first answers (default
// group_ruling_cards) (the server's cards_with_groups)
export function cardsWithGroups(search, hits, among, named) {
  var cards = search.cards, out = [];
  var names = named ? new Set() :
    new Set(hits.filter(function (h) { return h.direct; }).map(function (h) { return h.entry.key; }));
  hits.slice(0, among === undefined ? search.params.group_ruling_cards : among).forEach(function (h, place) {
    var card = h.entry;
    if (card.kind === "ruling") {
      card = cards.byKey.get(card.doc + "/" + card.section) || card;
      if (names.has(card.key)) return;
    }
    if (h.direct || card.kind !== "card" || !cards.byKey.has(card.key)) return;
    var keys = groupRulings(search, card);
    if (keys.length) out.push({ place: place, card: card, keys: keys });
  });
  return out;
}

// of these cards' group rulings, the one holding the most of the query's groups, and of its
// last sentence's groups `asked` at last_sentence_share when given (its own words only):
// {share (of groups), key, place}; ties go to the first card, then to the page's order
// (the server's best_group_ruling)
export function bestGroupRuling(search, withGroups, groups, inherit, asked) {
  var cards = search.cards, best = null, rankOfBest = null, w = search.params.last_sentence_share;
  withGroups.forEach(function (c) {
    var docnums = c.keys.map(function (k) { return cards.byKey.get(k).docnum; });
    var shares = cards.shares(groups, docnums, c.card.docnum, inherit), rank = shares;
    if (asked && asked.length && w !== undefined) {
      var own = cards.shares(asked, docnums, c.card.docnum, 0);
      rank = shares.map(function (a, k) { return a + w * own[k]; });
    }
    var i = 0;
    for (var j = 1; j < c.keys.length; j++) if (rank[j] > rank[i]) i = j;
    if (best === null || rank[i] > rankOfBest) {
      best = { share: shares[i], key: c.keys[i], place: c.place };
      rankOfBest = rank[i];
    }
  });
  return best;
}

// the hits with the cards' entry `key` at place `at`, out of wherever else it was
// (the server's with_ruling)
export function withRuling(search, hits, key, at, score, share, limit) {
  var entry = search.cards.byKey.get(key);
  var ruling = { entry: entry, score: score, snippet: "", url: entry.url, coverage: share };
  var rest = hits.filter(function (h) { return h.entry.key !== key; });
  return rest.slice(0, at).concat([ruling], rest.slice(at)).slice(0, limit);
}
