// Search the rules and the cards on this device when the server cannot be reached.
//
// offlineSearch(query, limit?) (the default export) -> Promise<{query, took_ms, results, offline: true}>
// with results shaped like GET /api/search ({doc, section, title, url, snippet, score}).
//
// The index (/offline/search-index.json, made by judgekit/offline/search_index.py from the
// server's) carries the rules and the cards as two parts, each with its entries and
// postings, the stem of every word, the stemmed synonym table, the question words, the
// numbers each entry states and the card names. static/offline-index.js ranks one part as
// judgekit/rules/search.py SearchIndex does; this file merges them as its class Search does (rules/card_ranking.py;
// the merge itself is offline-merge.js, as rules/merge.py; a described card's group rulings offline-group-rulings.js)
// (each part by its own statistics, the cards' scores scaled down, a third entry of one
// section yielding to the other part's best), with the cards a query names first (the card
// names table: static/offline-names.js, as judgekit/cards/names.py). The index holds what
// ranking needs; the entries' text is in small files (/offline/search-text/<part>-<n>.json)
// read for the results shown. The index is read as soon as a search page of the published
// copy opens (`preload`), else on the first search; the service worker keeps a copy of every
// file.
// The ranking needs no page: `new internals.Search(data, read)` with read(part, n) -> Promise of
// a text file's JSON is what tests/js/ runs in Node.
import { t } from "./i18n.js";
import porter2 from "./porter2.js";
import { OfflineIndex } from "./offline-index.js";
import { Tables, own, fold, withinOneEdit } from "./offline-words.js";
import { SECTION_QUERY, checkQuery, sentences, spellOutDisciplines, withoutAddress, withoutNameAsked,
         withoutRuledOut, withOneBlood, withNumbersApart, withWhatIf, asksPlain } from "./offline-query.js";
import { closeness } from "./offline-numbers.js";
import { merge, siblingsLater } from "./offline-merge.js";
import { askedGroupRuling, groupRulingAfter, groupRulings, namedCardRuling, otherWords,
         rulingNamingAnother } from "./offline-group-rulings.js";
import { CardNames, nameKey } from "./offline-names.js";
import { site } from "./site.js";

