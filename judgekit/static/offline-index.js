// One part of the offline search index (the rules, or the cards), ranked as the server's
// judgekit/rules/search.py SearchIndex ranks it: BM25F over the title/body/context fields,
// synonym groups, one-typo and prefix expansion, question words that count for little,
// numbers matched to the numbers a rule states (near ones too), a phrase bonus, coverage
// re-ranking, at most three entries per section before the others, snippets with <mark>.
// The postings and each entry's stems (for phrases) come from the server; an entry's text is
// read from its text file (CHUNK entries a file) and tokenized only when a snippet needs it.
// static/offline-search.js merges the parts and answers the search box.
// This module holds the part itself (its postings, texts, words) and its ranking (`search`);
// the query's groups are offline-query.js's, the numbers offline-numbers.js's, the scoring
// offline-scoring.js's, the snippets offline-snippets.js's: functions taking the part, called
// from its methods. Exports OfflineIndex (pure: no page, no network; tests/js/ runs it in Node).
import porter2 from "./porter2.js";
import { WORD, SEP, own, fold, decodeIds, starts } from "./offline-words.js";
import { checkQuery, sectionsNamed, queryGroups, docsOfGroup } from "./offline-query.js";
import { candidates, groupRulingFactor, cardTextFactor, facetGroups, namedTypes, plainFactor } from "./offline-scoring.js";
import { snippet } from "./offline-snippets.js";
import { nearestFirst } from "./offline-phrasings.js";

