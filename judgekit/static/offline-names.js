// The card names in a query, found on this device as the server's judgekit/cards/names.py
// finds them (the table the offline index carries: names, initials, short forms, the words
// that describe a card by its type), and a card described instead of named, read as
// judgekit/cards/descriptions.py reads it, for static/offline-search.js.
// Exports nameKey (a name's look-up key), CardNames (the table and its look-ups).
import { own, withinOneEdit } from "./offline-words.js";

var SPLIT = /[\s,;:!?/()\[\]{}"“”«»]+/;
var TRANSLIT = { "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
  "ß": "ss", "đ": "d", "Đ": "D", "ı": "i", "þ": "th", "ð": "d", "’": "'", "‘": "'",
  "“": "\"", "”": "\"", "—": "-", "–": "-", "™": "", "®": "", "©": "" };

// a card name's look-up key: letters and digits, lower case, no accents (game/cards.py name_key)
export function nameKey(text) {
  if (text.indexOf("&") >= 0) text = text.replace(/&/g, " and ");
  text = text.replace(/[łŁøØæÆœŒßđĐıþð’‘“”—–™®©]/g, function (c) { return TRANSLIT[c]; });
  text = text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  var key = text.replace(/[\x00-\x7f]/g, function (c) { return /[a-z0-9]/.test(c) ? c : ""; });
  return /^[\x00-\x7f]*$/.test(key) ? key : key.replace(/[^\p{L}\p{N}]/gu, "");
}

export function CardNames(table) {
  var self = this;
  var keys = table.keys;
  // the JSON object as it is (5,000 names: a Map made of it costs a phone more than the lookups)
  this.keys = { get: function (k) { return own.call(keys, k) ? keys[k] : undefined; } };
  this.common = new Set(table.common);
  this.initials = new Set(table.initials || []);           // a card's initials: one word only ("at a" is no Ashes to Ashes)
  this.notTypos = new Set(table.not_typos || []);          // words one typo from a name ("hunting"): not misspelt names
  this.textWords = new Set(table.text_words || []);        // names many card texts use ("dodge", "bloodhunt"): whole query only
  this.phrases = new Set(table.phrases);
  this.filler = new Set(table.filler || []);
  this.cardWords = new Set(table.card_words || []);        // disciplines and clans the rules never name
  this.cardOnlyWords = new Set(table.card_only_words || []); // words of the cards the rules never say
  this.typeNouns = table.type_nouns || {};                 // a card described by its type (described_type)
  this.kindTypes = table.kind_types || {};                 // a kind of card of several types (KIND_TYPES)
  this.playerNouns = new Set(table.player_nouns || []);     // "the imbued card…": a card they play (PLAYER_NOUNS)
  this.describeLead = new Set(table.describe_lead || []);
  this.describeQualifiers = new Set(table.describe_qualifiers || []);
  this.describeRel = new Set(table.describe_rel || []);
  this.describeCardRel = new Set(table.describe_card_rel || []);
  this.describeWith = new Set(table.describe_with || []);
  this.describePlaces = table.describe_places || [];       // where a card told of is ("out", "in play")
  this.describeArticles = new Set(table.describe_articles || []);
  this.describePointed = new Set(table.describe_pointed || []);
  this.describeThingRel = new Set(table.describe_thing_rel || []);
  this.askedSkip = new Set(table.asked_skip || []);
  this.askedMax = table.asked_max || 0;
  this.askedAfter = new Set(table.asked_after || []);
  this.describeFree = table.describe_free || 0;             // other words before the noun
  this.describeOwned = new Set(table.describe_owned || []); // ... none of them "my"
  this.describeCapacity = new Set(table.describe_capacity || []);  // "8 cap", "cap 8": a vampire's
  this.describeOpen = new Set(table.describe_open || []);   // a card described further on (describes_card)
  this.rulesNouns = new Set(table.rules_nouns || []);       // ... by a noun the rules do not use for any card
  this.describeReach = table.describe_reach || 0;           // ... in the question's first characters
  this.describeAsk = new Set(table.describe_ask || []);     // ... or asked for by a discipline or a clan
  this.describeNotVerbs = new Set(table.describe_not_verbs || []);  // ... or by its type and a verb
  this.maxWords = table.max_words;
  this.typoMin = table.typo_min;
  this.typoWordMin = table.typo_word_min;
  this.typoLongMin = table.typo_long_min || Infinity;     // an older table: no long name with a typo
  this.farMin = table.far_min || Infinity;                // a long name typed alone, two typos away (CardNames._far)
  this.askingWords = new Set(table.asking_words || []);
  var anchor = this.longAnchor = table.long_anchor;       // letters at each end of a long key, one end as typed
  this.byStart = new Map();                               // first letter and length -> keys
  this.farEnds = new Map();                               // "^" + first three letters, last three + "$" -> keys
  this.longHeads = new Map();                             // a long name's first letters (longAnchor) -> its lengths
  this.longTails = new Map();                             // ... its last letters -> the same
  Object.keys(keys).forEach(function (key) {
    if (key.length >= self.typoLongMin - 1) {
      addLength(self.longHeads, key.slice(0, anchor), key.length);
      addLength(self.longTails, key.slice(-anchor), key.length);
    }
    if (key.length >= self.farMin - 2) {                 // the names far() may find, by their ends
      addKey(self.farEnds, "^" + key.slice(0, 3), key);
      addKey(self.farEnds, key.slice(-3) + "$", key);
    }
    if (key.length < self.typoMin) return;
    var k = key.charCodeAt(0) * 1024 + key.length, list = self.byStart.get(k);
    if (list) list.push(key); else self.byStart.set(k, [key]);
  });
}

// at most two insertions, deletions, substitutions or swaps of adjacent letters between a
// and b (optimal string alignment), given their common start and end (names.py _edits2)
function edits2(a, b) {
  var i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  var j = 0;
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  a = a.slice(i, a.length - j);
  b = b.slice(i, b.length - j);
  if (Math.abs(a.length - b.length) > 2) return false;
  var before = null, row = [];
  for (var y0 = 0; y0 <= b.length; y0++) row.push(y0);
  for (var x = 1; x <= a.length; x++) {
    var now = [x];
    for (var y = 1; y <= b.length; y++) {
      var cost = a[x - 1] === b[y - 1] ? 0 : 1;
      var d = Math.min(row[y] + 1, now[y - 1] + 1, row[y - 1] + cost);
      if (before !== null && x > 1 && y > 1 && a[x - 1] === b[y - 2] && a[x - 2] === b[y - 1]) d = Math.min(d, before[y - 2] + 1);
      now.push(d);
    }
    if (Math.min.apply(null, now) > 2) return false;
    before = row;
    row = now;
  }
  return row[row.length - 1] <= 2;
}

function addKey(map, end, key) {
  var keys = map.get(end);
  if (keys) keys.push(key); else map.set(end, [key]);
}

function addLength(map, end, length) {
  var lengths = map.get(end);
  if (lengths) lengths.add(length); else map.set(end, new Set([length]));
}

CardNames.prototype.exact = function (words) {
  var hit = this.key(words);
  if (hit === undefined && words.length > 1 && words[0] === "the") hit = this.key(words.slice(1));
  return hit === undefined ? null : hit;
};

// the card these words spell, a card's initials only as one word (CardNames._key)
CardNames.prototype.key = function (words) {
  var key = words.join("");
  return words.length > 1 && this.initials.has(key) ? undefined : this.keys.get(key);
};

// a leading "the" does not count toward the length a typo needs ("the hall" is no The Call);
// in a name of two words, a short word and the words of `spelt` are spelt as in the name
// ("sup version": CardNames._typo)
CardNames.prototype.typo = function (words, spelt) {
  var key = words.join("");
  if (key.length - (words.length > 1 && words[0] === "the" ? 3 : 0) < this.typoMin) return null;
  var name = this.typoName(key), first = words[0], last = words[words.length - 1];
  var kept = spelt || [];
  if (name === null || words.length > 1 && (
      (first.length < this.typoWordMin || kept.indexOf(first) >= 0) && name.slice(0, first.length) !== first ||
      (last.length < this.typoWordMin || kept.indexOf(last) >= 0) && name.slice(name.length - last.length) !== last)) {
    return null;
  }
  return this.keys.get(name);
};

// whether a span of three or four words may spell a long name with one typo (CardNames._long_typo_may)
CardNames.prototype.longTypoMay = function (words) {
  var key = words.join("");
  var n = key.length, a = this.longAnchor;
  if (n < this.typoLongMin) return false;
  var found = [this.longHeads.get(key.slice(0, a)), this.longTails.get(key.slice(-a))];
  return found.some(function (lengths) { return lengths !== undefined && (lengths.has(n) || lengths.has(n - 1) || lengths.has(n + 1)); });
};

// the name key one typo away from `key` (CardNames._typo_name)
CardNames.prototype.typoName = function (key) {
  for (var size = key.length - 1; size <= key.length + 1; size++) {
    var cands = this.byStart.get(key.charCodeAt(0) * 1024 + size) || [];
    for (var i = 0; i < cands.length; i++) {
      if (cands[i] !== key && !this.textWords.has(cands[i]) && withinOneEdit(key, cands[i])) return cands[i];
    }
  }
  return null;
};

CardNames.prototype.namesACard = function (words, wholeQuery) {
  if (wholeQuery) return true;
  var self = this, content = words.filter(function (w) { return w !== "the"; });
  if (content.length === 1) return !this.common.has(content[0]) && !this.textWords.has(content[0]);
  return content.length > 0 && !self.phrases.has(words.join("")) && !self.textWords.has(content.join(""));
};

// whether the query names a discipline or a clan, one to three words, or says a word of the
// cards' names or texts that the rules never say (mentions_card_words)
CardNames.prototype.mentionsCardWords = function (query) {
  var words = this.words(query);
  var only = this.cardOnlyWords;
  if (words.some(function (w) { return only.has(w) || (w.slice(-1) === "s" && only.has(w.slice(0, -1))); })) return true;
  for (var n = 1; n <= 3; n++) {
    for (var i = 0; i + n <= words.length; i++) {
      if (this.cardWords.has(words.slice(i, i + n).join(""))) return true;
    }
  }
  return false;
};

// the type nouns (keys of typeNouns: one or two words joined, the longer first) the words
// at `at` spell, each as [noun, where it ends] (descriptions.nouns_at)
function nounsAt(words, at, typeNouns) {
  var out = [];
  for (var n = 2; n >= 1; n--) {
    var noun = words.slice(at, at + n).join("");
    if (words.length - at >= n && own.call(typeNouns, noun)) out.push([noun, at + n]);
  }
  return out;
}

// where a description goes on after a type noun ending at `at`: past "card" if it comes
// next, then past where the card is ("a location out that…", `places`: describe_places)
// (descriptions.past_card)
function pastCard(words, at, places) {
  if (at < words.length && words[at] === "card") at += 1;
  for (var p = 0; p < places.length; p++) {
    if (words.slice(at, at + places[p].length).join(" ") === places[p].join(" ")) return at + places[p].length;
  }
  return at;
}

// the card type a question describes a card by: "the reaction that…", "a nosferatu who…"
// (descriptions.described_type), or null
CardNames.prototype.describedType = function (query) {
  var words = this.words(query.slice(0, 300)), i = 0, named = false, self = this;
  // a word of a vampire's capacity: "cap", or its number ("8 cap", "cap 8")
  function capacityAt(at) {
    if (self.describeCapacity.has(words[at])) return true;
    return /^[0-9]+$/.test(words[at]) && [at - 1, at + 1].some(function (k) {
      return k >= 0 && k < words.length && self.describeCapacity.has(words[k]);
    });
  }
  while (i < words.length && this.describeLead.has(words[i])) i += 1;
  while (i < words.length) {
    var facet = this.cardWords.has(words[i]) || capacityAt(i);
    if (!facet && !this.describeQualifiers.has(words[i])) break;
    named = named || facet;
    i += 1;
  }
  function startsDescription(at, relations) {
    at = pastCard(words, at, self.describePlaces);
    return at < words.length && (relations || self.describeRel).has(words[at]);
  }
  // whether the type noun ending at `end` is a crypt card's that tells of a card it plays
  // ("the imbued card that…": descriptions.plays_card)
  function playsCard(end) {
    return self.playerNouns.has(words[end - 1]) && end < words.length && words[end] === "card";
  }
  // the card types a noun of one or two words at `at` names, with where it ends
  function typeAt(at) {
    return nounsAt(words, at, self.typeNouns).map(function (f) { return [self.typeNouns[f[0]], f[1]]; });
  }
  // after a noun ending at `end`, "with" and a card pointed at ("hit an ally with that
  // Necromancy strike that…"): the second noun's type (not a vampire), or null when a
  // discipline or a clan and a word naming no type tell of it; false when there is no such
  // card (descriptions.described_type's told_with)
  function toldWith(end) {
    if (end >= words.length || !self.describeWith.has(words[end])) return false;
    var at = end + 1, facet = false;
    if (at >= words.length || !self.describePointed.has(words[at])) return false;
    while (at < words.length && (self.describePointed.has(words[at]) || self.cardWords.has(words[at]) ||
                                 self.describeQualifiers.has(words[at]))) {
      facet = facet || self.cardWords.has(words[at]);
      at += 1;
    }
    var inner = typeAt(at);
    if (inner.length) {
      for (var n = 0; n < inner.length; n++) {
        if (inner[n][0] !== "Vampire" && startsDescription(inner[n][1], self.describeThingRel)) return inner[n][0];
      }
      return false;
    }
    return facet && startsDescription(at + 1, self.describeThingRel) ? null : false;
  }
  var first = typeAt(i), k, j;
  for (k = 0; k < first.length; k++) {
    var told0 = toldWith(first[k][1]);
    if (told0 !== false) return told0;
    // "the vampire with the equipment that…": the description is the second noun's
    var end = first[k][1];
    if (end < words.length && this.describeWith.has(words[end])) {
      var at = end + 1;
      while (at < words.length && this.describeArticles.has(words[at])) at += 1;
      var inner = typeAt(at);
      for (j = 0; j < inner.length; j++) if (startsDescription(inner[j][1])) return inner[j][0];
    }
  }
  for (k = 0; k < first.length; k++) if (startsDescription(first[k][1]) && !playsCard(first[k][1])) return first[k][0];
  if (named && (this.cardWords.has(words[i - 1]) || capacityAt(i - 1)) && i < words.length &&
      this.describeRel.has(words[i])) return "Vampire";
  if (first.length) return null;    // the noun came first, and no description follows it
  // "2 blood equipment card that…": one to describeFree other words before the noun, none
  // of them "my", then no vampire
  for (var free = 0, at2 = i; at2 < words.length && free <= this.describeFree && !this.describeOwned.has(words[at2]); at2++) {
    var found = typeAt(at2);
    if (found.length) {
      for (k = 0; k < found.length; k++) {
        var told = toldWith(found[k][1]);
        if (told !== false) return told;
      }
      for (k = 0; k < found.length; k++) {
        if (found[k][0] !== "Vampire" && startsDescription(found[k][1]) && !playsCard(found[k][1])) return found[k][0];
      }
      return null;
    }
    if (!this.describeQualifiers.has(words[at2]) && !this.cardWords.has(words[at2])) free += 1;
  }
  return null;
};

// the card types of a kind of card a type noun names ("Location": Master, Equipment;
// descriptions.card_types)
CardNames.prototype.cardTypes = function (kind) {
  return own.call(this.kindTypes, kind) ? this.kindTypes[kind] : [kind];
};

// the card type a question's last sentence asks for the card by ("Which modifier was
// that?"): at most askedMax words, a word of describeAsk, then any of askedSkip,
// disciplines, clans and qualifiers, then a type noun (and "card"), then only askedSkip and
// askedAfter ("Which vampire gets the Edge?" asks the rules: descriptions.closing_ask_type),
// or null
CardNames.prototype.closingAskType = function (sentence) {
  var words = this.words(sentence.slice(0, 300));
  if (!words.length || words.length > this.askedMax || !this.describeAsk.has(words[0])) return null;
  var at = 1;
  while (at < words.length && (this.askedSkip.has(words[at]) || this.cardWords.has(words[at]) ||
                               this.describeQualifiers.has(words[at]))) at += 1;
  var found = nounsAt(words, at, this.typeNouns);
  for (var k = 0; k < found.length; k++) {
    var end = pastCard(words, found[k][1], this.describePlaces);   // "Which master card in play was that?"
    var rest = words.slice(end), self = this;
    if (rest.every(function (w) { return self.askedSkip.has(w) || self.askedAfter.has(w); })) return this.typeNouns[found[k][0]];
  }
  return null;
};

// whether a question describes a card after its first word: "…has the 2-pool master that
// makes…", or asks for one by a discipline or a clan: "which Ravnos…", or by its type and
// what it does: "which master gives…", or opening with "card" and a relative word: "what's
// the card where…" (descriptions.describes_card)
CardNames.prototype.describesCard = function (query) {
  var words = this.words(query.slice(0, this.describeReach)), self = this;
  for (var i = 0; i < words.length - 1; i++) {
    if (!this.describeAsk.has(words[i])) continue;
    for (var m = 1; m <= 3; m++) if (this.cardWords.has(words.slice(i + 1, i + 1 + m).join(""))) return true;
  }
  if (this.opensWithFacetCard(words)) return true;
  if (this.opensWithCard(words)) return true;
  for (i = 0; i < words.length - 1; i++) if (this.describeAsk.has(words[i]) && this.asksType(words, i + 1)) return true;
  function startsDescription(at) {
    at = pastCard(words, at, self.describePlaces);
    return at < words.length && words[at] !== "to" && self.describeRel.has(words[at]);
  }
  for (var k = 1; k < words.length; k++) {
    if (!this.describeOpen.has(words[k])) continue;
    for (var at = k + 1, free = 0; at < words.length && free <= this.describeFree && !this.describeOwned.has(words[at]); at++) {
      var ends = nounsAt(words, at, this.typeNouns).filter(function (f) { return !self.rulesNouns.has(f[0]); })
        .map(function (f) { return f[1]; });
      if (ends.length) {
        if (ends.some(startsDescription)) return true;
        break;
      }
      if (!this.describeQualifiers.has(words[at]) && !this.cardWords.has(words[at])) free += 1;
    }
  }
  return false;
};

// whether the question opens (after describeLead) with a discipline or a clan, then "card":
// "Spiritus card I keep seeing: …" (descriptions._opens_with_facet_card)
CardNames.prototype.opensWithFacetCard = function (words) {
  var i = 0, facet = false;
  while (i < words.length && this.describeLead.has(words[i])) i += 1;
  while (i < words.length) {
    var n = 0;
    for (var m = 3; m >= 1 && !n; m--) if (this.cardWords.has(words.slice(i, i + m).join(""))) n = m;
    if (n) { facet = true; i += n; } else if (this.describeQualifiers.has(words[i])) i += 1; else break;
  }
  return facet && i < words.length && words[i] === "card";
};

// whether the question opens with "card" and a description: "what was that card where…"
// (descriptions._opens_with_card)
CardNames.prototype.opensWithCard = function (words) {
  var i = 0, self = this;
  function opening(w) { return self.describeLead.has(w) || self.describeOpen.has(w) || self.describeAsk.has(w); }
  while (i < words.length - 1 && words[i] !== "card" && opening(words[i])) i += 1;
  return i > 0 && i < words.length - 1 && words[i] === "card" &&
    (this.describeOpen.has(words[i - 1]) || this.describeAsk.has(words[i - 1])) && this.describeCardRel.has(words[i + 1]);
};

// whether a type noun, after up to describeFree words from `start`, is followed by ("card"
// and) a word of describeRel or a verb in "s": "which master gives…" (descriptions._asks_type)
CardNames.prototype.asksType = function (words, start) {
  var qualified = false, self = this;
  for (var at = start; at < Math.min(start + this.describeFree + 1, words.length); at++) {
    var ends = nounsAt(words, at, this.typeNouns).filter(function (f) { return qualified || !self.rulesNouns.has(f[0]); })
      .map(function (f) { return f[1]; });
    for (var k = 0; k < ends.length; k++) {
      var end = pastCard(words, ends[k], this.describePlaces);
      if (end >= words.length) continue;
      var w = words[end];
      if ((w !== "to" && this.describeRel.has(w)) ||
          (w.length > 2 && w.charAt(w.length - 1) === "s" && /^[a-z]+$/.test(w) && !this.describeNotVerbs.has(w))) return true;
    }
    if (ends.length || this.describeOwned.has(words[at])) return false;
    qualified = qualified || this.describeQualifiers.has(words[at]) || this.describeCapacity.has(words[at]) ||
      /^[0-9]+$/.test(words[at]);
  }
  return false;
};

// the query's words (name keys) that name the cards `hits` found there (CardNames.name_words)
CardNames.prototype.nameWords = function (query, hits) {
  var words = this.words(query), out = new Set();
  hits.forEach(function (h) { for (var i = h.start; i < Math.min(h.end, words.length); i++) out.add(words[i]); });
  return out;
};

CardNames.prototype.words = function (query) {
  return query.slice(0, 1000).split(SPLIT).map(nameKey).filter(function (w) { return w; });
};

// the ids of the cards a query names, in its order (CardNames.find)
CardNames.prototype.find = function (query) {
  return this.hits(query).map(function (h) { return h.id; });
};

// whether the query is nothing but the names found there and filler words (CardNames.only_names)
CardNames.prototype.onlyNames = function (query, hits) {
  if (!hits.length) return false;
  var covered = new Set(), filler = this.filler;
  hits.forEach(function (h) { for (var k = h.start; k < h.end; k++) covered.add(k); });
  return this.words(query).every(function (w, k) { return covered.has(k) || filler.has(w); });
};

// the cards a query names with their word spans, in its order
CardNames.prototype.hits = function (query) {
  var self = this;
  var words = this.words(query);
  var out = [], ids = [], i = 0;
  while (i < words.length) {
    var found = null;
    for (var n = Math.min(this.maxWords, words.length - i); n > 0; n--) {
      var span = words.slice(i, i + n), cid = this.exact(span);
      if (cid !== null && this.namesACard(span, n === words.length)) { found = [cid, i + n]; break; }
    }
    // one typo in a long name of three or four words, also where a name of one word starts
    // ("mark of the dammed" is Mark of the Damned, not the vampire Mark: CardNames.find)
    var oneWord = found && found[1] - i === 1;
    for (var l = 4; (!found || oneWord) && l >= 3; l--) {
      var long = words.slice(i, i + l);
      if (long.length === l && this.longTypoMay(long)) {
        var typed = this.typo(long);
        if (typed !== null) { found = [typed, i + l]; oneWord = false; }
      }
    }
    if (!found) {
      for (var m = 2; m >= 1; m--) {
        var part = words.slice(i, i + m), content = part.filter(function (w) { return w !== "the"; });
        // a word of the rules spelt right beside a misspelt one ("direct intervension"), not
        // a short one ("targets and") nor beside a word or a word too short to tell, but as
        // the whole query ("blood fued"; CardNames.find)
        var common = content.filter(function (w) { return self.common.has(w); });
        var short = m === words.length ? 0 : this.typoMin;
        if (part.length < m || (content.length === 1 && this.notTypos.has(content[0])) || common.length && (
            common.length === content.length || common.some(function (w) { return w.length < self.typoWordMin; }) ||
            content.some(function (w) {
              return !self.common.has(w) && (self.notTypos.has(w) || w.length < short);
            }))) continue;
        var typo = this.typo(part, common);
        if (typo !== null) { found = [typo, i + m]; break; }
      }
    }
    if (found) {
      if (ids.indexOf(found[0]) < 0) { ids.push(found[0]); out.push({ id: found[0], start: i, end: found[1] }); }
      i = found[1];
    } else i += 1;
  }
  return out.length ? out : this.far(words);
};

// the card a query naming nothing else names with two typos: its words but the filler and
// asking words, one to four and one after the other, spell a name of farMin letters or more
// two typos away, keeping its first three letters or its last three, and no other card's;
// one of them is no word of the rules (CardNames._far)
CardNames.prototype.far = function (words) {
  var self = this, at = [];
  words.forEach(function (w, k) { if (!self.filler.has(w) && !self.askingWords.has(w)) at.push(k); });
  if (!at.length || at.length > 4 || at[at.length - 1] - at[0] + 1 !== at.length ||
      at.every(function (k) { return self.common.has(words[k]); })) return [];
  var key = at.map(function (k) { return words[k]; }).join("");
  if (key.length < this.farMin) return [];
  var found = new Set();
  (this.farEnds.get("^" + key.slice(0, 3)) || []).concat(this.farEnds.get(key.slice(-3) + "$") || []).forEach(function (cand) {
    if (cand[0] === key[0] && Math.abs(cand.length - key.length) <= 2 && cand !== key &&
        !self.textWords.has(cand) && edits2(key, cand)) found.add(self.keys.get(cand));
  });
  return found.size === 1 ? [{ id: found.values().next().value, start: at[0], end: at[at.length - 1] + 1 }] : [];
};
