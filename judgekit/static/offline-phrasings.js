// The nearest phrasing, as judgekit/rules/phrasings.py (and SearchIndex._nearest_first)
// reads it: the first entries of a part's order re-ordered by the phrasing of the questions
// each answers that the question is nearest to, the scores kept in their places. The
// phrasings come from the server (their stems, each stem's idf as the server sums it);
// everything is summed in the server's order, so the floats are the same.
// Functions taking the part (an OfflineIndex, static/offline-index.js): its `search` calls
// nearestFirst.
import { decodeIds } from "./offline-words.js";

// docnum -> { bits: Map(stem -> the bits of its phrasings holding it), phrasings: [[stems, idf summed]] },
// decoded once, when a query first needs it
function phrasingTable(index) {
  if (index.phrasingsByDoc) return index.phrasingsByDoc;
  var data = index.phrasingData, names = data.stems, idf = data.idf;
  var ids = decodeIds(data.packed), byDoc = new Map(), i = 0, doc = 0;
  index.phrasingIdf = new Map();
  names.forEach(function (st, k) { index.phrasingIdf.set(st, idf[k]); });
  while (i < ids.length) {
    doc += ids[i];
    var n = ids[i + 1], bits = new Map(), list = [];
    i += 2;
    for (var k = 0; k < n; k++) {
      var len = ids[i], stems = [], whole = 0.0;
      i += 1;
      for (var j = 0; j < len; j++) {
        var st = names[ids[i + j]];
        stems.push(st);
        whole += idf[ids[i + j]];
        bits.set(st, (bits.get(st) || 0) | (1 << k));
      }
      i += len;
      list.push([stems, whole]);
    }
    byDoc.set(doc, { bits: bits, phrasings: list });
  }
  index.phrasingsByDoc = byDoc;
  return byDoc;
}

// the question's groups that count (no question word, no number): their weights, total, and
// each alternative by its first stem ([group, alternative, stems], in their order)
function asked(groups) {
  var plain = groups.filter(function (g) { return g.number === null && g.factor === 1.0; });
  var weights = plain.map(function (g) { return g.weight; });
  var byFirst = new Map();
  plain.forEach(function (g, gi) {
    var ai = 0;
    g.alts.forEach(function (pair) {
      var alt = pair[0];
      if (alt.length) {
        if (!byFirst.has(alt[0])) byFirst.set(alt[0], []);
        byFirst.get(alt[0]).push([gi, ai, alt]);
      }
      ai += 1;
    });
  });
  var total = 0.0;
  weights.forEach(function (w) { total += w; });
  return { weights: weights, total: total, byFirst: byFirst };
}

// the nearness of the entry's nearest phrasing to the question (Phrasings.nearness)
function nearness(index, doc, question) {
  var made = phrasingTable(index).get(doc);
  if (!made) return 0.0;
  var bits = made.bits, pairs = [];
  question.byFirst.forEach(function (list, st) {
    if (bits.has(st)) list.forEach(function (p) { pairs.push(p); });
  });
  if (!pairs.length) return 0.0;
  pairs.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
  var held = new Map(), holding = new Map();
  pairs.forEach(function (p) {
    var alt = p[2], b = bits.get(alt[0]) & ~(holding.get(p[0]) || 0);
    for (var j = 1; j < alt.length; j++) b &= (bits.get(alt[j]) || 0);
    if (b) {
      holding.set(p[0], (holding.get(p[0]) || 0) | b);
      alt.forEach(function (st) { held.set(st, (held.get(st) || 0) | b); });
    }
  });
  var weight = made.phrasings.map(function () { return 0.0; });
  holding.forEach(function (b, gi) {
    var w = question.weights[gi];
    for (var i = 0; b; i++, b >>>= 1) { if (b & 1) weight[i] += w; }
  });
  var best = 0.0;
  made.phrasings.forEach(function (ph, i) {
    if (!weight[i]) return;
    var got = 0.0;
    ph[0].forEach(function (st) { if ((held.get(st) || 0) >> i & 1) got += index.phrasingIdf.get(st); });
    best = Math.max(best, got / ph[1] * Math.sqrt(weight[i] / question.total));
  });
  return best;
}

// ranked: [score, key, entry, coverage, the order's key], best first; its first
// nearestAmong re-ordered by the order's key x (1 + phrasingFactor x nearness), the scores
// kept in their places (SearchIndex._nearest_first)
export function nearestFirst(index, ranked, groups) {
  var question = asked(groups);
  if (!question.total) return ranked;
  var factor = index.phrasingFactor;
  var head = ranked.slice(0, index.nearestAmong).map(function (x) {
    return [x[0], x[1], x[2], x[3], x[4] * (1.0 + factor * nearness(index, x[2].docnum, question))];
  });
  head.sort(function (a, b) { return b[4] - a[4] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0); });
  return head.concat(ranked.slice(index.nearestAmong)).map(function (x, i) {
    return [ranked[i][0], x[1], x[2], x[3], x[4]];
  });
}
