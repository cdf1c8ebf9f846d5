// One part of the offline search index (the rules, or the cards), ranked as the server's
// judgekit/rules/search.py SearchIndex ranks it: BM25F over the title/body/context fields,
// synonym groups, one-typo and prefix expansion, question words that count for little,
// numbers matched to the numbers a rule states (near ones too), a phrase bonus, coverage
// re-ranking, at most three entries per section before the others, snippets with <mark>.
// The postings and each entry's stems (for phrases) come from the server; an entry's text is
// read from its text file (CHUNK entries a file) and tokenized only when a snippet needs it.
// static/offline-search.js merges the parts and answers the search box.
// Exports Tables, OfflineIndex, checkQuery, SECTION_QUERY, SEP, withinOneEdit, closeness, fold,
// porter2 (pure: no page, no network; tests/js/ runs it in Node).
import { t } from "./i18n.js";
import porter2 from "./porter2.js";

const X = (function () {
  var WORD = /[\p{L}\p{N}_]+(?:[.'’][\p{L}\p{N}_]+)*/gu;
  var SECTION_QUERY = /^\s*(?:(?:section|sect|sec|rule|rules|§|appendix)\s*)?((?:\d+|[A-Ba-b])(?:\.\d+)*)\.?\s*$/i;
  var SLUG = /^[a-z]+(?:-[a-z]+)+$/;
  var ALPHA = /^\p{L}+$/u;
  var SEP = "\u0001";   // joins stem sequences into map keys
  var DIGITS = /^[0-9]{1,6}$/;

  // --- words ------------------------------------------------------------------------------
  // accents folded as the server's analyzer folds them: its own table (whoosh's accent_map,
  // shipped as the index's `fold`: character -> replacement), character by character
  function fold(word, table) {
    var out = "";
    for (var ch of word) out += table && Object.prototype.hasOwnProperty.call(table, ch) ? table[ch] : ch;
    return out;
  }

  // 1 for the same number, falling to 0 when they differ by half the larger one
  function closeness(a, b) {
    if (a === b) return 1.0;
    var big = Math.max(Math.abs(a), Math.abs(b));
    return big ? Math.max(0.0, 1.0 - 2.0 * Math.abs(a - b) / big) : 0.0;
  }

  function withinOneEdit(a, b) {
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

  function hasPhrase(positions, stems) {
    var first = positions.get(stems[0]);
    if (!first) return false;
    var rest = stems.slice(1).map(function (s) { return new Set(positions.get(s) || []); });
    return first.some(function (p) {
      return rest.every(function (r, i) { return r.has(p + i + 1); });
    });
  }

  // stem ids packed a character each (search_index.py encode_ids) -> Uint16Array
  function decodeIds(text) {
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
  function starts(lengths, width, field) {
    var n = lengths.length / width, out = new Uint32Array(n + 1);
    for (var i = 0; i < n; i++) out[i + 1] = out[i] + lengths[i * width + field];
    return out;
  }

  // each entry's stated numbers (search_index.py encode_numbers): [[value, [stem…]]] per entry
  function decodeNumbers(text) {
    return text.split("|").map(function (entry) {
      return entry ? entry.split(";").map(function (item) {
        var at = item.indexOf(":"), units = item.slice(at + 1);
        return [parseFloat(item.slice(0, at)), units ? units.split(",") : []];
      }) : [];
    });
  }

  var own = Object.prototype.hasOwnProperty;

  // --- the index ----------------------------------------------------------------------------
  // what the parts share: the stem of every word, the stop words, the stemmed synonyms…
  function Tables(data) {
    var self = this, words = data.words;
    // the JSON object as it is: a Map of 8,000 words costs a phone more than the lookups
    this.words = { get: function (w) { return own.call(words, w) ? words[w] : undefined; } };
    this.stems = data.stems;                                  // id -> stem (the entries' tokens)
    this.stop = new Set(data.stop);
    this.fold = data.fold;                                    // character -> as the analyzer folds it
    this.synonyms = new Map();
    this.maxPhrase = 1;
    data.synonyms.forEach(function (pair) {
      self.synonyms.set(pair[0].join(SEP), pair[1]);
      self.maxPhrase = Math.max(self.maxPhrase, pair[0].length);
    });
  }

  // one part of the index (the rules, or the cards), as judgekit/rules/search.py SearchIndex
  function OfflineIndex(data, part, tables, readText) {
    var self = this;
    this.data = data;
    this.part = part;
    this.params = data.params;
    this.fields = data.params.fields;                       // order of the lengths
    this.boosts = data.params.field_boosts;                 // {title: 3, body: 1, context: .6}
    this.words = tables.words;
    this.stop = tables.stop;
    this.foldTable = tables.fold;
    // arrays in the order of part.columns: the key as what follows doc/section (or "=" and the
    // key), the doc and the kind as their place in part.docs and part.kinds
    var at = {}, docs = part.docs, kinds = part.kinds;
    part.columns.forEach(function (c, i) { at[c] = i; });
    this.entries = part.entries.map(function (row, docnum) {
      var doc = docs[row[at.doc]], section = row[at.section], rest = row[at.key];
      return { key: rest.charAt(0) === "=" ? rest.slice(1) : doc + "/" + section + rest, doc: doc,
               section: section, number: row[at.number], kind: kinds[row[at.kind]],
               docnum: docnum };
    });
    // each entry's body and title stems, as ids (phrases are checked on them, not on the text)
    this.stems = tables.stems;
    // each entry's field lengths, in the order of `fields` (entry docnum: [docnum * 3 + field])
    this.lengths = decodeIds(part.lengths);
    // the cards' card types: a bit mask per entry, bits in the order of types.names
    // (search_index._type_masks; a group's ruling has every bit)
    this.typeNames = part.types ? part.types.names : null;
    this.typeMasks = part.types ? decodeIds(part.types.masks) : null;
    var width = this.fields.length;
    this.ids = part.tokens;                                  // packed: decoded an entry at a time
    this.starts = { body: starts(this.lengths, width, this.fields.indexOf("body")),
                    title: starts(this.lengths, width, this.fields.indexOf("title")) };
    // the entries' text (title, body, context, link, anchors): CHUNK entries a file, read when shown
    this.chunk = part.chunk;
    this.textColumns = part.text_columns;
    this.texts = [];                                        // chunk number -> Promise
    this.readText = readText || null;                       // chunk number -> Promise(file's JSON)
    this.n = part.n;
    this.avg = part.avg;
    this.coveragePower = part.coverage_power;               // score x coverage ** this
    this.coverageCap = part.coverage_cap === undefined ? null : part.coverage_cap;   // a word's most weight in it
    this.orderPower = part.order_power === undefined ? part.coverage_power : part.order_power;   // the order's power
    this.sparse = new Set(data.params.sparse_fields);       // fields few entries have
    this.maxPostings = part.max_postings || 0;              // the cards: a common term's best entries
    this.groupFactor = part.group_factor || 1;              // the cards: a group's rulings rank lower
    this.textFactor = part.text_factor || 1;                // the cards: a card's own text ranks lower
    // docnum -> its kin (a card's ruling -> the card, a card -> its rulings), from the
    // (child, parent) pairs: a word its kin hold counts toward an entry's share of the
    // question at inheritShare of its weight (the server's `inherit`)
    this.inheritShare = part.inherit_share || 0;
    this.kinOf = new Map();
    var pairs = part.inherit ? decodeIds(part.inherit) : [], kinOf = this.kinOf;
    var relate = function (a, b) { if (!kinOf.has(a)) kinOf.set(a, []); kinOf.get(a).push(b); };
    for (var pi = 0; pi + 1 < pairs.length; pi += 2) {
      relate(pairs[pi], pairs[pi + 1]);
      relate(pairs[pi + 1], pairs[pi]);
    }
    this.kept = new Map();                                  // truncated term -> Set(docnum kept)
    // the server's postings, decoded a term at a time when a query first needs it: nothing
    // is tokenized up front (a phone builds the index of 6,600 entries in no time)
    this.packed = part.postings;                            // field -> stem -> packed [doc delta, count, …]
    this.decoded = {};                                      // field -> stem -> [[docnum, weight]]
    this.fields.forEach(function (f) { self.decoded[f] = new Map(); });
    this.docsCache = new Map();                             // stem -> Set(docnum) of any field
    this.fieldDocsCache = {};                               // field -> stem -> Set(docnum)
    // every stem of the part: the postings' keys, looked up there (a Set of 8,000 stems would
    // cost the phone's first search more than the look-ups); `size` for the tests
    var packed = this.packed, fields = this.fields;
    this.vocab = { has: function (st) {
      for (var i = 0; i < fields.length; i++) { if (own.call(packed[fields[i]], st)) return true; }
      return false;
    }, size: 0 };
    this.byNumber = new Map();
    this.byKey = new Map();
    this.entries.forEach(function (e) {
      self.byKey.set(e.key, e);
      if (e.kind === "section") {
        var k = e.section.toLowerCase();
        if (!self.byNumber.has(k)) self.byNumber.set(k, []);
        self.byNumber.get(k).push(e);
      }
    });
    this.nEntries = Math.max(1, this.entries.length);
    this.byFirst = new Map();                               // first letter -> stems (typos, prefixes)
    fields.forEach(function (f, i) {
      Object.keys(packed[f]).forEach(function (word) {
        for (var j = 0; j < i; j++) { if (own.call(packed[fields[j]], word)) return; }   // once
        self.vocab.size += 1;
        var k = word.charAt(0), list = self.byFirst.get(k);
        if (list) list.push(word); else self.byFirst.set(k, [word]);
      });
    });
    this.synonyms = tables.synonyms;
    this.maxPhrase = tables.maxPhrase;
    this.caseSensitive = data.case_sensitive;
    this.question = new Set(data.question);
    this.numberWords = data.number_words;
    this.tens = new Set(data.number_tens);
    this.numbers = null;                                    // value -> [[docnum, Set(units)]], when first asked
    this.typoCache = new Map();
    this.extCache = new Map();
    this.weightCache = new Map();
  }

  // a term's postings in a field: [[docnum, weight]] (weight: count x posting boost, a float32)
  OfflineIndex.prototype.postingList = function (field, term) {
    var known = this.decoded[field].get(term);
    if (known !== undefined) return known;
    var text = own.call(this.packed[field], term) ? this.packed[field][term] : null, out = null;
    if (text) {
      var packed = decodeIds(text), boost = this.data.posting_boosts[field], doc = 0;
      out = new Array(packed.length / 2);
      for (var i = 0; i < packed.length; i += 2) {
        doc += packed[i];
        out[i / 2] = [doc, Math.fround(packed[i + 1] * boost)];
      }
    }
    this.decoded[field].set(term, out);
    return out;
  };

  // the entries holding a stem in any field, and how many (the server's df)
  OfflineIndex.prototype.termDocs = function (stem) {
    var known = this.docsCache.get(stem);
    if (known) return known;
    var self = this, docs = new Set();
    if (this.vocab.has(stem)) {
      this.fields.forEach(function (f) {
        (self.postingList(f, stem) || []).forEach(function (p) { docs.add(p[0]); });
      });
    }
    this.docsCache.set(stem, docs);
    return docs;
  };
  // the entries holding a stem in one field (body, title)
  OfflineIndex.prototype.fieldDocs = function (field, stem) {
    var cache = this.fieldDocsCache[field] || (this.fieldDocsCache[field] = new Map());
    var known = cache.get(stem);
    if (known) return known;
    var docs = new Set();
    if (this.vocab.has(stem)) (this.postingList(field, stem) || []).forEach(function (p) { docs.add(p[0]); });
    cache.set(stem, docs);
    return docs;
  };

  // a card group's ruling: group_factor as far as only its title (the group's name) holds the
  // query, 1 as far as its own text does (SearchIndex._group_ruling_factor)
  OfflineIndex.prototype.groupRulingFactor = function (groups, doc, covered) {
    if (!covered) return this.groupFactor;
    var self = this, inBody = 0.0;
    groups.forEach(function (g) {
      if (g.number !== null) return;
      var found = Array.from(g.alts.values()).some(function (pair) {
        return pair[0].every(function (st) { return self.fieldDocs("body", st).has(doc); });
      });
      if (found) inBody += g.weight;
    });
    return this.groupFactor + (1.0 - this.groupFactor) * inBody / covered;
  };

  // a card's own entry: text_factor, unless its name holds every word it matches
  // (SearchIndex._card_text_factor)
  OfflineIndex.prototype.cardTextFactor = function (groups, doc, covered) {
    var self = this, inTitle = 0.0;
    groups.forEach(function (g) {
      if (g.number !== null) return;
      var found = Array.from(g.alts.values()).some(function (pair) {
        return pair[0].every(function (st) { return self.fieldDocs("title", st).has(doc); });
      });
      if (found) inTitle += g.weight;
    });
    return covered && inTitle >= covered ? 1.0 : this.textFactor;
  };

  OfflineIndex.prototype.dfOf = function (stem) { return this.termDocs(stem).size; };

  // an entry's body tokens and positions (for its snippet: its text must have been read)
  OfflineIndex.prototype.analysed = function (e) {
    if (!e.tokens) {
      if (typeof e.body !== "string") throw new Error("the text of " + e.key + " is not read yet");
      e.tokens = this.tokenize(e.body);
      e.positions = positionsOf(e.tokens);
    }
    return e;
  };

  // stem -> token positions of an entry's body or title, from the server's stems (phrases)
  OfflineIndex.prototype.stemPositions = function (e, field) {
    var name = field === "title" ? "titleStems" : "bodyStems";
    if (!e[name]) {
      var from = this.starts[field][e.docnum], to = this.starts[field][e.docnum + 1];
      var ids = decodeIds(this.ids[field].slice(from, to));
      var out = new Map(), stems = this.stems;
      for (var i = from; i < to; i++) {
        var st = stems[ids[i - from]], list = out.get(st);
        if (list) list.push(i - from); else out.set(st, [i - from]);
      }
      e[name] = out;
    }
    return e[name];
  };

  // read the text files of these entries (each file once): Promise, done when they are there
  OfflineIndex.prototype.readTexts = function (entries) {
    var self = this, wanted = new Set();
    entries.forEach(function (e) { if (typeof e.body !== "string") wanted.add(Math.floor(e.docnum / self.chunk)); });
    return Promise.all(Array.from(wanted).map(function (n) { return self.readChunk(n); }));
  };

  OfflineIndex.prototype.readChunk = function (n) {
    var self = this;
    if (!this.texts[n]) {
      this.texts[n] = this.readText(n).then(function (file) {
        var cols = file.columns, first = file.first;
        file.entries.forEach(function (row, j) {
          var e = self.entries[first + j];
          for (var c = 0; c < cols.length; c++) e[cols[c]] = row[c];
        });
      });
      this.texts[n].catch(function () { self.texts[n] = null; });   // try again next time
    }
    return this.texts[n];
  };

  // every text file of the part (the tests count its tokens)
  OfflineIndex.prototype.readAllTexts = function () {
    return this.readTexts(this.entries);
  };

  // tokens per field over the whole part, as the browser's tokenizer counts them (tests;
  // the texts must have been read: readAllTexts)
  OfflineIndex.prototype.tokenTotals = function () {
    var self = this, totals = {};
    Object.keys(this.part.token_totals).forEach(function (f) {   // the fields whose text it has
      totals[f] = self.entries.reduce(function (sum, e) { return sum + self.tokenize(e[f]).length; }, 0);
    });
    return totals;
  };

  // the value of a word that is a whole number ("91", "ninety"), else null
  OfflineIndex.prototype.numberValue = function (word) {
    var low = word.toLowerCase();
    if (DIGITS.test(low)) return parseFloat(low);
    return Object.prototype.hasOwnProperty.call(this.numberWords, low) ? this.numberWords[low] : null;
  };

  // [first token index, number of tokens, value] of each number `text` states ("twenty-eight")
  OfflineIndex.prototype.numbersIn = function (text, tokens) {
    var out = [], i = 0;
    while (i < tokens.length) {
      var word = text.slice(tokens[i][1], tokens[i][2]);
      var value = this.numberValue(word);
      if (value === null) { i++; continue; }
      if (this.tens.has(word.toLowerCase()) && i + 1 < tokens.length) {
        var next = text.slice(tokens[i + 1][1], tokens[i + 1][2]).toLowerCase();
        var unit = this.tens.has(next) ? 0 : (this.numberValue(next) || 0);
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
  };

  // a word in a synonym phrase: its value for a number ("2 cards" = "two cards"), else its stem
  OfflineIndex.prototype.phraseItem = function (word, stem) {
    var value = this.numberValue(word);
    return value !== null ? String(Math.trunc(value)) : stem;
  };

  // entries stating `value` or a number near it: [Map(docnum -> closeness x unit), weight]
  OfflineIndex.prototype.readNumbers = function () {
    if (!this.numbers) {
      var numbers = this.numbers = new Map();
      decodeNumbers(this.part.numbers).forEach(function (stated, docnum) {
        stated.forEach(function (n) {
          if (!numbers.has(n[0])) numbers.set(n[0], []);
          numbers.get(n[0]).push([docnum, new Set(n[1])]);
        });
      });
      this.numberValues = Array.from(numbers.keys()).sort(function (a, b) { return a - b; });
    }
  };

  // whether an entry of this part states `value` or a number near it (SearchIndex.states_near)
  OfflineIndex.prototype.statesNear = function (value) {
    this.readNumbers();
    var near = this.params.number_near;
    return this.numberValues.some(function (stated) { return closeness(value, stated) >= near; });
  };

  OfflineIndex.prototype.numberDocs = function (value, units) {
    var p = this.params, out = new Map(), close = new Set();
    this.readNumbers();
    var self = this;
    this.numberValues.forEach(function (stated) {          // ascending, as the server looks
      var places = self.numbers.get(stated);
      var near = closeness(value, stated);
      if (near < p.number_near) return;
      places.forEach(function (place) {
        var doc = place[0], statedUnits = place[1];
        if (near >= p.number_exact) close.add(doc);
        var same = !units.size || !statedUnits.size ||
          Array.from(units).some(function (u) { return statedUnits.has(u); });
        var score = same ? near : near * p.unit_miss;
        if (score > (out.get(doc) || 0.0)) out.set(doc, score);
      });
    });
    if (out.size) return [out, Math.log(1 + this.nEntries / (1 + close.size))];
    // no entry here states it: as rare as can be if the other part does, else it counts little
    return [out, this.otherPart && this.otherPart.statesNear(value) ? Math.log(1 + this.nEntries) : 0.3];
  };

  // stem of one word as the server's analyzer gives it (null for a stop word)
  OfflineIndex.prototype.stem = function (word) {
    var low = word.toLowerCase();
    var known = this.words.get(low);
    if (known !== undefined) return known === 0 ? null : known;
    var folded = fold(low, this.foldTable);
    known = this.words.get(folded);
    if (known !== undefined) return known === 0 ? null : known;
    if (this.stop.has(folded)) return null;
    return /^[a-z'’]+$/.test(folded) ? porter2(folded) : folded;
  };

  // [stem, start, end] of each indexed word of `text`
  OfflineIndex.prototype.tokenize = function (text) {
    var out = [], m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) {
      var st = this.stem(m[0]);
      if (st !== null) out.push([st, m.index, m.index + m[0].length]);
    }
    return out;
  };

  OfflineIndex.prototype.entryIdf = function (df) {
    return Math.log(1 + (this.n - df + 0.5) / (df + 0.5));
  };

  OfflineIndex.prototype.idf = function (field, term) {
    var plist = this.postingList(field, term);
    var df = plist ? plist.length : 0;
    return Math.log(1 + (this.n - df + 0.5) / (df + 0.5));
  };

  // a term's BM25F weight in each entry holding it, its fields summed (title, body, context):
  // the part of its score that does not depend on the query (Postings.term_weights)
  OfflineIndex.prototype.termWeights = function (term) {
    var known = this.weightCache.get(term);
    if (known) return known;
    var k1 = this.params.k1, b = this.params.b, self = this, acc = new Map();
    Object.keys(this.boosts).forEach(function (field) {
      var plist = self.postingList(field, term);
      if (!plist) return;
      var fboost = self.boosts[field];
      // a sparse field (the questions) counts a term's rarity among all the entries
      var idf = self.sparse.has(field) ? self.entryIdf(self.dfOf(term)) : self.idf(field, term);
      var li = self.fields.indexOf(field), avg = self.avg[field], lengths = self.lengths, width = self.fields.length;
      plist.forEach(function (p) {
        var doc = p[0], tf = p[1];
        var norm = tf + k1 * (1 - b + b * lengths[doc * width + li] / avg);
        acc.set(doc, (acc.get(doc) || 0.0) + fboost * idf * tf * (k1 + 1) / norm);
      });
    });
    var out = Array.from(acc.entries());
    if (this.maxPostings && out.length > this.maxPostings) {
      // the entries where the term weighs most, in entry order (SearchIndex max_postings)
      out = out.slice().sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; }).slice(0, this.maxPostings);
      out.sort(function (a, b) { return a[0] - b[0]; });
      this.kept.set(term, new Set(out.map(function (dw) { return dw[0]; })));
    }
    this.weightCache.set(term, out);
    return out;
  };

  // the entries holding `term` in `field` that a phrase is looked for in
  OfflineIndex.prototype.phraseCandidates = function (field, term) {
    var plist = this.postingList(field, term) || [];
    this.termWeights(term);                                 // decides what a truncated term keeps
    var kept = this.kept.get(term);
    return kept ? plist.filter(function (p) { return kept.has(p[0]); }) : plist;
  };

  OfflineIndex.prototype.typos = function (stem) {
    if (this.typoCache.has(stem)) return this.typoCache.get(stem);
    var out = [];
    if (stem.length >= 4 && !this.vocab.has(stem) && !(this.knownWords && this.knownWords.has(stem)) &&
        ALPHA.test(stem)) {
      out = (this.byFirst.get(stem.charAt(0)) || []).filter(function (w) {
        return Math.abs(w.length - stem.length) <= 1 && withinOneEdit(stem, w);
      }).sort();    // sorted, as the server lists them
    }
    this.typoCache.set(stem, out);
    return out;
  };

  OfflineIndex.prototype.extensions = function (stem) {
    if (this.extCache.has(stem)) return this.extCache.get(stem);
    var out = [];
    if (stem.length >= 4 && ALPHA.test(stem)) {
      out = (this.byFirst.get(stem.charAt(0)) || []).filter(function (w) {
        return (stem.length < w.length && w.length <= stem.length + 3 && w.indexOf(stem) === 0) ||
          (4 <= w.length && w.length < stem.length && stem.length <= w.length + 3 && stem.indexOf(w) === 0);
      }).sort();
      // a word the rules know extends only to words they know too (SearchIndex._extensions)
      var known = this.knownWords;
      if (known && known.has(stem)) out = out.filter(function (w) { return known.has(w); });
    }
    this.extCache.set(stem, out);
    return out;
  };

  // one group per query word, or per synonym phrase; alts: Map(joined stems -> [stems, boost])
  OfflineIndex.prototype.groups = function (text) {
    var self = this, groups = [], m;
    var words = [];
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) words.push([m[0], self.stem(m[0])]);
    function setDefault(alts, stems, boost) {
      var k = stems.join(SEP);
      if (!alts.has(k)) alts.set(k, [stems, boost]);
    }
    words.forEach(function (w) {
      self.caseSensitive.forEach(function (cs) {
        if (w[0].toLowerCase() === cs.word && w[0] === cs.typed) {
          var alts = new Map();
          cs.alts.forEach(function (a) { alts.set(a.join(SEP), [a, cs.boost]); });
          groups.push({ words: w[0], alts: alts, weight: 1.0, factor: 1.0, number: null });
        }
      });
    });
    var tokens = this.tokenize(text);
    var seq = tokens.map(function (t) { return [text.slice(t[1], t[2]), t[0]]; });
    var items = seq.map(function (w) { return self.phraseItem(w[0], w[1]); });
    var numbers = new Map();                                // token index -> [width, value]
    this.numbersIn(text, tokens).forEach(function (n) { numbers.set(n[0], [n[1], n[2]]); });
    var i = 0;
    while (i < seq.length) {
      var n = 1;
      for (var k = Math.min(this.maxPhrase, seq.length - i); k > 1; k--) {
        if (this.synonyms.has(items.slice(i, i + k).join(SEP))) { n = k; break; }
      }
      if (n === 1 && numbers.has(i)) {
        // a number ("91", "twenty-eight"), matched against the numbers entries state
        n = numbers.get(i)[0];
        var value = numbers.get(i)[1], units = new Set();
        seq.slice(i + n, i + n + 2).forEach(function (w) { if (self.numberValue(w[0]) === null) units.add(w[1]); });
        var found = this.numberDocs(value, units), numAlts = new Map();
        setDefault(numAlts, seq.slice(i, i + n).map(function (w) { return w[1]; }), 1.0);
        groups.push({ words: seq.slice(i, i + n).map(function (w) { return w[0]; }).join(" "),
                      alts: numAlts, weight: found[1], factor: 1.0, number: value, near: found[0] });
        i += n;
        continue;
      }
      var key = seq.slice(i, i + n).map(function (w) { return w[1]; });
      var typed = seq.slice(i, i + n).map(function (w) { return w[0]; }).join(" ");
      var alts = new Map();
      setDefault(alts, key, 1.0);
      (this.synonyms.get(items.slice(i, i + n).join(SEP)) || []).forEach(function (alt) { setDefault(alts, alt, 0.8); });
      if (n === 1) {
        this.extensions(key[0]).forEach(function (longer) { setDefault(alts, [longer], 0.4); });
        this.typos(key[0]).forEach(function (typo) {
          setDefault(alts, [typo], 0.6);
          (self.synonyms.get(typo) || []).forEach(function (alt) { setDefault(alts, alt, 0.5); });
        });
      }
      var rarest = 0;
      alts.forEach(function (pair) {
        var stems = pair[0];
        if (!stems.every(function (s) { return self.vocab.has(s); })) return;
        var least = Math.min.apply(null, stems.map(function (s) { return self.dfOf(s); }));
        rarest = Math.max(rarest, least);
      });
      var factor = n === 1 && this.question.has(key[0]) ? this.params.question_factor : 1.0;
      // a word this part lacks but the other part knows is as rare as can be (SearchIndex._rarity)
      var other = this.otherWords, elsewhere = false;
      if (!rarest && other) alts.forEach(function (pair) { if (pair[0].some(function (st) { return other.has(st); })) elsewhere = true; });
      var weight = (rarest ? Math.log(1 + this.nEntries / (1 + rarest))
                    : elsewhere ? Math.log(1 + this.nEntries) : 0.3) * factor;
      groups.push({ words: typed, alts: alts, weight: weight, factor: factor, number: null });
      i += n;
    }
    var most = this.params.max_groups;
    if (groups.length > most) {
      // a long question: its most informative words, each once, in their order (ties: the first)
      var firstOf = new Map();
      groups.forEach(function (g, k) { var w = g.words.toLowerCase(); if (!firstOf.has(w)) firstOf.set(w, k); });
      var order = Array.from(firstOf.values());
      order.sort(function (a, b) { return groups[b].weight - groups[a].weight || a - b; });
      var kept = new Set(order.slice(0, most));
      groups = groups.filter(function (g, k) { return kept.has(k); });
    }
    return groups;
  };

  OfflineIndex.prototype.groupDocs = function (g) {
    if (g.number !== null) return g.near;
    var self = this, docs = new Set();
    g.alts.forEach(function (pair) {
      var alt = pair[0];
      var found = self.termDocs(alt[0]);
      for (var j = 1; j < alt.length; j++) {
        var other = self.termDocs(alt[j]);
        found = new Set(Array.from(found).filter(function (d) { return other.has(d); }));
      }
      found.forEach(function (d) { docs.add(d); });
    });
    return docs;
  };

  OfflineIndex.prototype.candidates = function (groups, text, groupDocs) {
    var self = this, scores = new Map(), question = new Set(), p = this.params;
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
        self.termWeights(pair[0][0]).forEach(function (dw) {
          scores.set(dw[0], (scores.get(dw[0]) || 0) + pair[1] * g.factor * dw[1]);
        });
      });
    });
    var phrases = [];
    groups.forEach(function (g) {
      g.alts.forEach(function (pair) { if (pair[0].length > 1) phrases.push(pair); });
    });
    var stems = this.tokenize(text).map(function (t) { return t[0]; });
    var chosen = new Set();                                 // a long question's chosen words
    groups.forEach(function (g) { g.alts.forEach(function (pair) { pair[0].forEach(function (st) { chosen.add(st); }); }); });
    for (var i = 0; i + 1 < stems.length; i++) {
      if (stems[i] !== stems[i + 1] && chosen.has(stems[i]) && chosen.has(stems[i + 1])) {
        var asked = question.has(stems[i]) || question.has(stems[i + 1]);
        phrases.push([[stems[i], stems[i + 1]], 0.6 * (asked ? p.question_factor : 1.0)]);
      }
    }
    var titleBoost = this.boosts.title;
    phrases.forEach(function (pair) {
      var alt = pair[0], boost = pair[1];
      if (!alt.every(function (a) { return self.vocab.has(a); })) return;
      var rarest = alt[0];
      alt.forEach(function (a) { if (self.dfOf(a) < self.dfOf(rarest)) rarest = a; });
      var idf = alt.reduce(function (sum, a) { return sum + self.idf("body", a); }, 0);
      self.phraseCandidates("body", rarest).forEach(function (p) {
        if (hasPhrase(self.stemPositions(self.entries[p[0]], "body"), alt)) scores.set(p[0], (scores.get(p[0]) || 0) + boost * idf);
      });
      self.phraseCandidates("title", rarest).forEach(function (p) {
        if (hasPhrase(self.stemPositions(self.entries[p[0]], "title"), alt)) {
          scores.set(p[0], (scores.get(p[0]) || 0) + boost * idf * titleBoost);
        }
      });
    });
    var best = Array.from(scores.entries());
    best.sort(function (a, b) { return b[1] - a[1]; });    // stable, like Python's sorted
    best = best.slice(0, this.params.candidates);
    var chosen = new Set(best.map(function (dw) { return dw[0]; }));
    this.covering(groups, groupDocs).forEach(function (d) {
      if (!chosen.has(d)) best.push([d, scores.get(d) || 0.0]);
    });
    return best;
  };

  // the entries holding the most of the question among those holding one of its rarest
  // words (SearchIndex._covering): a long card text holding a whole described effect
  OfflineIndex.prototype.covering = function (groups, groupDocs) {
    var p = this.params, words = [];
    groups.forEach(function (g, i) {
      if (g.number === null && g.factor === 1.0 && groupDocs[i].size >= p.rare_min_docs) words.push(i);
    });
    words.sort(function (a, b) { return groups[b].weight - groups[a].weight || a - b; });
    var held = new Map();
    words.slice(0, p.rare_groups).forEach(function (i) {
      if (groupDocs[i].size <= p.rare_docs) groupDocs[i].forEach(function (d) { held.set(d, 0.0); });
    });
    if (!held.size) return [];
    groups.forEach(function (g, gi) {
      if (g.number !== null) return;
      held.forEach(function (w, d) { if (groupDocs[gi].has(d)) held.set(d, w + g.weight); });
    });
    var out = Array.from(held.entries());
    out.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return out.slice(0, p.covering).map(function (dw) { return dw[0]; });
  };

  OfflineIndex.prototype.direct = function (text) {
    var m = SECTION_QUERY.exec(text);
    if (m) return (this.byNumber.get(m[1].toLowerCase()) || []).slice();
    var slug = text.trim().toLowerCase();
    if (SLUG.test(slug)) return (this.byNumber.get(slug) || []).slice();
    return [];
  };

  OfflineIndex.prototype.snippet = function (e, stems, width) {
    width = width || 28;
    var tokens = this.analysed(e).tokens, body = e.body, wanted = new Set(stems);
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
    var snippet = out.join("").replace(/\n/g, " ");
    if (startChar > 0) snippet = "… " + snippet;
    if (endChar < body.trimEnd().length) snippet += " …";
    var url = e.url;
    if ((e.kind === "section" || e.kind === "intro") && hits.length) {
      var anchor = null, at = tokens[best][1];
      e.anchors.forEach(function (a) { if (a[0] <= at) anchor = a[1]; });
      if (anchor && e.anchors.length > 1) url = e.url + "#" + anchor;
    }
    return [snippet, url];
  };

  function checkQuery(text, params) {
    text = (text || "").trim();
    if (!text) throw new Error(t("search.empty_query"));
    if (text.length > params.max_query) {
      throw new Error(t("search.long_query", {length: text.length, max: params.max_query}));
    }
    return text;
  }

  // named: entries the query names (cards), first after a section it names;
  // snippets false: hits without snippets (withSnippet makes one when shown)
  OfflineIndex.prototype.search = function (text, limit, named, snippets) {
    limit = limit || 10;
    text = checkQuery(text, this.params);
    if (snippets === undefined) snippets = true;
    var self = this;
    var direct = this.direct(text);
    (named || []).forEach(function (e) { if (self.byKey.has(e.key)) direct.push(e); });
    var groups = this.groups(text);
    var stemSet = new Set();
    groups.forEach(function (g) { g.alts.forEach(function (pair) { pair[0].forEach(function (s) { stemSet.add(s); }); }); });
    var stems = Array.from(stemSet).sort();
    var hits = [], seen = new Set();
    direct.forEach(function (e) {
      hits.push({ entry: e, score: 1000.0, snippet: snippets ? self.snippet(e, stems)[0] : "", url: e.url });
      seen.add(e.key);
    });
    hits.stems = stems;
    if (!groups.length || hits.length >= limit) { var cut = hits.slice(0, limit); cut.stems = stems; return cut; }
    var total = groups.reduce(function (sum, g) { return sum + g.weight; }, 0) || 1.0;
    // each word's weight in the share that ranks, capped as the server's (coverage_cap)
    var cap = this.coverageCap;
    var capped = groups.map(function (g) { return cap === null ? g.weight : Math.min(g.weight, cap); });
    var cappedTotal = capped.reduce(function (sum, w) { return sum + w; }, 0) || 1.0;
    var groupDocs = groups.map(function (g) { return self.groupDocs(g); });
    var ranked = [];
    this.candidates(groups, text, groupDocs).forEach(function (pair) {
      var e = self.entries[pair[0]];
      if (seen.has(e.key)) return;
      var covered = 0.0, held = 0.0;
      var kin = self.inheritShare ? self.kinOf.get(e.docnum) : undefined;
      groups.forEach(function (g, gi) {
        if (g.number !== null) {
          var near = groupDocs[gi].get(e.docnum) || 0.0;
          covered += g.weight * near;
          held += capped[gi] * near;
        } else if (groupDocs[gi].has(e.docnum)) {
          covered += g.weight;
          held += capped[gi];
        } else if (kin !== undefined && kin.some(function (k) { return groupDocs[gi].has(k); })) {
          covered += self.inheritShare * g.weight;
          held += self.inheritShare * capped[gi];
        }
      });
      var coverage = covered / total;
      held = held / cappedTotal;
      var factor = 1;
      if (self.groupFactor !== 1 && e.doc === "cards" && e.section.charAt(0) === "G") {
        factor = self.groupRulingFactor(groups, e.docnum, covered);
      } else if (self.textFactor !== 1 && e.kind === "card") {
        factor = self.cardTextFactor(groups, e.docnum, covered);
      }
      var score = pair[1] * factor;
      // [score, key, entry, coverage, the order's key (order_power)]
      ranked.push([score * Math.pow(held, self.coveragePower), e.key, e, coverage,
                   score * Math.pow(held, self.orderPower)]);
    });
    ranked.sort(function (a, b) { return b[4] - a[4] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0); });
    // per_section entries of a section first; the rest after every other section (as the server)
    var perSection = new Map(), first = [], later = [];
    for (var i = 0; i < ranked.length; i++) {
      var sec = ranked[i][2].doc + SEP + ranked[i][2].section;
      perSection.set(sec, (perSection.get(sec) || 0) + 1);
      (perSection.get(sec) <= this.params.per_section ? first : later).push(ranked[i]);
    }
    var ordered = first.concat(later);
    for (var j = 0; j < ordered.length && hits.length < limit; j++) {
      var su = snippets ? this.snippet(ordered[j][2], stems) : ["", ordered[j][2].url];
      hits.push({ entry: ordered[j][2], score: Math.round(ordered[j][0] * 1e4) / 1e4, snippet: su[0], url: su[1],
                  coverage: ordered[j][3] });
    }
    return hits;
  };

  // whether an entry is a card of that type, or a group's ruling (Search.entry_types)
  OfflineIndex.prototype.ofType = function (docnum, kind) {
    var bit = this.typeNames ? this.typeNames.indexOf(kind) : -1;
    return bit < 0 || (this.typeMasks[docnum] & (1 << bit)) !== 0;
  };

  OfflineIndex.prototype.withSnippet = function (hit, stems) {
    var su = this.snippet(hit.entry, stems);
    return { entry: hit.entry, score: hit.score, snippet: su[0], url: su[1], coverage: hit.coverage };
  };

  return { Tables: Tables, OfflineIndex: OfflineIndex, checkQuery: checkQuery,
                                  SECTION_QUERY: SECTION_QUERY, SEP: SEP, withinOneEdit: withinOneEdit,
                                  closeness: closeness, fold: fold, porter2: porter2 };
})();

export const { Tables, OfflineIndex, checkQuery, SECTION_QUERY, SEP, withinOneEdit, closeness, fold } = X;
export { porter2 };