export const OfflineIndex = (function () {
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
    this.bodyField = this.fields.indexOf("body");           // the body's place among an entry's lengths
    this.ids = part.tokens;                                  // packed: decoded an entry at a time
    this.starts = { body: starts(this.lengths, width, this.bodyField),
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
    this.firstSentence = !!part.first_sentence;             // the cards: a first sentence's rare words looked through too
    this.perSection = part.per_section || data.params.per_section;   // entries of a section before the others' turn
    this.groupFactor = part.group_factor || 1;              // the cards: a group's rulings rank lower
    this.groupWeight = part.group_weight || 1;              // … and lower again, all of them
    this.facetStems = new Set(part.facet_stems || []);       // the cards: disciplines' and clans' names
    this.facetFactor = part.facet_factor || 1;               // … an entry holding all those named ranks higher
    this.typeStems = part.type_stems || {};                  // the cards: a card type's word's stem -> its types
    this.typeFactor = part.type_factor || 1;                 // … a card of a type named ranks higher
    this.textFactor = part.text_factor || 1;                // the cards: a card's own text ranks lower
    this.plainPower = part.plain_power || 0;                // … and by its length when a plain card is asked for
    this.plainLength = part.plain_length || 0;              // … against the median card text's
    this.plainCap = part.plain_cap || 1;                    // … at most this much higher or lower
    // docnum -> its kin (a card's ruling -> the card, a card -> its rulings), from the
    // (child, parent) pairs: a word its kin hold counts toward an entry's share of the
    // question at inheritShare of its weight (the server's `inherit`)
    this.inheritShare = part.inherit_share || 0;
    // the rules: the first entries of the order re-ordered by their nearest phrasing
    // (offline-phrasings.js; the phrasings' stems, their idf and the packed phrasings)
    this.phrasingFactor = part.phrasings ? part.phrasing_factor : 0;
    this.nearestAmong = part.nearest_among || 0;
    this.phrasingData = part.phrasings ? { stems: part.phrasing_stems, idf: part.phrasing_idf,
                                           packed: part.phrasings } : null;
    // the cards whose name is fewer stems than their title (a vampire's group and version):
    // docnum -> how many of the title's stems (nameStems)
    this.nameLengths = new Map();
    var lengths = part.name_lengths ? decodeIds(part.name_lengths) : [];
    for (var li = 0; li + 1 < lengths.length; li += 2) this.nameLengths.set(lengths[li], lengths[li + 1]);
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
    // a synonym phrase none of whose phrases the part holds is read as its words here
    // (QueryGroups.use_tables: "no discipline" is a card's fact, not the rules' words)
    var vocab = this.vocab;
    this.synonyms = new Map();
    tables.synonyms.forEach(function (alts, key) {
      if (key.indexOf(SEP) < 0 || alts.some(function (alt) { return alt.every(function (st) { return vocab.has(st); }); })) {
        self.synonyms.set(key, alts);
      }
    });
    this.synonymWords = tables.synonymWords;
    this.maxPhrase = tables.maxPhrase;
    this.caseSensitive = data.case_sensitive;
    this.typedAsIs = new Set(data.typed_as_is || []);      // (an index saved before it: none)
    this.question = new Set(data.question.concat(part.question_extra || []));   // and the part's own
    this.numberWords = data.number_words;
    this.tens = new Set(data.number_tens);
    this.numbers = null;                                    // value -> [[docnum, Set(units)]], when first asked
    this.unitWords = null;            // the words saying what a number counts, as Sets (offline-numbers.js)
    this.typoCache = new Map();
    this.synonymTypoCache = new Map();
    this.undoubledCache = new Map();
    this.misendedCache = new Map();
    this.extCache = new Map();
    this.mistypedCache = new Map();     // stem -> a question word mistyped (offline-query.js)
    this.endings = new Set(data.params.endings);   // the endings of a word's other forms (offline-query.js)
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

  OfflineIndex.prototype.dfOf = function (stem) { return this.termDocs(stem).size; };

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

  // the stems of a card's name as its rulings write it, from its title's stems (known before
  // any text file is read): the server's group_rulings.name_stems
  OfflineIndex.prototype.nameStems = function (e) {
    var order = [];
    this.stemPositions(e, "title").forEach(function (places, st) { places.forEach(function (p) { order[p] = st; }); });
    return this.nameLengths.has(e.docnum) ? order.slice(0, this.nameLengths.get(e.docnum)) : order;
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

  // stem of one word as the server's analyzer gives it (null for a stop word)
  OfflineIndex.prototype.stem = function (word) {
    var low = word.toLowerCase();
    var known = this.words.get(low);
    if (known !== undefined) return known === 0 ? null : known;
    var folded = fold(low, this.foldTable);
    known = this.words.get(folded);
    if (known !== undefined) return known === 0 ? null : known;
    if (this.stop.has(folded)) return null;
    // digits too, as whoosh's stemmer takes them ("some1's" -> "some1")
    return /^[a-z0-9'’]+$/.test(folded) ? porter2(folded) : folded;
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

  // named: entries the query names (cards), first after a section it names;
  // snippets false: hits without snippets (withSnippet makes one when shown)
  // given: the query's groups here when already made (groups)
  // docFactors: a document -> the factor its entries' scores are ranked by (SearchIndex.search);
  // plain: the question asks for a plain card (asksPlain; the cards' part ranks by length)
  OfflineIndex.prototype.search = function (text, limit, named, snippets, given, docFactors, plain) {
    limit = limit || 10;
    text = checkQuery(text, this.params);
    if (snippets === undefined) snippets = true;
    var self = this;
    var direct = sectionsNamed(this, text);
    (named || []).forEach(function (e) { if (self.byKey.has(e.key)) direct.push(e); });
    var groups = given || queryGroups(this, text);
    var stemSet = new Set();
    groups.forEach(function (g) { g.alts.forEach(function (pair) { pair[0].forEach(function (s) { stemSet.add(s); }); }); });
    var stems = Array.from(stemSet).sort();
    var hits = [], seen = new Set();
    direct.forEach(function (e) {
      hits.push({ entry: e, score: 1000.0, snippet: snippets ? snippet(self, e, stems)[0] : "", url: e.url, direct: true });
      seen.add(e.key);
    });
    hits.stems = stems;
    if (!groups.length || hits.length >= limit) { var cut = hits.slice(0, limit); cut.stems = stems; return cut; }
    var total = groups.reduce(function (sum, g) { return sum + g.weight; }, 0) || 1.0;
    // each word's weight in the share that ranks, capped as the server's (coverage_cap)
    var cap = this.coverageCap;
    var capped = groups.map(function (g) { return cap === null ? g.weight : Math.min(g.weight, cap); });
    var cappedTotal = capped.reduce(function (sum, w) { return sum + w; }, 0) || 1.0;
    var groupDocs = groups.map(function (g) { return docsOfGroup(self, g); });
    var facets = this.facetFactor === 1 ? [] : facetGroups(this, groups);
    var kinds = this.typeFactor === 1 ? 0 : this.typesMask(namedTypes(this, groups));
    var ranked = [];
    candidates(this, groups, text, groupDocs).forEach(function (pair) {
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
      if ((self.groupFactor !== 1 || self.groupWeight !== 1) && e.doc === "cards" && e.section.charAt(0) === "G") {
        factor = groupRulingFactor(self, groups, e.docnum, covered);
      } else if (self.textFactor !== 1 && e.kind === "card") {
        factor = cardTextFactor(self, groups, e.docnum, covered);
      }
      if (facets.length && facets.every(function (gi) { return groupDocs[gi].has(e.docnum); })) {
        factor *= self.facetFactor;
      }
      if (kinds && self.isOfTypes(e.docnum, kinds)) factor *= self.typeFactor;
      if (plain && self.plainPower && e.kind === "card") factor *= plainFactor(self, e.docnum);
      var score = pair[1] * factor;
      // a document's entries ranked by their scores times its factor (docFactors: document ->
      // factor; SearchIndex.search doc_factors)
      if (docFactors && own.call(docFactors, e.doc)) score *= docFactors[e.doc];
      // [score, key, entry, coverage, the order's key (order_power)]
      ranked.push([score * Math.pow(held, self.coveragePower), e.key, e, coverage,
                   score * Math.pow(held, self.orderPower)]);
    });
    ranked.sort(function (a, b) { return b[4] - a[4] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0); });
    if (this.phrasingFactor) ranked = nearestFirst(this, ranked, groups);
    // per_section entries of a section first; the rest after every other section (as the server)
    var perSection = new Map(), first = [], later = [];
    for (var i = 0; i < ranked.length; i++) {
      var sec = ranked[i][2].doc + SEP + ranked[i][2].section;
      perSection.set(sec, (perSection.get(sec) || 0) + 1);
      (perSection.get(sec) <= this.perSection ? first : later).push(ranked[i]);
    }
    var ordered = first.concat(later);
    for (var j = 0; j < ordered.length && hits.length < limit; j++) {
      var su = snippets ? snippet(this, ordered[j][2], stems) : ["", ordered[j][2].url];
      hits.push({ entry: ordered[j][2], score: Math.round(ordered[j][0] * 1e4) / 1e4, snippet: su[0], url: su[1],
                  coverage: ordered[j][3] });
    }
    return hits;
  };

  // the query's groups (offline-query.js): static/offline-search.js asks whether one is not a
  // question word
  OfflineIndex.prototype.groups = function (text) { return queryGroups(this, text); };

  // each entry's share of the question's weight (docnums; groups: the query's groups here),
  // as a hit's coverage counts it, a word it lacks counting at `inherit` of its weight when
  // the entry `parent` holds it (the server's SearchIndex.shares)
  OfflineIndex.prototype.shares = function (groups, docnums, parent, inherit) {
    var self = this;
    var total = groups.reduce(function (sum, g) { return sum + g.weight; }, 0) || 1.0;
    var held = groups.map(function (g) { return [g.weight, docsOfGroup(self, g), g.number !== null]; });
    return docnums.map(function (d) {
      var got = 0.0;
      held.forEach(function (h) {
        var weight = h[0], docs = h[1], number = h[2];
        if (docs.has(d)) got += number ? weight * docs.get(d) : weight;
        else if (docs.has(parent)) got += inherit * (number ? weight * docs.get(parent) : weight);
      });
      return got / total;
    });
  };

  // whether the entry `docnum` holds the group (the server's SearchIndex.holds)
  OfflineIndex.prototype.holds = function (g, docnum) { return docsOfGroup(this, g).has(docnum); };

  // the share of the groups' weight that at least one of the entries `docnums` holds (1.0 when
  // the groups weigh nothing): the server's SearchIndex.held_by
  OfflineIndex.prototype.heldBy = function (groups, docnums) {
    var self = this, total = 0, got = 0;
    groups.forEach(function (g) { total += g.weight; });
    if (!total) return 1.0;
    groups.forEach(function (g) {
      var docs = docsOfGroup(self, g);
      if (docnums.some(function (d) { return docs.has(d); })) got += g.weight;
    });
    return got / total;
  };

  // the bits of the card types named (typeNames' order), 0 for none
  OfflineIndex.prototype.typesMask = function (kinds) {
    var names = this.typeNames || [], mask = 0;
    kinds.forEach(function (kind) { var bit = names.indexOf(kind); if (bit >= 0) mask |= 1 << bit; });
    return mask;
  };

  // whether an entry is a card of one of the types of `mask`; a group's ruling (of cards of
  // every type: every bit) is not (CardFactors.__call__)
  OfflineIndex.prototype.isOfTypes = function (docnum, mask) {
    var m = this.typeMasks[docnum], every = (1 << this.typeNames.length) - 1;
    return m !== every && (m & mask) !== 0;
  };

  // whether an entry is a card of one of the types of `mask` (`typesMask`, made once for a
  // list of hits), or a group's ruling (every bit) (Search._of_type_first); every entry of
  // an index saved without the types
  OfflineIndex.prototype.ofTypes = function (docnum, mask) {
    if (!this.typeNames) return true;
    var m = this.typeMasks[docnum], every = (1 << this.typeNames.length) - 1;
    return m === every || (m & mask) !== 0;
  };

  OfflineIndex.prototype.withSnippet = function (hit, stems) {
    var su = snippet(this, hit.entry, stems);
    return { entry: hit.entry, score: hit.score, snippet: su[0], url: su[1], coverage: hit.coverage, direct: hit.direct };
  };

  return OfflineIndex;
})();