const offlineSearch = (function () {
  var loading = null;

  function indexUrl() {
    var el = document.querySelector("[data-offline-index]");
    return (el && el.getAttribute("data-offline-index")) || "/offline/search-index.json";
  }

  // a file of the index: from the saved copy if this device keeps one (read straight from the
  // cache, without a trip through the service worker), else from the network
  function saved(url) {
    var fresh = function () { return fetch(url); };
    if (!window.caches) return fresh();
    return caches.match(url).then(function (r) { return r || fresh(); }, fresh);
  }

  function getJson(url, what) {
    return saved(url).then(function (r) {
      if (!r.ok) throw new Error(what + " answered " + r.status);
      return r.json();
    });
  }

  // a text file's address: beside the index, with the index's version (?v=)
  function textUrl(part, n) {
    var url = indexUrl(), q = url.indexOf("?");
    var path = q < 0 ? url : url.slice(0, q), query = q < 0 ? "" : url.slice(q);
    return path.replace(/search-index\.json$/, "search-text/" + part + "-" + n + ".json") + query;
  }

  // performance marks of the index's first reading (the bench prints where the time goes)
  function mark(name) { if (globalThis.performance && performance.mark) performance.mark("judgekit-index-" + name); }

  // the index as parsed JSON: from static/offline-early.js when the page started reading it
  // as it opened (the published copy's home page), else read here
  function readIndex() {
    var url = indexUrl(), early = window.judgekitIndexEarly;
    if (early && early.url === url) {
      window.judgekitIndexEarly = null;                   // once: a failed read is tried again here
      return early.data;
    }
    mark("fetch");
    return saved(url).then(function (r) {
      if (!r.ok) throw new Error("the offline index answered " + r.status);
      return r.text();
    }).then(function (text) {
      mark("read");
      var data = JSON.parse(text);
      mark("parsed");
      return data;
    });
  }

  function load() {
    if (!loading) {
      loading = readIndex().then(function (data) {
        mark("setup");
        var search = new Search(data);
        mark("ready");
        return search;
      });
      loading.catch(function () { loading = null; });   // try again next time
    }
    return loading;
  }

  // --- the search box: the parts merged (judgekit/rules/card_ranking.py Search, rules/merge.py merge) -----------------
  function Search(data, read) {
    var tables = new Tables(data);
    this.data = data;
    this.params = data.params;
    function reader(part) {
      if (read) return function (n) { return read(part, n); };
      return function (n) { return getJson(textUrl(part, n), "the offline index's text"); };
    }
    this.rules = new OfflineIndex(data, data.parts.rules, tables, reader("rules"));
    this.cards = data.parts.cards ? new OfflineIndex(data, data.parts.cards, tables, reader("cards")) : null;
    // the rules' words are not typos in the cards (SearchIndex.known_words)
    if (this.cards) {
      this.cards.knownWords = this.rules.vocab;
      this.cards.otherWords = this.rules.vocab;          // the words the other part holds
      this.rules.otherWords = this.cards.vocab;
      this.cards.otherPart = this.rules;                 // and its numbers (statesNear)
      this.rules.otherPart = this.cards;
    }
    this.names = data.card_names && this.cards ? new CardNames(data.card_names) : null;
    this.cardGroups = data.card_groups || {};
    this.spellings = data.discipline_spellings || {};    // "for/pre" (spellOutDisciplines)
    this.rulings = null;
    this.entries = this.rules.entries.concat(this.cards ? this.cards.entries : []);
  }

  // each section (a card's or a group's id) -> its ruling keys, in order; made once
  Search.prototype.rulingsBySection = function () {
    if (!this.rulings) {
      var by = new Map();
      this.cards.entries.forEach(function (e) {
        if (e.kind !== "ruling") return;
        if (!by.has(e.section)) by.set(e.section, []);
        by.get(e.section).push(e.key);
      });
      var n = function (k) { return parseInt(k.slice(k.lastIndexOf("#r") + 2), 10); };
      by.forEach(function (keys) { keys.sort(function (a, b) { return n(a) - n(b); }); });
      this.rulings = by;
    }
    return this.rulings;
  };

  // the card's first rulings: its own, then its groups' (Search.own_rulings)
  Search.prototype.ownRulings = function (card) {
    var self = this, rulings = this.rulingsBySection();
    var max = this.params.own_rulings, keys = (rulings.get(card.section) || []).slice();
    (this.cardGroups[card.section] || []).forEach(function (gid) {
      if (keys.length < max) keys = keys.concat(rulings.get(gid) || []);
    });
    return keys.slice(0, max).map(function (k) { return self.cards.byKey.get(k); });
  };

  // the cards the query names (none for a section number: Search._names_found)
  Search.prototype.namesFound = function (text) {
    if (!this.names || !this.cards || SECTION_QUERY.test(text)) return [];
    return this.names.hits(text);
  };

  // the cards the query names (`found`); a query that is only names (`only`) has each card's
  // rulings after it
  Search.prototype.namedWithRulings = function (found, only) {
    var self = this;
    var named = found.map(function (h) { return self.cards.byKey.get("cards/" + h.id); })
      .filter(function (e) { return e; });
    if (!only) return named;
    return [].concat.apply([], named.map(function (e) { return [e].concat(self.ownRulings(e)); }));
  };

  Search.prototype.namedCards = function (text) {
    if (!this.names || !this.cards) return [];
    var self = this;
    return this.names.find(text).map(function (id) { return self.cards.byKey.get("cards/" + id); })
      .filter(function (e) { return e; });
  };

  // --- what is said about an answer (judgekit/rules/answer.py) -----------------------------
  // a sub-question's mark ("1)", "b.", "(2)") at the start or after a space, a space after it
  // (the server's answer.PART_MARK, written without a look-behind, which older phones' Safari
  // rejects: the space before a mark is matched (group 1) and left out of the mark, the space
  // after it only looked at, so that the next mark can start there)
  var PART_MARK = /(^|\s)\(?(?:\d{1,2}|[a-hA-H])[).](?=\s)/g;

  // the numbered sub-questions of a message ("1) … 2) …"), when it has at least two; else []
  function splitQuestions(text, p) {
    var marks = [], m;
    PART_MARK.lastIndex = 0;
    while ((m = PART_MARK.exec(text)) !== null) marks.push([m.index + m[1].length, m.index + m[0].length]);
    if (marks.length < 2) return [];
    var parts = [];
    marks.forEach(function (mk, i) {
      var part = text.slice(mk[1], i + 1 < marks.length ? marks[i + 1][0] : text.length).trim();
      if (part) parts.push(part);
    });
    return parts.length >= 2 ? parts.slice(0, p.max_parts) : [];
  }

  // a word that names something (not only question words and filler: "what happens if")
  Search.prototype.informative = function (text) {
    return this.rules.groups(text).some(function (g) { return g.factor === 1.0; });
  };

  // whether the hit's entry holds a word of the question that names something, not only its
  // numbers and question words (answer.py says_a_word)
  Search.prototype.saysAWord = function (hit, text) {
    var read = this.read(text);
    var cards = this.cards && hit.entry.doc === "cards";
    var part = cards ? this.cards : this.rules;
    return part.groups(cards ? read.cardText : read.text).some(function (g) {
      return g.number === null && g.factor === 1.0 && part.holds(g, hit.entry.docnum);
    });
  };

  // how good the first of the hits is (answer.py match_of): `saysAWord(hit)`, whether it
  // holds a word of the question that names something
  function matchOf(hits, p, saysAWord) {
    if (!hits.length) return "none";
    var first = hits[0];
    return first.direct || (first.coverage >= p.weak_coverage && saysAWord(first)) ? "good" : "weak";
  }

  // the rules' words for the rarest everyday words of the question (answer.suggestions)
  Search.prototype.suggestions = function (text) {
    var rules = this.rules, p = this.params, tables = this.data.everyday, out = [], words = 0;
    var groups = rules.groups(text).filter(function (g) { return g.number === null && g.factor === 1.0; });
    var order = groups.map(function (g, k) { return k; });
    order.sort(function (a, b) { return groups[b].weight - groups[a].weight || a - b; });
    function inOwnText(st) {
      return ["body", "title", "context"].some(function (f) { return own.call(rules.packed[f], st); });
    }
    for (var i = 0; i < order.length && words < p.everyday_words; i++) {
      var g = groups[order[i]], stems = g.alts.values().next().value[0];
      if (stems.every(inOwnText)) continue;
      var typed = g.words.toLowerCase();
      var found = (own.call(tables.synonyms, typed) && tables.synonyms[typed]) ||
        (stems.length === 1 && own.call(tables.titles, stems[0]) ? tables.titles[stems[0]] : []);
      if (!found.length) continue;
      words += 1;
      found.forEach(function (phrase) {
        var low = phrase.toLowerCase();
        if (low !== typed && !out.some(function (x) { return x.toLowerCase() === low; })) out.push(phrase);
      });
    }
    return out.slice(0, p.max_suggestions);
  };

  // the answer: hits with snippets, how well they match, the rules' words to try, and each
  // numbered sub-question's best (Promise; as judgekit/rules/answer.py answer)
  Search.prototype.answer = function (text, limit) {
    var self = this, p = this.params;
    text = checkQuery(text, p);
    var ranked = this.rank(text, limit);
    var named = ranked.length && ranked[0].direct;
    if (!named && !this.informative(text)) {
      return Promise.resolve({ hits: [], match: "none", suggestions: [], parts: [] });
    }
    var parts = splitQuestions(text, p).filter(function (q) { return self.informative(q); })
      .map(function (q) { return [q, self.rank(q, p.part_results)]; });
    var match;
    if (parts.length) {
      match = parts.every(function (pr) {
        return matchOf(pr[1], p, function (h) { return self.saysAWord(h, pr[0]); }) === "good";
      }) ? "good" : "weak";
    } else match = matchOf(ranked, p, function (h) { return self.saysAWord(h, text); });
    // none when a card's entry comes first (answer.py: the rules' words do not find a card)
    var lead = [].concat.apply([], parts.map(function (pr) { return pr[1]; })).concat(ranked)[0];
    var said = match !== "good" && !(lead && lead.entry.doc === "cards") ? this.suggestions(text) : [];
    return Promise.all([this.withSnippets(ranked)].concat(parts.map(function (pr) {
      return self.withSnippets(pr[1]);
    }))).then(function (shown) {
      var hits = shown[0], partHits = shown.slice(1);
      if (parts.length) {
        var first = [].concat.apply([], partHits), keys = new Set(first.map(function (h) { return h.entry.key; }));
        hits = first.concat(hits.filter(function (h) { return !keys.has(h.entry.key); })).slice(0, limit);
      }
      return { hits: hits, match: match, suggestions: said,
               parts: parts.map(function (pr, i) { return [pr[0], partHits[i]]; }) };
    });
  };

  // the ranked hits with their snippets: Promise (the texts of the hits shown are read first)
  Search.prototype.search = function (text, limit) {
    return this.withSnippets(this.rank(text, limit));
  };

  Search.prototype.withSnippets = function (ranked) {
    var self = this;
    mark("ranked");
    var byPart = [[this.rules, []], [this.cards, []]];
    ranked.forEach(function (h) { byPart[self.rules.byKey.has(h.entry.key) ? 0 : 1][1].push(h.entry); });
    return Promise.all(byPart.filter(function (pe) { return pe[1].length; }).map(function (pe) {
      return pe[0].readTexts(pe[1]);
    })).then(function () {
      mark("texts");
      self.readRestWhenIdle();
      return ranked.map(function (h) {
        var part = self.rules.byKey.has(h.entry.key) ? self.rules : self.cards;
        return part.withSnippet(h, ranked.stems[part === self.rules ? 0 : 1]);
      });
    });
  };

  // after the first search, the other text files one at a time while the phone is idle: the
  // next searches then read none
  Search.prototype.readRestWhenIdle = function () {
    if (this.idleReading) return;
    this.idleReading = true;
    var todo = [];
    [this.rules, this.cards].forEach(function (part) {
      if (!part) return;
      for (var n = 0; n * part.chunk < part.entries.length; n++) todo.push([part, n]);
    });
    var idle = globalThis.requestIdleCallback || function (f) { return setTimeout(f, 200); };
    function next() {
      var item = todo.shift();
      if (item) idle(function () { item[0].readChunk(item[1]).then(next, next); });
    }
    next();
  };

  // the cards' hits with those of a card type of `kind` first ("location": masters and
  // equipment), and the groups' rulings (Search._of_type_first)
  Search.prototype.ofTypeFirst = function (hits, kind) {
    var cards = this.cards, named = [], fits = [], others = [];
    var mask = cards.typesMask(this.names.cardTypes(kind));   // 0 for an index saved without the types
    hits.forEach(function (h) {
      if (h.direct) named.push(h);
      else (cards.ofTypes(h.entry.docnum, mask) ? fits : others).push(h);
    });
    var out = named.concat(fits, others);
    out.stems = hits.stems;
    return out;
  };

  // how the parts read a question (Search.read): the rules' text, the cards' text (without
  // what it rules out) and whether it closes by asking for a card's name (a card told of)
  Search.prototype.read = function (text) {
    var addressed = withoutAddress(checkQuery(text, this.params));
    var bare = withoutNameAsked(addressed, this.params);
    var read = withOneBlood(spellOutDisciplines(withNumbersApart(withWhatIf(bare, this.params), this.params),
                                                this.spellings), this.params);
    return { text: read, cardText: withoutRuledOut(read, this.params), asksName: bare !== addressed };
  };

  // the ranked hits without their snippets (the part's stems for them: `.stems`)
  Search.prototype.rank = function (text, limit) {
    limit = limit || 10;
    var read = this.read(text), asksName = read.asksName;
    text = read.text;
    var out;
    if (!this.cards) {
      out = this.rules.search(text, limit, [], false);
      out.stems = [out.stems, null];
      return out;
    }
    var self = this, p = this.params;
    var cardText = read.cardText;
    var found = this.namesFound(cardText);
    var only = found.length > 0 && this.names.onlyNames(cardText, found);
    var named = this.namedWithRulings(found, only);
    // room for the other answers beside the cards a question names, cut at the end (Search.search)
    var shownLimit = limit;
    if (found.length && !only) limit += found.length;
    // a card described by its type, or asked for by it in a last sentence of its own
    // (Search._described_type)
    var parts = sentences(text, p.question_after_colon);
    var kind = this.names ? this.names.describedType(text) : null;
    if (this.names && kind === null && parts.length > 1) kind = this.names.closingAskType(parts[parts.length - 1]);
    // a question about cards ranks the announcement guidelines lower (Search.search)
    var aboutCards = !!(this.names && this.names.mentionsCardWords(text));
    var rulesHits = this.rules.search(text, limit, [], false, undefined, aboutCards ? p.about_cards_doc_factors : undefined);
    var cardGroups = this.cards.groups(cardText);
    var cardHits = this.cards.search(cardText, kind ? Math.max(limit, p.typed_candidates) : limit, named, false,
                                     cardGroups, undefined, asksPlain(cardText, p));
    if (kind) cardHits = this.ofTypeFirst(cardHits, kind);
    var direct = rulesHits.filter(function (h) { return h.direct; })
      .concat(cardHits.filter(function (h) { return h.direct; }));
    var restR = rulesHits.filter(function (h) { return !h.direct; });
    // a card described by its type, at the start or further on (a judge call), or asked for
    // by its type or its name in a closing ask: the cards' scores weigh more, and no rule
    // leads a card (Search.search)
    var told = !!kind || asksName || !!(this.names && this.names.describesCard(text));
    // (parts: a message of several sentences naming a discipline or a clan: more)
    var factor = told ? p.described_card_factor :
      aboutCards ? (parts.length > 1 ? p.about_cards_message_factor || p.about_cards_factor : p.about_cards_factor) :
      p.card_factor;
    var restC = cardHits.filter(function (h) { return !h.direct; }).map(function (h) {
      return { entry: h.entry, score: Math.round(h.score * factor * 1e4) / 1e4, snippet: "", url: h.url,
               coverage: h.coverage };
    });
    out = merge(direct, restR, restC, limit, p, aboutCards, told);
    if (p.group_ruling_after_card) {
      // a sentence's groups, made once here when a step needs them (both read the last)
      var cards = this.cards, made = new Map();
      var groupsOf = function (t) {
        if (!made.has(t)) made.set(t, cards.groups(t));
        return made.get(t);
      };
      out = groupRulingAfter(this, out, cardGroups, limit, parts.length > 1, parts.length ? parts[parts.length - 1] : "",
                             groupsOf);
      out = askedGroupRuling(this, out, parts, limit, groupsOf);
    }
    if (!only) {
      out = namedCardRuling(this, out, text, found, cardGroups, limit);
      out = rulingNamingAnother(this, out, found, cardGroups, limit);
      out = this.namedSecond(out, text, found, cardGroups);
    }
    out = siblingsLater(out, p.distinct_first || 0).slice(0, shownLimit);
    out.stems = [rulesHits.stems, cardHits.stems];
    return out;
  };

  // the keys of the cards the query names (`found`, among other words) whose text and rulings
  // (their own, their groups') hold less than named_held of the question's other words
  // (Search._named_in_passing)
  Search.prototype.namedInPassing = function (text, found, groups) {
    var passing = new Set(), self = this;
    var rulings = this.rulingsBySection();
    var rest = otherWords(groups, this.names.nameWords(text, found));
    if (rest.length < this.params.named_among) return passing;   // a name and a word or so: the card first
    found.forEach(function (h) {
      var card = self.cards.byKey.get("cards/" + h.id);
      if (!card) return;
      var keys = [card.key].concat(rulings.get(card.section) || [], groupRulings(self, card));
      var docnums = keys.map(function (k) { return self.cards.byKey.get(k).docnum; });
      if (self.cards.heldBy(rest, docnums) < self.params.named_held) passing.add(card.key);
    });
    return passing;
  };

  // the hits with the cards named in passing after the best other answer, weighed only when a
  // named card is first, when that answer holds more of the question's other words than the
  // first named card's own entry; the named cards not in passing first (Search._named_second)
  Search.prototype.namedSecond = function (hits, text, found, groups) {
    if (!hits.length || !hits[0].direct || !this.cards.byKey.has(hits[0].entry.key)) return hits;
    var passing = this.namedInPassing(text, found, groups);
    var isPassing = function (h) { return h.direct && passing.has(h.entry.key); };
    var named = hits.filter(isPassing), rest = hits.filter(function (h) { return !isPassing(h); });
    var lead = rest.findIndex(function (h) { return !h.direct; });
    if (lead < 0) lead = rest.length;
    if (!named.length || lead >= rest.length) return hits;
    var names = this.names.nameWords(text, found), best = rest[lead].entry.key;
    var part = this.cards.byKey.has(best) ? this.cards : this.rules;
    var held = part.heldBy(otherWords(part === this.cards ? groups : part.groups(text), names),
                           [part.byKey.get(best).docnum]);
    if (held <= this.cards.heldBy(otherWords(groups, names), [this.cards.byKey.get(named[0].entry.key).docnum])) return hits;
    return rest.slice(0, lead + 1).concat(named, rest.slice(lead + 1));
  };

  function now() { return (globalThis.performance && performance.now) ? performance.now() : Date.now(); }

  var offlineSearch = function (query, limit) {
    function failed(message) { return { query: query, took_ms: 0, results: [], offline: true, error: message }; }
    function missing(err) { return failed(t("offline_search.no_index", {reason: err.message})); }
    return load().then(function (ix) {
      var started = now(), asked;
      try {
        asked = ix.answer(query, limit || 12);
      } catch (err) {
        return failed(err.message);                 // the query itself (empty, too long)
      }
      function results(hits) {
        return hits.map(function (h) {
          return { doc: h.entry.doc, section: h.entry.section, title: h.entry.title,
                   url: h.url, snippet: h.snippet, score: h.score };
        });
      }
      return asked.then(function (found) {
        return {
          query: query,
          took_ms: Math.round((now() - started) * 100) / 100,
          results: results(found.hits),
          match: found.match,
          suggestions: found.suggestions,
          parts: found.parts.map(function (pr) { return { question: pr[0], results: results(pr[1]) }; }),
          offline: true
        };
      }, missing);
    }, missing);
  };

  // what the tests compare with the server's index: the tokenizer must count the same words
  offlineSearch.stats = function () {
    var ix, parts;
    return load().then(function (loaded) {
      ix = loaded;
      parts = [ix.rules].concat(ix.cards ? [ix.cards] : []);
      return Promise.all(parts.map(function (x) { return x.readAllTexts(); }));
    }).then(function () {
      return { entries: ix.entries.length, version: ix.data.version,
               token_totals: parts.map(function (x) { return x.tokenTotals(); }),
               expected_totals: parts.map(function (x) { return x.part.token_totals; }),
               stems: parts.map(function (x) { return x.vocab.size; }) };
    });
  };
  // the cards a query names, as the browser finds them (the tests compare with the server)
  offlineSearch.namedCards = function (query) {
    return load().then(function (ix) { return ix.namedCards(query).map(function (e) { return e.section; }); });
  };
  offlineSearch.load = load;
  // read the index while the phone is idle, so that the first search typed does not wait
  // for it (the published copy, whose search always runs here; a page that went offline)
  offlineSearch.preload = function () {
    var start = function () { load().catch(function () {}); };
    if (globalThis.requestIdleCallback) requestIdleCallback(start, { timeout: 3000 }); else setTimeout(start, 500);
  };
  if (typeof document !== "undefined" && document.querySelector("[data-live-search]")) {
    // the published copy's search always runs here: read the index as the page opens, so
    // that the judge's first word does not wait for it
    if (site) load().catch(function () {});
    else {
      import("./offline.js").then(function (m) {    // the page's own (loaded already)
        m.net.onChange(function (online) { if (!online) offlineSearch.preload(); });
      });
    }
  }
  offlineSearch.internals = { porter2: porter2, withinOneEdit: withinOneEdit, fold: fold,
                                             closeness: closeness, nameKey: nameKey,
                                             Search: Search, CardNames: CardNames, splitQuestions: splitQuestions,
                                             matchOf: matchOf, sentences: sentences, withoutAddress: withoutAddress,
                                             withoutNameAsked: withoutNameAsked, withoutRuledOut: withoutRuledOut,
                                             withOneBlood: withOneBlood, withNumbersApart: withNumbersApart,
                                             withWhatIf: withWhatIf,
                                             asksPlain: asksPlain };
  return offlineSearch;
})();

export default offlineSearch;
export const internals = offlineSearch.internals;
