/* The recorder page's forms: one builder for every entry form (a field per event field,
   each with its chips — the seat's minions and cards, numbers, choices — and, when typed,
   its suggestions right under it), how a tap on a chip fills a field or records the entry,
   and the sending of an entry through the page's double-tap guard. Plain JS, no build step;
   recorder-entry.js and its parts (recorder-action-forms.js, recorder-combat-forms.js,
   recorder-votes.js) build the forms of each declaration with it.

   form(ctx) (exported) -> {open(spec), close(), isOpen(), current(), field(name, value,
     extra), words(name), coerce(field, value), record(key, events, after, label), backToTable(),
     ACTIONS, WITH_CARD, STRIKES}
   ctx: {fields (recorder-fields.js `fields`), send(events, label), once(key, fn), vocabulary (the page's: each
     type's seat rule and required fields), table: {live(), name(seat), minionsAt(seat),
     minionNames(first), cardsAt(seat), allCards(first)}}

   Record checks the built events against the vocabulary's required fields first: an empty
   one is said next to its field (role=alert, focused) and nothing is sent; showRefusal(field,
   text) puts a server's refusal next to the open form's field the same way.

   A form's spec: {title, base (the event so far), fields: [field], record (the field whose
   chips record at once, when the `required` fields are filled), required, hint(ctl),
   build(event, ctl) -> events | null (null: not sent), done(), anchor (the log line to open
   in; else the form takes the place of the next steps), focus (the field to type in),
   compact (chips beside their labels, a box on "other…"), setup(form, ctl),
   extra: [[label, fn(ctl)]], submitLabel}.
   A field: {name, kind: "seats"|"choice"|"number"|"name"|"text"|"select"|"toggle", value,
   options (or options(ctl)), chips(ctl) -> [name or [value, label, hint]], suggest
   ("minion"|"library"), local(ctl) (names on the table, suggested first), show(ctl),
   change(value, ctl, how), selectOnly(value, ctl) (a chip that chooses, not records),
   seats(ctl), inserts(ctl) (words a tap adds to a text), label, step, next (typed next: after
   a chip or suggestion fills the field before it, the focus moves to the first empty field
   that is required or `next`)}. */
