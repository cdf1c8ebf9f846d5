// The snippet of an offline hit, cut as the server's judgekit/rules/snippets.py cuts it: the
// window of an entry's body holding the most of the query's stems, the words <mark>ed, HTML
// escaped, and the link to the paragraph it falls in. The entry's text must have been read
// (OfflineIndex.readTexts, static/offline-index.js); it is tokenized once, when first shown.
// Exports snippet(index, entry, stems, width?) -> [html, url].

var ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
function escapeHtml(s) { return s.replace(/[&<>"']/g, function (c) { return ESC[c]; }); }

function positionsOf(tokens) {
  var out = new Map();
  tokens.forEach(function (t, i) {
    var list = out.get(t[0]);
    if (list) list.push(i); else out.set(t[0], [i]);
  });
  return out;
}

// an entry's body tokens and positions (for its snippet: its text must have been read)
function analysed(index, e) {
  if (!e.tokens) {
    if (typeof e.body !== "string") throw new Error("the text of " + e.key + " is not read yet");
    e.tokens = index.tokenize(e.body);
    e.positions = positionsOf(e.tokens);
  }
  return e;
}

export function snippet(index, e, stems, width) {
  width = width || 28;
  var tokens = analysed(index, e).tokens, body = e.body, wanted = new Set(stems);
  if (!tokens.length) return [escapeHtml(body.slice(0, 200)), e.url];
  var hits = [];
  wanted.forEach(function (st) { (e.positions.get(st) || []).forEach(function (i) { hits.push(i); }); });
  hits.sort(function (a, b) { return a - b; });
  var best = 0, first = 0;
  if (hits.length) {
    var bestScore = -1, j = 0, counts = new Map();
    best = hits[0];
    for (var k = 0; k < hits.length; k++) {
      var start = hits[k];
      while (j < hits.length && hits[j] < start + width) {
        var s = tokens[hits[j]][0];
        counts.set(s, (counts.get(s) || 0) + 1);
        j++;
      }
      var score = counts.size * 10 + (j - k);
      if (score > bestScore) { best = start; bestScore = score; }
      var st0 = tokens[start][0];
      counts.set(st0, counts.get(st0) - 1);
      if (!counts.get(st0)) counts.delete(st0);
    }
    first = Math.max(0, best - 4);
  }
  var last = Math.min(tokens.length - 1, first + width);
  var startChar = tokens[first][1];
  var back = startChar > 0 ? body.lastIndexOf("\n", startChar - 1) : -1;
  if (startChar - back >= 0 && startChar - back <= 40) startChar = back + 1;
  else if (first === 0) startChar = 0;
  var endChar = tokens[last][2];
  var out = [], pos = startChar;
  for (var t = first; t <= last; t++) {
    var tok = tokens[t];
    if (tok[1] < startChar) continue;
    if (wanted.has(tok[0])) {
      out.push(escapeHtml(body.slice(pos, tok[1])));
      out.push("<mark>" + escapeHtml(body.slice(tok[1], tok[2])) + "</mark>");
      pos = tok[2];
    }
  }
  out.push(escapeHtml(body.slice(pos, endChar)));
  var html = out.join("").replace(/\n/g, " ");
  if (startChar > 0) html = "… " + html;
  if (endChar < body.trimEnd().length) html += " …";
  var url = e.url;
  if ((e.kind === "section" || e.kind === "intro") && hits.length) {
    var anchor = null, at = tokens[best][1];
    e.anchors.forEach(function (a) { if (a[0] <= at) anchor = a[1]; });
    if (anchor && e.anchors.length > 1) url = e.url + "#" + anchor;
  }
  return [html, url];
}
