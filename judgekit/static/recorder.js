/* The table recorder page: the table, the next steps, the forms, quick entry, the log and
   the clock. Plain JS, no build step. What the page knows of the game and how it talks to
   the server (first load, the answers to entries, the polls, the outbox) is in
   recorder-sync.js (`makeGame`): this file draws `game.view` whenever it
   changes (`changed(seqs)`) and sends entries with `game.send(events)`, which end in the
   same POST /api/games/<id>/events as any API client. */
import { makeGame, text as texts } from "./recorder-sync.js";
import { fields } from "./recorder-fields.js";
import { entry as makeEntry } from "./recorder-entry.js";
import { outbox } from "./offline-queue.js";
import { net } from "./offline.js";
import { t as tr } from "./i18n.js";   // `t` is a time in places here

(function () {
  var root = document.getElementById("rec");
  if (!root) return;
  var SEATS = JSON.parse(root.dataset.seats);
  var CAP = +root.dataset.cap;
  var GUIDANCE = JSON.parse(root.dataset.guidance);
  var chosen = null;   // the seat tapped in the table drawing: the next button acts for it
  var $ = function (id) { return document.getElementById(id); };
  var game = makeGame(root, {changed: changed, say: say, refused: function (field, text) {
    if (entry && entry.isOpen()) entry.showRefusal(field, text);
  }});
  var view = null;     // game.view once loaded
  var PRACTICE = root.dataset.practice === "1";       // a practice game: its own clock, started here
  var ROUND = {start: parseFloat(root.dataset.roundStart) || null, limit: parseFloat(root.dataset.roundLimit) || null};
  var VOCABULARY = JSON.parse(root.dataset.vocabulary || "{}");

  // A signed-in judge (a tournament's game) records under their name; the server puts it on
  // every entry whatever the page sends. A practice game: the name kept on this device.
  var SIGNED_IN = game.signedIn;
  var judge = game.judge;
  // the chips, the suggestions and the forms (recorder-fields.js, recorder-entry.js)
  var F = fields(game.request);
  var entry = makeEntry({root: root, seats: SEATS, fields: F, vocabulary: VOCABULARY,
    view: function () { return view; }, send: send, say: say, once: once, practice: PRACTICE,
    chosen: function () { return chosen; }, forChosen: forChosen});
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "class") e.className = attrs[k]; else e.setAttribute(k, attrs[k]);
    }
    if (text != null) e.textContent = text;
    return e;
  }
  function who(seat) { return seat ? SEATS[seat - 1] + " (" + seat + ")" : ""; }
  function say(msg, isError) {
    var m = $("rec-msg");
    m.textContent = msg || "";
    m.classList.toggle("is-error", !!isError);
  }

  // --- sending ----------------------------------------------------------------------------
  function send(events, label) {
    // an entry: kept on this device first (the outbox), sent in order; the answer redraws the page.
    // `label`: the words tapped for it, shown while it waits to be sent (optional).
    // A chosen seat lasts one entry: it is cleared as the entry is made, so a seat tapped
    // while the answer is on its way is the next entry's.
    if (chosen) choose(null);
    return game.send(events, label);
  }
  var busy = {};
  function once(key, fn) {
    // a second tap on the same button while its entry is on its way is the same tap (a
    // double tap): ignored. (One that comes after the answer is refused by the server if it
    // repeats the entry within a moment of it: 409 "tapped twice".)
    if (busy[key]) { busy[key] = "twice"; say(tr("recorder.tapped_twice")); return; }
    busy[key] = "once";
    Promise.resolve(fn()).then(function (ok) {
      if (busy[key] === "twice" && ok) say(tr("recorder.recorded_once"));
      busy[key] = false;
    }, function () { busy[key] = false; });
  }

  // --- rendering ------------------------------------------------------------------------
  function changed(seqs) {
    // the view changed: seqs are the lines that did (null: all of them, a first load)
    view = game.view;
    render(seqs);
  }
  function render(seqs) {
    var st = view.state;
    renderSeats(st);
    $("rec-status").textContent = st.status || "";
    renderNext(st);
    if (seqs) updateLog(seqs); else renderLog();
    renderRecent();
    tick();
    var over = st.game_over || (st.finished ? {words: tr("recorder.game_over_words"), stored: true} : null);
    readOnly(over);
    var b = $("rec-banner");
    if (over) {
      b.hidden = false;
      b.textContent = over.stored ? tr("recorder.over_stored") : tr("recorder.over_unscored");
    } else if (st.time.called) {
      b.hidden = false;
      b.textContent = tr(st.time.over ? "recorder.over_by_time" : "recorder.time_called_ends", {ends: st.time.ends});
    } else b.hidden = true;
  }
  function readOnly(over) {
    // a game that has ended takes no more declarations: no seat to tap, no "more" buttons,
    // no quick entry; the log's corrections and Undo stay (and the step that records the end)
    root.classList.toggle("is-over", !!over);
    if (over && chosen) choose(null);
    document.querySelectorAll(".rec-seat").forEach(function (node) { node.disabled = !!over; });
    $("rec-more").hidden = !!over;
    $("rec-input").hidden = !!over;
    $("rec-line").querySelector(".rec-send").hidden = !!over;
    document.querySelector(".rec-help").hidden = !!over;
  }

  function renderSeats(st) {
    var n = SEATS.length, a = st.action, turn = st.turn;
    var acting = turn.ended || st.game_over ? null : turn.seat;   // a game over: no one acts
    var actor = acting ? st.seats[acting - 1] : null;
    document.querySelectorAll(".rec-seat").forEach(function (node) {
      var s = +node.dataset.seat, info = st.seats[s - 1];
      // Seat 1 at the bottom, play goes clockwise (your prey sits on your left); a seat
      // at the side stays on the screen (the box is wider than the gap at 360 px).
      var angle = Math.PI / 2 + (s - 1) * 2 * Math.PI / n;
      var half = Math.ceil(node.offsetWidth / 2) + 2;
      node.style.left = "clamp(" + half + "px, " + (50 + 39 * Math.cos(angle)) + "%, calc(100% - " + half + "px))";
      node.style.top = (50 + 40 * Math.sin(angle)) + "%";
      var tags = [];
      if (info.out) tags.push(info.out_words || info.out);   // "ousted", "withdrew", "conceded"
      if (s === acting) tags.push(tr("recorder.tag_acting"));
      if (actor && s === actor.prey) tags.push(tr("recorder.tag_prey"));
      if (actor && s === actor.predator) tags.push(tr("recorder.tag_predator"));
      if (a && a.target_seat === s) tags.push(tr("recorder.tag_target"));
      if (a && a.answers && a.answers[s]) tags.push(a.answers[s]);   // "no block", "blocking", "blocked"…
      if (info.pending_replace) tags.push(tr("recorder.tag_to_replace"));
      if (st.edge === s) tags.push(tr("recorder.tag_edge"));
      node.querySelector(".rec-seat-tags").textContent = tags.join(" · ");
      node.classList.toggle("is-acting", s === acting);
      node.classList.toggle("is-target", !!(a && a.target_seat === s));
      var waiting = a && a.actor_passed && !a.blocked && a.attempting == null &&
        a.eligible.filter(function (x) { return a.done.indexOf(x) < 0; })[0] === s;
      node.classList.toggle("is-waiting", !!waiting);
      node.classList.toggle("is-out", !!info.out);
    });
    var c = $("rec-center");
    c.textContent = "";
    if (!turn.seat) { c.appendChild(el("b", {}, tr("recorder.not_started"))); return; }
    c.appendChild(el("b", {}, tr("recorder.turn", {number: turn.number, name: SEATS[turn.seat - 1]})));
    c.appendChild(el("div", {}, turn.ended ? tr("recorder.turn_ended") : tr("recorder.phase", {phase: turn.phase})));
    if (a) {
      // what the action is now, in words: after a Deflection, the new target
      c.appendChild(el("div", {"class": "rec-center-action"}, a.words));
      if (st.combat) c.appendChild(el("div", {}, tr("recorder.combat_round", {round: st.combat.round})));
      else if (a.polling) c.appendChild(el("div", {}, tr("recorder.referendum")));
    } else if (st.game_over) c.appendChild(el("div", {}, st.game_over.stored ? tr("recorder.game_over") : tr("recorder.game_over_score_it")));
  }

  // --- the chosen seat --------------------------------------------------------------------
  function choose(seat) {
    chosen = seat || null;
    document.querySelectorAll(".rec-seat").forEach(function (node) {
      var on = +node.dataset.seat === chosen;
      node.classList.toggle("is-chosen", on);
      node.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var chip = $("rec-chosen");
    chip.hidden = !chosen;
    chip.querySelector(".rec-chosen-text").textContent = chosen ?
      tr("recorder.next_for", {name: SEATS[chosen - 1], seat: chosen}) : "";
    if (view) renderNext(view.state);
  }
  document.querySelectorAll(".rec-seat").forEach(function (node) {
    node.addEventListener("click", function () {
      var s = +node.dataset.seat;
      choose(s === chosen ? null : s);
    });
  });
  $("rec-chosen-clear").addEventListener("click", function () { choose(null); });
  document.addEventListener("keydown", function (ev) {
    // Escape: a form open closes (back to the table); else the chosen seat is let go
    if (ev.key !== "Escape") return;
    if (entry.isOpen()) { entry.close(); window.scrollTo(0, 0); } else if (chosen) choose(null);
  });

  function forChosen(step) {
    // the step made the chosen seat's (the engine gives its label for any seat: for_seat)
    if (!chosen || !step.for_seat) return step;
    var label = step.for_seat.split("{who}").join(tr("recorder.who_seat", {name: SEATS[chosen - 1], seat: chosen}))
      .split("{name}").join(SEATS[chosen - 1]);
    return Object.assign({}, step, {label: label, event: Object.assign({}, step.event, {seat: chosen}), chosen: true});
  }

  function renderNext(st) {
    entry.renderDeck(st);
    var more = $("rec-more");
    if (!more.childNodes.length) buildMore();
  }

  function buildMore() {
    var more = $("rec-more");
    // the chosen seat if one is, else the acting seat (Card…, Stop talk) or the form's first
    var acting = function () { return chosen || (view && view.state.turn.seat); };
    var items = [
      [tr("recorder.more_card"), function () { entry.cardForm(acting(), null); }],
      [tr("recorder.more_reaction"), function () { entry.reactionForm(chosen); }],
      [tr("recorder.more_redirect"), function () { entry.redirectForm(chosen); }],
      [tr("recorder.more_replace"), function () { ask(tr("recorder.ask_replace"), {type: "card.replace", seat: chosen || acting()}, ["seat"]); }],
      [tr("recorder.more_minion_in"), function () { ask(tr("recorder.ask_minion_in"), {type: "minion.in", seat: chosen || acting()}, ["seat", "minion"]); }],
      [tr("recorder.more_interrupt"), function () { ask(tr("recorder.ask_interrupt"), {type: "interrupt", seat: chosen}, ["seat", "window", "card"]); }],
      [tr("recorder.more_talk"), function () { ask(tr("recorder.ask_talk"), {type: "talk", seat: chosen}, ["seat", "kind", "text"]); }],
      [tr("recorder.more_stop_talk"), function () { once("talk.stop", function () { return send([{type: "talk.stop", seat: acting()}]); }); }],
      [tr("recorder.more_oust"), function () { ask(tr("recorder.ask_oust"), {type: "oust", seat: chosen}, ["seat"]); }],
      // one clock: a tournament's table runs on the round's, started by the organizer
      PRACTICE ? [tr("recorder.more_start_clock"), function () { once("game.start", function () { return send([{type: "game.start"}]); }); }] : null,
      PRACTICE ? [tr("recorder.more_pause"), function () {   // a tournament's round clock is not paused at a table
        var c = view.state.clock;
        once("pause", function () { return send([{type: c.paused ? "time.resume" : "time.pause"}]); }); }] : null,
      [tr("recorder.more_extend"), extensionForm],
      [tr("recorder.more_time_call"), function () { if (confirm(tr("recorder.confirm_time_call"))) once("time.call", function () { return send([{type: "time.call"}]); }); }],
      [tr("recorder.more_note"), function () { ask(tr("recorder.ask_note"), {type: "note"}, ["text"]); }]
    ].filter(Boolean);
    if (!SIGNED_IN) items.push([tr("recorder.judge", {name: judge()}), function (btn) {   // signed in: shown at the top
      var name = prompt(tr("recorder.prompt_judge"), judge());
      if (name) { localStorage.setItem("judgekit.judge", texts.cut(name, 80)); btn.textContent = tr("recorder.judge", {name: judge()}); }
    }]);
    items.forEach(function (item) {
      var b = el("button", {type: "button"}, item[0]);
      b.addEventListener("click", function () { item[1](b); });
      more.appendChild(b);
    });
  }

  function ask(title, base, names, done) {
    return entry.ask(title, base, names, done);
  }
  function extensionForm() {
    // the judge's time at the table suggests the minutes (v2 guidance); past the cap, said so
    entry.ask(tr("recorder.ask_extension"), {type: "time.extend"}, ["judge_minutes", "minutes", "reason"], null, function (form, ctl) {
      var hint = el("p", {"class": "rec-ask-hint"}, tr("recorder.guidance", {rows: GUIDANCE.map(function (g) {
        return (g.judge_minutes < 1 ? tr("recorder.under_one_min") : tr("recorder.about_min", {minutes: g.judge_minutes})) + " → " +
          (g.range[1] ? "+" + g.range[0] + (g.range[1] !== g.range[0] ? "–" + g.range[1] : "") : tr("recorder.none"));
      }).join("; ")}) + " " + tr("recorder.cap_rule", {cap: CAP}));
      form.insertBefore(hint, form.querySelector(".rec-ask-buttons"));
      var jm = form.querySelector("[name=judge_minutes]");
      var update = function () {
        var m = +jm.value, r = m < 1 ? [0, 0] : m <= 3 ? [2, 2] : m <= 5 ? [3, 5] : [5, 10];
        if (ctl.get("minutes") === "" || ctl.values["auto:minutes"]) ctl.set("minutes", r[0] || "", {auto: true, quiet: true});
        var total = (view.state.clock.extended_min || 0) + (+ctl.get("minutes") || 0);
        hint.textContent = tr("recorder.suggested", {minutes: r[1] ? (r[1] !== r[0] ? tr("recorder.plus_range", {from: r[0], to: r[1]})
                                                                  : tr("recorder.plus_min", {minutes: r[0]})) : tr("recorder.no_extension")}) +
          (total > CAP ? " — " + tr("recorder.over_cap", {cap: CAP, total: total}) : "");
      };
      jm.addEventListener("input", update);
      // past the cap, recorded only on a second, confirming tap (as on the tournament's time page)
      var warned = null, ok = form.querySelector("button[type=submit]");
      form.oninput = function () { if (warned) { warned.remove(); warned = null; ok.textContent = tr("recorder.record"); } };
      form.onclick = function (ev) {   // a chip that changes the minutes asks again
        if (warned && ev.target.closest("[data-field=minutes]")) form.oninput();
      };
      ctl.spec.build = function (event) {
        var total = (view.state.clock.extended_min || 0) + (event.minutes || 0);
        if (total > CAP && !warned) {
          warned = el("p", {"class": "rec-ask-warn", role: "alert"}, tr("recorder.would_have", {total: total}) + " " +
            tr("recorder.cap_rule", {cap: CAP}));
          form.insertBefore(warned, form.querySelector(".rec-ask-buttons"));
          ok.textContent = tr("recorder.record_over_cap");
          ok.focus();
          return null;
        }
        return [event];
      };
    });
  }

  // text with each card the server says the entry names (e.cards: {name, url}) as a link
  // to the card's page: one tap from a log line or a finding to the card's rulings
  function withCardLinks(text, cards) {
    var frag = document.createDocumentFragment(), names = (cards || []).slice();
    names.sort(function (a, b) { return b.name.length - a.name.length; });   // longest first
    var rest = text;
    while (rest) {
      var best = null, at = -1;
      names.forEach(function (c) {
        var i = rest.indexOf(c.name);
        if (i >= 0 && (at < 0 || i < at)) { best = c; at = i; }
      });
      if (!best) { frag.appendChild(document.createTextNode(rest)); break; }
      if (at) frag.appendChild(document.createTextNode(rest.slice(0, at)));
      frag.appendChild(el("a", {"class": "rec-card", href: best.url}, best.name));
      rest = rest.slice(at + best.name.length);
    }
    return frag;
  }

  var NAME_FIELDS = {card: "card", target_card: "card", minion: "minion", vampire: "minion", target: "minion"};
  function summaryNode(e) {
    // the log line in words, each card or minion name it says in a span of its own
    // (data-name, data-kind): the place where a name can become a link to its card page
    var text = e.summary || "", frag = document.createDocumentFragment();
    var fields = e.corrected || e, marks = [];
    Object.keys(NAME_FIELDS).forEach(function (k) {
      var n = fields[k];
      if (typeof n !== "string" || !n) return;
      var at = text.indexOf(n);
      if (at >= 0 && !marks.some(function (m) { return at < m.end && at + n.length > m.at; })) {
        marks.push({at: at, end: at + n.length, name: n, kind: NAME_FIELDS[k]});
      }
    });
    marks.sort(function (x, y) { return x.at - y.at; });
    var pos = 0;
    marks.forEach(function (m) {
      frag.appendChild(document.createTextNode(text.slice(pos, m.at)));
      frag.appendChild(el("span", {"class": "rec-name", "data-name": m.name, "data-kind": m.kind}, m.name));
      pos = m.end;
    });
    frag.appendChild(document.createTextNode(text.slice(pos)));
    return frag;
  }
  function lineNode(e) {
    // one log line: what was recorded (as corrected), when and by whom, its findings
    var amended = e.amended_by && e.amended_by.length;
    var li = el("li", {"data-seq": e.seq, "class": (e.retracted ? "is-retracted" : "") +
      (amended ? " is-amended" : "") + (e.type === "amend" ? " is-correction" : "")});
    // the line is a button: a tap opens it to be corrected (an amend) or taken back
    var sum = el("button", {type: "button", "class": "rec-sum", title: tr("recorder.tap_to_correct")});
    sum.appendChild(el("span", {"class": "rec-seq"}, "#" + e.seq));
    sum.appendChild(summaryNode(e));   // as corrected, if amended
    sum.addEventListener("click", function () { entry.amend(game.line(e.seq) || e, li); });
    li.appendChild(sum);
    if (amended) li.appendChild(el("div", {"class": "rec-was"}, tr("recorder.was", {summary: e.original_summary})));
    var t = e.time ? new Date(e.time) : null;
    var meta = el("div", {"class": "rec-meta"}, (t ? t.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"}) : "") +
      " · " + (e.judge || tr("recorder.anonymous")) + (e.retracted ? " · " + tr("recorder.retracted") : "") +
      (amended ? " · " + tr("recorder.amended_by", {seqs: e.amended_by.map(function (n) { return "#" + n; }).join(", ")}) : ""));
    li.appendChild(meta);
    // the cards the line names, as links beside it (the line itself is a button: no link inside)
    (e.cards || []).forEach(function (c) {
      meta.appendChild(document.createTextNode(" · "));
      meta.appendChild(el("a", {"class": "rec-card", href: c.url, title: tr("recorder.card_title")}, c.name + " ›"));
    });
    (e.findings || []).forEach(function (f) {
      var box = el("div", {"class": "rec-f rec-f-" + f.severity, "data-finding": e.seq + ":" + f.code, "data-code": f.code});
      box.appendChild(el("span", {"class": "rec-f-title", title: f.code}, f.title || f.code));
      box.appendChild(withCardLinks(" " + f.message + " ", e.cards));
      var link = el("a", {href: f.url}, tr("recorder.rule_link"));
      box.appendChild(link);
      if (f.infraction) box.appendChild(el("div", {"class": "rec-meta"}, tr("recorder.suggests", {infraction: f.infraction}) +
        (f.binding === true ? " · " + tr("recorder.binding") : f.binding === false ? " · " + tr("recorder.not_binding") : "")));
      var pen = el("span", {"class": "rec-penalty", "data-finding": e.seq + ":" + f.code});
      if (root.dataset.penalty) pen.appendChild(el("a", {"class": "rec-penalty-link",  // tournament games: one tap to the form
        href: root.dataset.penalty + "?event=" + e.seq + "&code=" + encodeURIComponent(f.code)}, tr("recorder.penalty")));
      box.appendChild(pen);
      li.appendChild(box);
    });
    return li;
  }
  var RECENT = 2;   // the log lines shown under the status line
  function renderRecent() {
    // the last lines standing (not taken back, not corrections: a corrected line shows as
    // corrected), newest first, each a button that opens its correction right there
    var list = $("rec-recent-list"), shown = [];
    for (var i = view.events.length - 1; i >= 0 && shown.length < RECENT; i--) {
      var e = view.events[i];
      if (e && !e.retracted && e.type !== "amend" && e.type !== "retract") shown.push(e);
    }
    var open = list.querySelector("#rec-ask"), openLi = open && open.parentNode;
    var openSeq = openLi ? +openLi.dataset.seq : null;
    list.textContent = "";
    shown.forEach(function (e) {
      var li = el("li", {"data-seq": e.seq, "class": e.amended_by && e.amended_by.length ? "is-amended" : ""});
      var sum = el("button", {type: "button", "class": "rec-sum", title: tr("recorder.tap_to_correct")});
      sum.appendChild(el("span", {"class": "rec-seq"}, "#" + e.seq));
      var text = el("span", {"class": "rec-recent-text"});
      text.appendChild(summaryNode(e));
      sum.appendChild(text);
      var n = (e.findings || []).length;
      if (n) sum.appendChild(el("span", {"class": "rec-recent-f"}, " ⚠ " + n + (n > 1 ? " findings" : " finding")));
      sum.appendChild(el("span", {"class": "rec-recent-edit", "aria-hidden": "true"}, "✎"));
      sum.addEventListener("click", function () { entry.amend(game.line(e.seq) || e, li); });
      li.appendChild(sum);
      if (open && openSeq === e.seq) li.appendChild(open);   // a correction being made stays open
      list.appendChild(li);
    });
    if (open && !open.parentNode) entry.close();   // its line left the strip: the form goes home
    $("rec-recent").hidden = !shown.length;
  }
  function renderLog() {
    // the whole log, newest first (a first load)
    var log = $("rec-log");
    log.textContent = "";
    var frag = document.createDocumentFragment();
    for (var i = view.events.length - 1; i >= 0; i--) frag.appendChild(lineNode(view.events[i]));
    log.appendChild(frag);
    if (game.outbox) game.outbox.decorate(log);   // entries not yet sent, on top
  }
  function updateLog(seqs) {
    // only the lines that changed: replaced where they are, new ones on top of the stored ones
    var log = $("rec-log");
    seqs.slice().sort(function (a, b) { return a - b; }).forEach(function (seq) {
      var node = lineNode(view.events[seq - 1]);
      var old = log.querySelector('li[data-seq="' + seq + '"]');
      if (old) {
        var open = old.querySelector("#rec-ask");   // a correction being made there stays open
        if (open) node.appendChild(open);
        old.replaceWith(node);
        return;
      }
      var top = log.querySelector("li[data-seq]");   // the newest stored line (queued ones sit above it)
      if (top) log.insertBefore(node, top); else log.appendChild(node);
    });
    if (game.outbox) game.outbox.decorate(log);
  }

  // --- the clock ------------------------------------------------------------------------
  function fmt(s) {
    var neg = s < 0; s = Math.abs(Math.round(s));
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
    return (neg ? "+" : "") + (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(sec).padStart(2, "0");
  }
  function hhmm(epoch) { return new Date(epoch * 1000).toTimeString().slice(0, 5); }
  function tick() {
    if (!view) return;
    var c = view.state.clock, box = $("rec-clock");
    var now = game.now();
    var time = box.querySelector(".rec-clock-time"), note = box.querySelector(".rec-clock-note");
    box.className = "rec-clock";
    var left;
    if (c.started_at == null && !PRACTICE) {
      // one clock: a tournament's table runs on its round's (start + limit + this table's
      // extensions), the one the organizer's clocks page shows
      var limit = ROUND.limit || c.limit_min;
      if (!ROUND.start) {
        time.textContent = fmt((limit + c.extended_min) * 60);
        note.textContent = tr("recorder.clock_round_not_started");
        return;
      }
      var ends = ROUND.start + (limit + c.extended_min) * 60;
      left = ends - (c.called_at != null ? Math.min(now, c.called_at) : now);
      time.textContent = left >= 0 ? fmt(left) : tr("recorder.clock_over", {clock: fmt(left)});
      note.textContent = c.called ? tr("recorder.clock_called") : (c.extended_min ? tr("recorder.plus_min", {minutes: c.extended_min}) +
        (c.over_cap ? " " + tr("recorder.clock_over_cap") : "") : tr("recorder.clock_round")) + " · " + tr("recorder.clock_ends", {time: hhmm(ends)});
    } else if (c.started_at == null) {
      time.textContent = fmt((c.limit_min + c.extended_min) * 60);
      note.textContent = tr("recorder.clock_not_started");
      return;
    } else {
      var at = c.paused_at != null ? c.paused_at : now;
      if (c.called_at != null) at = Math.min(at, c.called_at);
      left = (c.limit_min + c.extended_min) * 60 - (at - c.started_at - c.paused_total_s);
      time.textContent = left >= 0 ? fmt(left) : tr("recorder.clock_over", {clock: fmt(left)});
      note.textContent = c.called ? tr("recorder.clock_called") : c.paused ? tr("recorder.clock_paused") :
        (c.extended_min ? tr("recorder.plus_min", {minutes: c.extended_min}) + (c.over_cap ? " " + tr("recorder.clock_over_cap") : "")
                        : tr("recorder.clock_min_round", {minutes: c.limit_min})) +
        (c.ends_at && !c.called ? " · " + tr("recorder.clock_ends", {time: hhmm(c.ends_at)}) : "");
    }
    if (c.called) box.classList.add("is-called");
    else if (left < 0) box.classList.add("is-over");
    else if (left < 600) box.classList.add("is-low");
  }
  function roundStart() {
    // a tournament's table before its round starts: ask now and then when it did
    if (PRACTICE || ROUND.start || !root.dataset.clockApi || document.visibilityState !== "visible") return;
    game.request("GET", root.dataset.clockApi).then(function (res) {
      var c = res.ok && res.data && res.data.clock;
      if (c && c.round_started_at) { ROUND.start = c.round_started_at; ROUND.limit = c.limit_min; tick(); }
    }).catch(function () {});
  }

  // --- quick entry and name suggestions ---------------------------------------------------
  var CRYPT_VERBS = /^(?:\d\s+)?(bleed|hunt|equip|recruit|employ|political|pol|leave|rescue|diablerie|anarch|act|action|other|block|in|out|react|play|transfer|cancel|wake|vote|strike)\s+([^+@=*:~^#!"]*)$/i;
  function lineContext(line) {
    // what the end of the quick-entry line is naming: a card (+ or ^), a target (@) or a minion
    var stmt = line.split(";").pop().replace(/^\s+/, "");
    var m = /([+^])([^+@=*:~^#!"]*)$/.exec(stmt);
    if (m) return {kind: "library", text: m[2], start: line.length - m[2].length};
    m = /@([A-Za-z][^+@=*:~^#!"]*)$/.exec(stmt);
    if (m) return {kind: "minion", text: m[1], start: line.length - m[1].length};
    m = CRYPT_VERBS.exec(stmt);
    if (m && m[2].trim()) {
      var words = m[2].replace(/^\d+\s+|\b(for|against|abstain)\s+/gi, "");
      return {kind: "minion", text: words, start: line.length - words.length};
    }
    return null;
  }
  var input = $("rec-input");
  var lineKind = "minion";
  F.suggest(input, {
    box: $("rec-suggest"),
    kind: null,
    prefix: function (value) {
      var ctx = lineContext(value);
      lineKind = ctx ? ctx.kind : null;
      return ctx;
    },
    kindOf: function () { return lineKind; },
    local: function () { return lineKind === "library" ? cardsOnTable() : onTable(); },
    pick: function (name) {
      var ctx = lineContext(input.value);
      if (ctx) input.value = input.value.slice(0, ctx.start) + name + " ";
      input.focus();
    }
  });
  function onTable() {
    // the minions the table has heard of: in play, seen acting, named as a target or in a vote
    var out = [];
    (view ? view.state.seats : []).forEach(function (s) {
      (s.minions || []).forEach(function (m) { if (out.indexOf(m.name) < 0) out.push(m.name); });
    });
    entry.heard().forEach(function (n) { if (out.indexOf(n) < 0) out.push(n); });
    return out;
  }
  function cardsOnTable() {
    // the library cards already played at this table (a few letters of one bring it up first)
    var out = [];
    (view ? view.state.seats : []).forEach(function (s) {
      (s.cards || []).forEach(function (c) { if (out.indexOf(c) < 0) out.push(c); });
    });
    return out;
  }
  $("rec-line").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var line = input.value.trim();
    if (!line) return;
    // kept on the device first, then parsed and sent in order (the outbox)
    if (chosen) choose(null);
    game.sendLine(line).then(function (ok) {
      if (ok && input.value.trim() === line) { input.value = ""; $("rec-suggest").textContent = ""; }
    });
  });
  $("rec-undo").addEventListener("click", function () { once("undo", undo); });
  function undo() {
    var outbox = game.outbox;
    if (outbox && outbox.pendingCount()) {   // the newest unsent entry never reached the record
      return outbox.dropLast().then(function (out) {
        if (out.dropped) { say(tr("recorder.dropped_unsent")); return true; }
        // it was on its way meanwhile. Landed: Undo takes it back from the record. Refused:
        // its refusal is on the status line and the entry before it is not touched.
        return out.landed ? retractLast() : false;
      });
    }
    return retractLast();
  }
  function retractLast() {
    // the last entry (a line or a button: every event it stored), retracted in one request
    var seqs = (view && view.last_entry) || [];
    if (!seqs.length) { say(tr("recorder.nothing_to_undo")); return; }
    var what = seqs.map(function (seq) {
      var e = view.events.filter(function (x) { return x.seq === seq; })[0] || {};
      return "#" + seq + " " + (e.summary || e.type || "");
    }).join("; ");
    return send(seqs.map(function (seq) { return {type: "retract", target: seq, reason: "undo"}; }),
                tr("recorder.undo_of", {what: what})).then(function (ok) {
      if (ok === true) say(tr("recorder.undone", {what: what}));
      else if (ok === "queued") say(tr("recorder.undo_queued", {what: what}));
    });
  }

  function fixQueued(item, done) {
    // a refused entry, corrected: a line goes back into the box; one event opens its form
    if (!item.events) { input.value = item.line; input.focus(); done(); return; }
    var e = item.events[0], base = {};
    Object.keys(e).forEach(function (k) { if (k !== "client_id") base[k] = e[k]; });
    var shape = VOCABULARY[e.type] || {fields: {}};
    var names = Object.keys(base).filter(function (k) { return k === "seat" || k in shape.fields; });
    ask(tr("recorder.fix_title", {what: e.type || tr("recorder.entry")}), base, names, done);
  }

  game.outbox = outbox(game.api, {
    request: game.request, apply: game.apply, say: say, findingsLine: game.findingsLine,
    lastActive: game.lastActive, refusal: game.refusal, serialize: game.enqueue, stamp: game.stamp,
    fix: fixQueued, seats: SEATS, net: net, rerender: function () { game.outbox.decorate($("rec-log")); }
  });
  var loadingNote = $("rec-msg").textContent;
  game.start().then(function () {
    // Send and Undo come to life once the game is loaded (the page's markup keeps them
    // disabled: a line sent before would reload the page and be lost, or be read without
    // the game); what was typed meanwhile is still in the box
    $("rec-line").querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    if ($("rec-msg").textContent === loadingNote) say("");
    root.setAttribute("data-ready", "");
  });
  setInterval(tick, 1000);
  setInterval(roundStart, 30000);
})();