import { has, t } from "./i18n.js";
const made = (function () {
  var ACTIONS = ["bleed", "hunt", "political", "card", "equip", "recruit", "employ", "leave-torpor", "rescue", "diablerie", "anarch", "other"]
    .map(function (k) { return [k, t("recorder.action." + k)]; });
  // kinds that come with a card to name: tapping them chooses, Record records
  var WITH_CARD = {political: 1, card: 1, equip: 1, recruit: 1, employ: 1};
  var TALK = ["negotiate", "question", "answer", "hypothetical", "raised-voice", "slur", "physical-threat"]
    .map(function (k) { return [k, t("recorder.talk." + k)]; });
  var WINDOWS = ["unlock", "master", "minion", "after-action", "minion-end", "influence", "discard",
                 "pre-range", "range", "pre-strike", "strike", "damage", "press"];
  var STRIKES = ["hand strike", "dodge", "combat ends"];
  var NUMBER_CHIPS = {amount: [1, 2, 3, 4, 5], damage: [0, 1, 2, 3, 4], votes: [1, 2, 3, 4], stealth: [0, 1, 2, 3],
                      minutes: [1, 2, 3, 5, 10], x: [1, 2, 3, 4, 5], count: [1, 2, 3]};

  function words(n) {
    // a field's name for people ("actual_amount" -> "Actual amount")
    if (has("recorder.field." + n)) return t("recorder.field." + n);   // static/i18n/en.json
    var w = String(n).replace(/[_-]+/g, " ");
    return w.charAt(0).toUpperCase() + w.slice(1);
  }
  // what a form says next to a field the server requires and the judge left empty: its own
  // sentence (recorder.missing.<field>), else recorder.missing_field

  var form = function (ctx) {
    var F = ctx.fields, el = F.el, T = ctx.table;
    var live = T.live, name = T.name, minionsAt = T.minionsAt, minionNames = T.minionNames,
        cardsAt = T.cardsAt, allCards = T.allCards;
    var $ = function (id) { return document.getElementById(id); };
    var form = $("rec-ask"), deck = $("rec-next");
    var home = {parent: form.parentNode, next: form.nextSibling};   // where the form lives
    var current = null;                                             // the open form's controller

    // --- sending ------------------------------------------------------------------------------
    function record(key, events, after, label) {
      // one entry; a second tap on the same thing while it is on its way is the same tap.
      // Once it is taken, the form it came from closes (back to the table); a form opened
      // since (the judge went on to the next seat while the answer was on its way) stays.
      var from = current;
      return ctx.once(key, function () {
        return ctx.send(events, label).then(function (ok) {
          if (ok) {
            if (current === from) { close(); backToTable(); }
            if (after) after();
          }
          return ok;
        });
      });
    }
    function backToTable() {
      // after an entry, the table and the status line (not left scrolled down)
      window.scrollTo(0, 0);
    }

    // --- forms ----------------------------------------------------------------------------------
    // spec: {title, base, fields: [field], record (the field whose chips record), required,
    //        hint, build(event, ctl) -> events | null, done(), anchor (the log line to open in), focus,
    //        setup(form, ctl), extra: [[label, fn]]}
    // field: {name, kind: "seats"|"choice"|"number"|"name"|"text"|"select"|"toggle", value,
    //         options, chips(ctl) -> [names or [value, label, hint]], suggest ("minion"|"library"),
    //         show(ctl) -> bool, change(value, ctl), label, local(ctl), auto (a pre-filled value)}
    function close() {
      if (!current) return;
      current = null;
      form.hidden = true;
      form.textContent = "";
      if (form.parentNode !== home.parent) home.parent.insertBefore(form, home.next);
      deck.hidden = false;
    }
    function open(spec) {
      close();
      var ctl = {spec: spec, fields: {}, rows: {}, values: {}};
      current = ctl;
      form.textContent = "";
      form.hidden = false;
      form.classList.toggle("is-compact", !!spec.compact);
      form.oninput = null;
      form.onclick = null;
      if (spec.anchor) spec.anchor.appendChild(form);   // inside the log line it corrects
      else deck.hidden = true;        // the form takes the place of the next steps
      var head = el("div", {"class": "rec-ask-title"}, spec.title);
      form.appendChild(head);
      ctl.hint = el("p", {"class": "rec-ask-hint"});
      ctl.get = function (n) { return ctl.values[n] == null ? "" : ctl.values[n]; };
      ctl.set = function (n, v, how) { return setValue(ctl, n, v, how || {}); };
      ctl.refresh = function () { refresh(ctl); };
      spec.fields.forEach(function (f) {
        ctl.fields[f.name] = f;
        ctl.values[f.name] = f.value == null ? "" : f.value;
        var row = el("div", {"class": "rec-field rec-field-" + f.kind, "data-field": f.name});
        ctl.rows[f.name] = row;
        form.appendChild(row);
      });
      form.appendChild(ctl.hint);
      var ok = el("button", {type: "submit", "class": "rec-record"}, spec.submitLabel || t("recorder.record"));
      var cancel = el("button", {type: "button", "class": "rec-cancel"}, t("recorder.cancel"));
      cancel.addEventListener("click", function () { close(); backToTable(); });
      var buttons = el("div", {"class": "rec-ask-buttons" + ((spec.extra || []).length ? " has-extra" : "")});
      buttons.appendChild(ok);
      (spec.extra || []).forEach(function (x) {
        var b = el("button", {type: "button", "class": "rec-ask-extra"}, x[0]);
        b.addEventListener("click", function () { x[1](ctl); });
        buttons.appendChild(b);
      });
      buttons.appendChild(cancel);
      form.appendChild(buttons);
      form.onsubmit = function (ev) { ev.preventDefault(); submit(ctl); };
      spec.fields.forEach(function (f) { if (f.change && ctl.values[f.name] !== "") f.change(ctl.values[f.name], ctl, {initial: true}); });
      refresh(ctl);
      if (spec.setup) spec.setup(form, ctl);
      var focus = spec.focus && form.querySelector("[name=" + spec.focus + "]");
      if (!focus && spec.focus !== false) focus = firstToType(ctl);
      if (focus) focus.focus();
      form.scrollIntoView({block: "nearest"});
      return ctl;
    }
    function filled(ctl) {
      return (ctl.spec.required || []).every(function (n) { return ctl.get(n) !== ""; });
    }
    function setValue(ctl, n, v, how) {
      var f = ctl.fields[n];
      if (!f) return;
      var recordable = !(f.selectOnly && f.selectOnly(v, ctl));   // judged on the value before the tap
      ctl.values[n] = v == null ? "" : v;
      if (ctl.values[n] !== "") clearError(ctl, n);
      if (!how.auto) delete ctl.values["auto:" + n];
      else ctl.values["auto:" + n] = true;
      if (f.change && !how.quiet) f.change(ctl.values[n], ctl, how);
      if (how.tap && recordable && ctl.spec.record === n && filled(ctl)) { submit(ctl); return; }
      refresh(ctl);
      if (how.tap) focusNext(ctl, n);
    }
    function typeable(ctl, f) {
      // the field's text box, when it is shown (not a chips-only field, not hidden)
      var row = ctl.rows[f.name];
      if (!row || row.hidden) return null;
      var input = row.querySelector("input[name=" + f.name + "]:not([type=hidden])");
      return input && !input.hidden ? input : null;
    }
    function focusNext(ctl, after) {
      // after a chip or a suggestion fills a field, the next empty field to type in gets the
      // focus (a target's name, an amount with no chips): no tap to move there. A field whose
      // chips are the way to fill it needs no focus (the tap on its chip is the next tap).
      var list = ctl.spec.fields, i = list.map(function (f) { return f.name; }).indexOf(after);
      var wanted = function (f) { return f.next || (ctl.spec.required || []).indexOf(f.name) >= 0; };
      for (var j = i + 1; j < list.length; j++) {
        var f = list[j];
        if (ctl.get(f.name) !== "" || !wanted(f)) continue;
        var input = typeable(ctl, f);
        if (input) { input.focus(); return; }
      }
      var active = document.activeElement;   // nothing to type next: the filled box lets go
      if (active && form.contains(active) && active.tagName === "INPUT" && active.name === after) active.blur();
    }
    function firstToType(ctl) {
      // a form that opens with no field chosen for the keyboard: the first empty name field
      // with no chips to tap (the minion of a seat the table shows nothing of)
      var list = ctl.spec.fields;
      for (var j = 0; j < list.length; j++) {
        var f = list[j];
        if (f.kind !== "name" || ctl.get(f.name) !== "") continue;
        if ((ctl.spec.required || []).indexOf(f.name) < 0 && f.name !== "minion") continue;
        var input = typeable(ctl, f);
        if (input) return input;
      }
      return null;
    }
    function refresh(ctl) {
      // (re)draw every field: chips follow the seat and what was chosen
      ctl.spec.fields.forEach(function (f) {
        var row = ctl.rows[f.name];
        var shown = !f.show || f.show(ctl);
        row.hidden = !shown;
        if (!shown) { row.textContent = ""; row.dataset.built = ""; return; }
        drawField(ctl, f, row);
      });
      var hint = ctl.spec.hint ? ctl.spec.hint(ctl) : "";
      ctl.hint.textContent = hint || "";
      ctl.hint.hidden = !hint;
    }
    function drawField(ctl, f, row) {
      var v = ctl.get(f.name);
      var isRecord = ctl.spec.record === f.name && filledBut(ctl, f.name);
      if (!row.dataset.built) {
        row.textContent = "";
        var label = el("label", {"class": "rec-field-label", "for": "rec-f-" + f.name}, f.label || words(f.name));
        row.appendChild(label);
        var input;
        if (f.kind === "select") {
          input = el("select", {name: f.name, id: "rec-f-" + f.name});
          input.appendChild(el("option", {value: ""}, "—"));
          (f.options || []).forEach(function (o) { input.appendChild(el("option", {value: o[0]}, o[1])); });
          input.addEventListener("change", function () { ctl.set(f.name, input.value, {quiet: false}); });
        } else if (f.kind === "seats" || f.kind === "choice" || f.kind === "toggle") {
          input = el("input", {type: "hidden", name: f.name, id: "rec-f-" + f.name});
        } else {
          input = el("input", {name: f.name, id: "rec-f-" + f.name, autocomplete: "off",
                               type: f.kind === "number" ? "number" : "text", spellcheck: "false", autocapitalize: "off"});
          if (f.kind === "number") { input.min = "0"; input.step = f.step || "1"; input.inputMode = f.step ? "decimal" : "numeric"; }
          input.addEventListener("input", function () {
            ctl.values[f.name] = input.value.trim();
            delete ctl.values["auto:" + f.name];
            clearError(ctl, f.name);
            if (f.kind === "number") refresh(ctl);   // chips that show the number ("Bleed 3 → Bruno")
          });
        }
        row.appendChild(input);
        if (f.suggest) {   // the names, right under this field
          F.suggest(input, {kind: f.suggest, local: function () { return f.local ? f.local(ctl) : []; },
            pick: function (picked) {
              input.value = picked;
              ctl.set(f.name, picked, {tap: true});
            }});
        }
        row.appendChild(el("div", {"class": "rec-field-chips"}));
        row.dataset.built = "1";
      }
      var inputEl = row.querySelector("[name=" + f.name + "]");
      if (inputEl && inputEl.value !== String(v)) inputEl.value = v;
      var box = row.querySelector(".rec-field-chips");
      box.textContent = "";
      var options = f.kind === "seats" ? (f.seats ? f.seats(ctl) : live()).map(function (s) { return [s, name(s)]; })
        : f.kind === "choice" ? (typeof f.options === "function" ? f.options(ctl) : f.options)
        : f.kind === "toggle" ? [[true, f.on || "yes"]]
        : f.chips ? f.chips(ctl) : (NUMBER_CHIPS[f.name] || []);
      options = (options || []).slice();
      if (inputEl && inputEl.type !== "hidden") {
        // a compact form shows a field's chips; its box only when asked ("other…"), when it
        // is the field to type in, or when there are no chips
        var typed = ctl.spec.compact && options.length && ctl.spec.focus !== f.name && !ctl.values["open:" + f.name];
        inputEl.hidden = !!typed;
        if (typed) {
          var known = options.some(function (o) { return String(Array.isArray(o) ? o[0] : o) === String(v); });
          if (v !== "" && !known) options.unshift(v);   // a value typed or given: shown as chosen
        }
      }
      // Chips that record at once (✓) and chips that only choose (a kind that needs its card:
      // "Political…") are kept apart: the recording ones first, the others after a divider
      // with its caption, so a mis-tap between them does not record something.
      var later = [];
      options.forEach(function (o) {
        var val = Array.isArray(o) ? o[0] : o, lab = Array.isArray(o) ? o[1] : String(o), hint = Array.isArray(o) ? o[2] : null;
        var on = String(v) === String(val) && v !== "";
        var recordsHere = isRecord && !(f.selectOnly && f.selectOnly(val, ctl));
        var c = F.chip(lab + (recordsHere ? " ✓" : ""), function () {
          if (f.kind === "toggle") { ctl.set(f.name, on ? "" : true, {tap: true}); return; }
          ctl.set(f.name, val, {tap: true});
        }, {value: val, on: on, record: recordsHere, hint: hint, toggle: f.kind !== "name" && f.kind !== "text"});
        if (isRecord && !recordsHere) later.push(c); else box.appendChild(c);
      });
      if (later.length && box.childNodes.length) {
        // a group of their own, named for what they do: they open more, they record nothing
        var apart = el("div", {"class": "rec-chips rec-chips-opens", role: "group",
                               "aria-label": t("recorder.opens_more")});
        apart.appendChild(el("span", {"class": "rec-chips-divider"}, t("recorder.with_a_card")));
        later.forEach(function (c) { apart.appendChild(c); });
        box.appendChild(apart);
      } else later.forEach(function (c) { box.appendChild(c); });
      if (inputEl && inputEl.hidden) {
        box.appendChild(F.chip(t("recorder.other"), function () { reveal(ctl, f.name); },
                               {extra: "is-more", title: t("recorder.type_another")}));
      }
      if (f.inserts) f.inserts(ctl).forEach(function (word) {
        box.appendChild(F.chip(word, function () {
          var input = row.querySelector("input");
          input.value = (input.value ? input.value.replace(/\s*$/, " ") : "") + word;
          ctl.values[f.name] = input.value; input.focus();
        }, {extra: "is-insert"}));
      });
    }
    function reveal(ctl, n) {
      // the field's box, to type another name or number (the keyboard comes up)
      ctl.values["open:" + n] = true;
      refresh(ctl);
      var input = ctl.rows[n] && ctl.rows[n].querySelector("input[name=" + n + "]");
      if (input) input.focus();
    }
    function filledBut(ctl, n) {
      return (ctl.spec.required || []).every(function (r) { return r === n || ctl.get(r) !== ""; });
    }
    function coerce(f, v) {
      if (f.kind === "seats" || f.kind === "number") {
        var num = f.step ? parseFloat(v) : parseInt(v, 10);
        return isNaN(num) ? v : num;
      }
      if (f.kind === "toggle") return v === true || v === "true";
      return typeof v === "string" ? v.trim() : v;
    }
    function collect(ctl) {
      var event = Object.assign({}, ctl.spec.base);
      ctl.spec.fields.forEach(function (f) {
        var shown = !f.show || f.show(ctl);
        var v = ctl.get(f.name);
        if (!shown || v === "" || f.local_only) { if (!f.keep) delete event[f.name]; return; }
        event[f.name] = coerce(f, v);
      });
      return event;
    }
    function submit(ctl) {
      if (current !== ctl) return;
      var event = collect(ctl);
      var events = ctl.spec.build ? ctl.spec.build(event, ctl) : [event];
      if (!events) return;
      var missing = missingFields(events);
      if (missing.length) { showMissing(ctl, missing); return; }   // not sent: what the server would refuse
      return record("form:" + ctl.spec.title, events, ctl.spec.done);
    }

    // --- a field left empty that the entry needs (the vocabulary's required fields) -----------
    var VOCAB = ctx.vocabulary || {};
    function missingFields(events) {
      var out = [];
      events.forEach(function (e) {
        var shape = VOCAB[e.type];
        if (!shape) return;
        var need = (shape.required || []).slice();
        if (shape.seat === "required") need.unshift("seat");
        need.forEach(function (n) {
          var v = e[n];
          if ((v == null || (typeof v === "string" && !v.trim())) && out.indexOf(n) < 0) out.push(n);
        });
      });
      return out;
    }
    function clearError(ctl, n) {
      var row = ctl.rows[n];
      var old = row && row.querySelector(".rec-field-error");
      if (!old) return;
      old.remove();
      var input = row.querySelector("[name=" + n + "]");
      if (input) { input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby"); }
    }
    function showMissing(ctl, names) {
      // the message next to each empty field (a field the form does not show: under the title);
      // the first one gets the focus, so a screen reader and the keyboard land there
      var first = null;
      names.forEach(function (n) {
        var text = has("recorder.missing." + n) ? t("recorder.missing." + n) : t("recorder.missing_field", {field: words(n)});
        var row = ctl.rows[n];
        var shown = row && !row.hidden;
        if (shown) clearError(ctl, n);
        var msg = el("p", {"class": "rec-field-error", id: "rec-err-" + n, role: "alert"}, text);
        if (shown) {
          row.insertBefore(msg, row.querySelector(".rec-field-chips"));
          var input = row.querySelector("[name=" + n + "]");
          if (input) { input.setAttribute("aria-invalid", "true"); input.setAttribute("aria-describedby", msg.id); }
          first = first || row.querySelector("input:not([type=hidden]):not([hidden]), .rec-chip, select");
        } else {
          var old = form.querySelector("#rec-err-" + n);
          if (old) old.remove();
          form.insertBefore(msg, form.querySelector(".rec-ask-title").nextSibling);
        }
      });
      if (first) first.focus();
    }
    function showRefusal(field, text) {
      // a refusal of the server for the open form's field (another judge took the line back
      // meanwhile, a name the card list lacks): said next to that field too
      if (!current) return false;
      var ctl = current, row = field && ctl.rows[field];
      var msg = el("p", {"class": "rec-field-error", id: "rec-err-" + (field || "entry"), role: "alert"}, text);
      var old = form.querySelector("#" + msg.id);
      if (old) old.remove();
      if (row && !row.hidden) row.insertBefore(msg, row.querySelector(".rec-field-chips"));
      else form.insertBefore(msg, form.querySelector(".rec-ask-title").nextSibling);
      return true;
    }

    // --- fields, by the name of the event field ------------------------------------------------
    function seatOf(ctl) { return +ctl.get("seat") || +ctl.spec.base.seat || null; }
    function field(n, value, extra) {
      var f = {name: n, value: value};
      if (n === "seat" || n === "target_seat") f.kind = "seats";
      else if (n === "action") { f.kind = "choice"; f.options = ACTIONS; }
      else if (n === "side") { f.kind = "choice"; f.options = [["for", "For"], ["against", "Against"], ["abstain", "Abstain"]]; }
      else if (n === "kind") { f.kind = "choice"; f.options = TALK; }
      else if (n === "window" || n === "phase" || n === "step" || n === "to") {
        f.kind = "select"; f.options = WINDOWS.concat(n === "step" ? ["end"] : []).map(function (w) { return [w, w]; });
      }
      else if (n === "minion" || n === "vampire") {
        f.kind = "name"; f.suggest = "minion";
        f.chips = function (ctl) { return T.minionChoices ? T.minionChoices(seatOf(ctl)) : minionsAt(seatOf(ctl)).map(function (m) { return m.name; }); };
        f.local = function (ctl) { return minionNames(seatOf(ctl)); };
      } else if (n === "target") {
        f.kind = "name"; f.suggest = "minion";
        f.chips = function (ctl) { return minionNames(seatOf(ctl)).slice(0, 8); };
        f.local = function (ctl) { return minionNames(seatOf(ctl)); };
      } else if (n === "card" || n === "target_card") {
        f.kind = "name"; f.suggest = "library";
        f.chips = function (ctl) { return (n === "card" ? cardsAt(seatOf(ctl)) : allCards(seatOf(ctl))).slice(0, 6); };
        f.local = function (ctl) { return allCards(seatOf(ctl)); };
      } else if (n === "strike") {
        f.kind = "name"; f.chips = function () { return STRIKES; };
      } else if (NUMBER_CHIPS[n] || n === "judge_minutes" || n === "bleed_change" || n === "bleed_total" ||
                 n === "votes_for" || n === "votes_against" || n === "available" || n === "limit_min" ||
                 n === "time_left_min" || n === "turn" || n === "finding_seq" || n === "target_seq") {
        f.kind = "number";
        if (n === "judge_minutes" || n === "time_left_min") f.step = "0.5";
      } else if (n === "passed" || n === "blocked" || n === "wake" || n === "burn_edge" || n === "directed" ||
                 n === "delays_replacement" || n === "locked" || n === "terms_choice" || n === "changes") {
        f.kind = "toggle";
      } else f.kind = "text";
      return Object.assign(f, extra || {});
    }

    return {open: open, close: close, isOpen: function () { return !!current; },
            current: function () { return current; }, field: field, words: words, coerce: coerce,
            record: record, backToTable: backToTable, reveal: reveal, seatOf: seatOf, showRefusal: showRefusal,
            ACTIONS: ACTIONS, WITH_CARD: WITH_CARD, STRIKES: STRIKES};
  };
  return {form: form, words: words};
})();

export const form = made.form;
// a field's name for people; the status line names a refused entry's field with it
export const words = made.words;
