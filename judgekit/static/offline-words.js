// What the offline index's parts share, as the server's judgekit/rules/analysis.py and
// judgekit/offline/search_index.py have it: the pattern of a word, accent folding, one edit
// apart (typos), the packed ids and numbers of the index decoded, and `Tables` (the stem of
// every word, the stop words, the stemmed synonyms). Pure: no page, no network.
// Exports WORD, SEP, own, fold, withinOneEdit, decodeIds, starts, decodeNumbers, Tables;
// used by static/offline-index.js and its helpers (offline-query.js, offline-numbers.js,
// offline-scoring.js), and by static/offline-search.js.

export const WORD = /[\p{L}\p{N}_]+(?:[.'’][\p{L}\p{N}_]+)*/gu;
export const SEP = "\u0001";   // joins stem sequences into map keys

export const own = Object.prototype.hasOwnProperty;

// accents folded as the server's analyzer folds them: its own table (whoosh's accent_map,
// shipped as the index's `fold`: character -> replacement), character by character
export function fold(word, table) {
  var out = "";
  for (var ch of word) out += table && own.call(table, ch) ? table[ch] : ch;
  return out;
}

export function withinOneEdit(a, b) {
  if (a === b) return true;
  var la = a.length, lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  if (la > lb) { var t = a; a = b; b = t; la = a.length; lb = b.length; }
  var i = 0;
  while (i < la && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.slice(i) === b.slice(i + 1);
}

// stem ids packed a character each (search_index.py encode_ids) -> Uint16Array
export function decodeIds(text) {
  var out = new Uint16Array(text.length);
  for (var i = 0; i < text.length; i++) {
    var cp = text.charCodeAt(i);
    if (cp >= 0xE000) cp -= 0x800;
    if (cp > 92) cp -= 1;
    out[i] = cp - 35;
  }
  return out;
}

// where each entry's tokens start in a part's stream of ids (its lengths in that field)
export function starts(lengths, width, field) {
  var n = lengths.length / width, out = new Uint32Array(n + 1);
  for (var i = 0; i < n; i++) out[i + 1] = out[i] + lengths[i * width + field];
  return out;
}

// each entry's stated numbers (search_index.py encode_numbers): [[value, [stem…]]] per entry
export function decodeNumbers(text) {
  return text.split("|").map(function (entry) {
    return entry ? entry.split(";").map(function (item) {
      var at = item.indexOf(":"), units = item.slice(at + 1);
      return [parseFloat(item.slice(0, at)), units ? units.split(",") : []];
    }) : [];
  });
}

// what the parts share: the stem of every word, the stop words, the stemmed synonyms…
export function Tables(data) {
  var self = this, words = data.words;
  // the JSON object as it is: a Map of 8,000 words costs a phone more than the lookups
  this.words = { get: function (w) { return own.call(words, w) ? words[w] : undefined; } };
  this.stems = data.stems;                                  // id -> stem (the entries' tokens)
  this.stop = new Set(data.stop);
  this.fold = data.fold;                                    // character -> as the analyzer folds it
  this.synonyms = new Map();
  this.synonymWords = new Map();     // first letter -> the table's one-word keys (mistyped words)
  this.maxPhrase = 1;
  data.synonyms.forEach(function (pair) {
    self.synonyms.set(pair[0].join(SEP), pair[1]);
    self.maxPhrase = Math.max(self.maxPhrase, pair[0].length);
    if (pair[0].length === 1) {
      var k = pair[0][0].charAt(0), list = self.synonymWords.get(k);
      if (list) list.push(pair[0][0]); else self.synonymWords.set(k, [pair[0][0]]);
    }
  });
}
