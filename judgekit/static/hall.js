/* The room display (/tournaments/<id>/room, a projector) and the judges' floor view
   (/tournaments/<id>/floor, a phone): the hall's state (GET …/hall), then the stream's
   messages applied to it. The countdowns run from this device's clock, set to the
   server's (live.js: hello and pings), so they keep counting when the network drops; the
   state is read again when the stream says so (a new round, a restart, too much missed).
   Plain JS, no build step. */
import { live as JKLive } from "./live.js";
import { t as tr } from "./i18n.js";   // `t` is a table here

(function () {
  var root = document.querySelector("[data-hall-page]");
  if (!root) return;
  var page = root.getAttribute("data-hall-page");   // "room" or "floor"
  var hallUrl = root.getAttribute("data-hall");
  var hall = null, stream = null, loading = null;
  var me = root.getAttribute("data-me") || "";
  var head = root.getAttribute("data-head") === "1";
  var base = root.getAttribute("data-base") || "";
  var callsApi = root.getAttribute("data-calls-api") || "";
  var closedMine = [];
  var errors = {};

  function $(sel) { return root.querySelector(sel); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function now() { return stream ? stream.now() : Date.now(); }
  function pad(n) { return String(n).padStart(2, "0"); }
  function clockText(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s % 60);
  }
  function hhmm(epoch) { var d = new Date(epoch * 1000); return pad(d.getHours()) + ":" + pad(d.getMinutes()); }
  function waited(epoch) {
    var s = Math.max(0, Math.floor((now() - epoch * 1000) / 1000));
    return Math.floor(s / 60) + ":" + pad(s % 60);
  }

  // --- the state and the messages ------------------------------------------------------------
  function load() {
    if (loading) return loading;
    loading = JKLive.getJSON(hallUrl).then(function (h) {
      hall = h;
      loading = null;
      if (!stream) {
        stream = JKLive.stream(root.getAttribute("data-stream"), h.last_id);
        stream.on(apply);
      }
      drawAll();
    }).catch(function () {
      loading = null;
      setTimeout(load, 5000);   // offline at the start: try again
    });
    return loading;
  }

  function tableOf(n) {
    if (!hall || !hall.round) return null;
    for (var i = 0; i < hall.round.tables.length; i++) if (hall.round.tables[i].table === n) return hall.round.tables[i];
    return null;
  }
  function callOf(id) {
    for (var i = 0; hall && i < hall.calls.length; i++) if (hall.calls[i].call === id) return hall.calls[i];
    return null;
  }

  function apply(msg) {
    var k = msg.kind;
    if (k === "status") { drawNet(); return; }
    if (k === "round.started" || k === "round.closed" || k === "resync" || k === "poll") { load(); return; }
    if (!hall) return;
    var sameRound = hall.round && msg.round === hall.round.round;
    var t = sameRound ? tableOf(msg.table) : null;
    if ((k === "clock.changed" || k === "extension.recorded") && t) {
      t.ends_at = msg.ends_at; t.extended_min = msg.extended_min; t.paused = msg.paused; t.called = msg.called;
    } else if (k === "table.result" && t) {
      t.state = msg.state; t.playing = msg.state === "in-progress";
    } else if (k === "table.finished" && t) {
      if (msg.finished) { t.playing = false; if (t.state === "in-progress") t.state = "finished"; }
      else { load(); return; }
    } else if (k === "call.opened") {
      if (!callOf(msg.call)) {
        hall.calls.push({call: msg.call, round: msg.round, table: msg.table, opened_at: msg.opened_at,
                         status: "open", reason: msg.reason, reason_label: reasonLabel(msg.reason)});
      }
    } else if (k === "call.claimed" || k === "call.reassigned") {
      var c = callOf(msg.call);
      if (c) { c.status = "claimed"; c.claimed_by = msg.by; c.claimed_at = msg.claimed_at; }
    } else if (k === "call.closed") {
      hall.calls = hall.calls.filter(function (c) { return c.call !== msg.call; });
    } else {
      return;
    }
    drawAll();
  }

  var REASONS = {ruling: tr("hall.reason_ruling"), time: tr("hall.reason_time"), deck: tr("hall.reason_deck"), other: tr("hall.reason_other")};
  function reasonLabel(r) { return r ? (REASONS[r] || r) : tr("hall.no_reason"); }

  // --- drawing: shared ---------------------------------------------------------------------------
  function roundName() {
    if (!hall || !hall.round) return tr("hall.between_rounds");
    return hall.round.kind === "final" ? tr("hall.final") : tr("hall.round", {round: hall.round.round});
  }
  function remaining() {
    if (!hall || !hall.round || hall.round.ends_at === null) return null;
    return hall.round.ends_at * 1000 - now();
  }
  function differing() {   // tables whose end time is not the round's (extensions, a clock started late)
    if (!hall || !hall.round) return [];
    var end = hall.round.ends_at;
    return hall.round.tables.filter(function (t) {
      return t.playing && (t.paused || (t.ends_at !== null && end !== null && Math.abs(t.ends_at - end) >= 30));
    });
  }
  function playing() {
    if (!hall || !hall.round) return [];
    return hall.round.tables.filter(function (t) { return t.playing; });
  }
  function tableLine(t) {
    if (t.paused) return tr("hall.clock_paused");
    var text = tr("hall.ends", {time: hhmm(t.ends_at)});
    if (t.extended_min) text += " " + tr("hall.extended", {minutes: t.extended_min});
    var left = t.ends_at * 1000 - now();
    if (remaining() !== null && remaining() <= 0) text = left > 0 ? tr("hall.left", {clock: clockText(left)}) + " · " + text : tr("hall.time");
    return text;
  }

  function drawNet() {
    var net = $("[data-net]");
    if (!net || !stream) return;
    var words = {live: tr("hall.net_live"), polling: tr("hall.net_polling"), reconnecting: tr("hall.net_reconnecting"),
                 down: tr("hall.net_down"), connecting: tr("hall.net_connecting")};
    net.textContent = words[stream.status] || stream.status;
    net.setAttribute("data-state", stream.status);
  }

  function drawClock() {
    var clock = $("[data-clock]"), note = $("[data-clock-note]");
    if (!clock) return;
    var left = remaining();
    var over = left !== null && left <= 0;
    clock.textContent = !hall || !hall.round ? "—" : left === null ? "—" : over ? tr("hall.time") : clockText(left);
    clock.classList.toggle("is-time", over);
    clock.classList.toggle("is-short", clock.textContent.length <= 5);
    clock.classList.toggle("is-last", left !== null && left > 0 && left <= 15 * 60 * 1000);
    if (note) {
      if (!hall || !hall.round) note.textContent = hall ? tr("hall.next_round_soon") : "";
      else if (hall.round.ends_at !== null) note.textContent = tr(over ? "hall.round_ended_at" : "hall.round_ends_at", {time: hhmm(hall.round.ends_at)});
      else note.textContent = "";
    }
    var label = $("[data-round]");
    if (label) label.textContent = roundName();
    root.querySelectorAll("[data-since]").forEach(function (e) { e.textContent = waited(parseFloat(e.getAttribute("data-since"))); });
    root.querySelectorAll("[data-ends]").forEach(function (e) {
      var t = tableOf(parseInt(e.getAttribute("data-ends"), 10));
      if (t) e.textContent = tableLine(t);
    });
  }

  function drawAll() {
    if (page === "room") drawRoom(); else drawFloor();
    drawClock();
    drawNet();
  }

  // --- the room display -------------------------------------------------------------------------
  function fill(box, items) {   // box: a section with a list; hidden when empty
    if (!box) return;
    var list = box.querySelector("ul, ol, p.room-chips");
    list.textContent = "";
    items.forEach(function (i) { list.appendChild(i); });
    box.hidden = items.length === 0;
  }

  function drawRoom() {
    fill($("[data-room-calls]"), (hall ? hall.calls : []).map(function (c) {
      var li = el("li", "room-call is-" + c.status);
      li.appendChild(el("b", null, tr("hall.table", {table: c.table})));
      li.appendChild(el("span", "room-call-state", c.status === "claimed" ? tr("hall.judge_on_the_way") : tr("hall.waiting")));
      return li;
    }));
    fill($("[data-room-ext]"), differing().map(function (t) {
      var li = el("li");
      li.appendChild(el("b", null, tr("hall.table", {table: t.table})));
      var s = el("span", "room-ext-time", tableLine(t));
      s.setAttribute("data-ends", t.table);
      li.appendChild(s);
      return li;
    }));
    var still = playing();
    var box = $("[data-room-playing]");
    if (box) {
      var over = remaining() !== null && remaining() <= 0;
      fill(box, still.map(function (t) { return el("span", "room-chip", String(t.table)); }));
      var title = box.querySelector("h2");
      var total = hall && hall.round ? hall.round.tables.length : 0;
      title.textContent = tr(over ? "hall.still_playing" : "hall.playing", {count: still.length, total: total});
      box.classList.toggle("is-over", over);
    }
  }

  // --- the floor view (judges' phones) --------------------------------------------------------
  function api(path, body) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return fetch(callsApi + path, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json",
                "X-CSRF-Token": meta ? meta.getAttribute("content") : ""},
      body: JSON.stringify(body || {})})
      .then(function (r) { return r.json().then(function (b) { return {ok: r.ok, status: r.status, body: b}; }); });
  }

  function step(c, what, body) {
    errors[c.call] = null;
    return api("/" + c.call + "/" + what, body).then(function (res) {
      var got = res.body.call;
      if (!res.ok) errors[c.call] = res.body.error || tr("hall.refused", {status: res.status});
      if (got) {
        var mine = callOf(got.call);
        if (got.status === "closed") {
          hall.calls = hall.calls.filter(function (x) { return x.call !== got.call; });
          if (res.ok) closedMine.unshift(got);
        } else if (mine) {
          mine.status = got.status; mine.claimed_by = got.claimed_by; mine.claimed_at = got.claimed_at;
        }
      }
      drawAll();
    }).catch(function () {
      errors[c.call] = tr("hall.not_sent");
      drawAll();
    });
  }

  function link(href, text) { var a = el("a", null, text); a.href = href; return a; }

  function callCard(c) {
    var li = el("li", "fcall is-" + c.status);
    li.setAttribute("data-call", c.call);
    var top = el("div", "fcall-head");
    top.appendChild(el("b", "fcall-table", tr("hall.table", {table: c.table})));
    top.appendChild(el("span", "fcall-reason", c.reason_label || reasonLabel(c.reason)));
    var wait = el("span", "fcall-wait", waited(c.opened_at));
    wait.setAttribute("data-since", c.opened_at);
    wait.title = tr("hall.waiting_since", {time: hhmm(c.opened_at)});
    top.appendChild(wait);
    li.appendChild(top);
    li.appendChild(el("p", "fcall-who", c.status === "claimed" ? (c.claimed_by === me ? tr("hall.you_have_it") : tr("hall.judge_has_it", {judge: c.claimed_by})) : tr("hall.nobody_has_it")));
    var t = tableOf(c.table);
    var links = el("p", "fcall-links small");
    if (t && t.game) links.appendChild(link("/games/" + t.game, tr("hall.recorder")));
    links.appendChild(link(base + "/time?table=" + c.table + "#table-" + c.table, tr("hall.clock")));
    if (t && t.players) {
      t.players.forEach(function (p) { links.appendChild(link(base + "/penalties/players/" + p.id, p.name)); });
    }
    li.appendChild(links);
    var acts = el("div", "fcall-actions");
    if (c.status === "open") {
      var claim = el("button", null, tr("hall.claim"));
      claim.type = "button";
      claim.addEventListener("click", function () { claim.disabled = true; step(c, "claim"); });
      acts.appendChild(claim);
    }
    if (c.status === "claimed" && (c.claimed_by === me || head)) {
      var noteId = "note-" + c.call;
      var lab = el("label", "visually-hidden", tr("hall.note_optional"));
      lab.htmlFor = noteId;
      var note = el("input");
      note.id = noteId; note.placeholder = tr("hall.note_optional"); note.maxLength = 500;
      var close = el("button", null, tr("hall.close"));
      close.type = "button";
      close.addEventListener("click", function () { close.disabled = true; step(c, "close", {note: note.value}); });
      // nobody at the table needed a judge: the phone that called is told so
      var bogus = el("button", null, tr("hall.not_needed"));
      bogus.type = "button";
      bogus.title = tr("hall.not_needed_title");
      bogus.addEventListener("click", function () { bogus.disabled = true; step(c, "close", {note: note.value, bogus: true}); });
      acts.appendChild(lab); acts.appendChild(note); acts.appendChild(close); acts.appendChild(bogus);
    }
    if (head) {
      var selId = "to-" + c.call;
      var sl = el("label", "visually-hidden", tr("hall.give_to"));
      sl.htmlFor = selId;
      var sel = el("input");
      sel.id = selId; sel.placeholder = tr("hall.give_to_placeholder"); sel.setAttribute("list", "floor-judges"); sel.maxLength = 80;
      var give = el("button", "secondary", tr("hall.reassign"));
      give.type = "button";
      give.addEventListener("click", function () { if (sel.value.trim()) step(c, "reassign", {judge: sel.value.trim()}); });
      acts.appendChild(sl); acts.appendChild(sel); acts.appendChild(give);
    }
    li.appendChild(acts);
    if (errors[c.call]) { var err = el("p", "fcall-error", errors[c.call]); err.setAttribute("role", "alert"); li.appendChild(err); }
    li.setAttribute("data-key", [c.status, c.claimed_by, errors[c.call] || "", t && t.game, t && t.players ? t.players.length : 0].join("|"));
    return li;
  }

  function drawFloor() {
    var list = $("[data-floor-calls]");
    var calls = hall ? hall.calls.slice().sort(function (a, b) { return a.opened_at - b.opened_at; }) : [];
    var keep = {};
    calls.forEach(function (c, i) {
      var card = callCard(c);
      var old = list.querySelector('[data-call="' + c.call + '"]');
      keep[c.call] = true;
      if (old && old.getAttribute("data-key") === card.getAttribute("data-key")) card = old;   // a note being typed stays
      else if (old) old.replaceWith(card);
      if (list.children[i] !== card) list.insertBefore(card, list.children[i] || null);
    });
    Array.prototype.slice.call(list.children).forEach(function (li) {
      if (!keep[li.getAttribute("data-call")]) li.remove();
    });
    $("[data-no-calls]").hidden = calls.length > 0;
    var count = $("[data-calls-count]");
    if (count) count.textContent = calls.length ? "(" + calls.length + ")" : "";

    var done = $("[data-floor-done]");
    fill(done, closedMine.slice(0, 5).map(function (c) {
      var li = el("li");
      var mins = c.minutes === null || c.minutes === undefined ? null : c.minutes;
      li.appendChild(el("span", null, mins === null ? tr("hall.done_call", {table: c.table})
        : tr("hall.done_call_time", {table: c.table, time: mins < 1 ? tr("hall.under_a_minute") : tr("hall.minutes", {count: mins})}) ));
      var href = base + "/time?table=" + c.table + (mins !== null ? "&judge_minutes=" + mins : "") + "#table-" + c.table;
      li.appendChild(link(href, tr("hall.extend_table", {table: c.table})));
      return li;
    }));

    var tables = $("[data-floor-tables]");
    tables.textContent = "";
    (hall && hall.round ? hall.round.tables : []).forEach(function (t) {
      var li = el("li", "ftable is-" + t.state);
      var a = link(base + "/rounds/" + hall.round.round + "/tables/" + t.table, tr("hall.table", {table: t.table}));
      li.appendChild(a);
      var when = el("span", "ftable-time", t.playing ? tableLine(t) : ({finished: tr("hall.finished"), invalid: tr("hall.invalid"), overridden: tr("hall.overridden")}[t.state] || t.state));
      if (t.playing) when.setAttribute("data-ends", t.table);
      li.appendChild(when);
      if (t.game) li.appendChild(link("/games/" + t.game, tr("hall.recorder_link")));
      tables.appendChild(li);
    });
    $("[data-no-round]").hidden = !!(hall && hall.round);
  }

  function drawNotes(body) {
    var box = $("[data-floor-notes]");
    if (!box) return;
    fill(box, body.items.map(function (n) {
      var li = el("li", "fnote is-" + n.kind);
      var href = n.kind === "penalty-pending" ? base + "/penalties#pending"
        : base + "/rounds/" + n.round + "/tables/" + n.table;
      li.appendChild(link(href, n.text));
      return li;
    }));
  }
  document.addEventListener("jk:notifications", function (e) { if (page === "floor") drawNotes(e.detail); });

  // --- controls ----------------------------------------------------------------------------------
  var full = root.querySelector("[data-fullscreen]");
  if (full) {
    if (!document.fullscreenEnabled) full.hidden = true;
    full.addEventListener("click", function () {
      if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen();
    });
  }
  var mute = root.querySelector("[data-mute]");
  if (mute) {
    mute.checked = JKLive.muted();
    mute.addEventListener("change", function () { JKLive.setMuted(mute.checked); JKLive.unlockAudio(); });
  }

  load();
  setInterval(function () {
    drawClock();
    if (page === "room" && hall) {   // "Time!" and the tables' own countdowns take over at the end
      var over = remaining() !== null && remaining() <= 0;
      if (over !== root.classList.contains("is-over")) { root.classList.toggle("is-over", over); drawRoom(); }
    }
  }, 250);
})();
