/* One-handed entry on the recorder page: the next steps as buttons and one-tap chips (the
   minions and cards on the table, strikes, amounts), the vote panel (one tap per seat), the
   forms (an action, a card, a block, a strike, a vote, terms, a redirect, any other entry)
   with their fields pre-filled from the card facts, and the correction of a log line
   (an `amend`). Plain JS, no build step.

   A chip marked ✓ records the entry at once; other chips fill a field. A form opens for the
   seat the step is for (or the seat tapped in the table drawing); after it records, the
   page goes back to the table and the status line.

   This module makes the parts and holds what is any entry's: `ask` (an entry of any type,
   its form chosen by type), the transfer and minion-in forms, and `amend`. The table as the
   state has it is recorder-table.js's; the forms of an action and a card
   recorder-action-forms.js's; the block and strike forms recorder-combat-forms.js's; the
   terms, the vote panel and the vote form recorder-votes.js's; the next steps
   recorder-steps.js's. The forms are built with recorder-form.js (`form`); the chips and
   suggestions are recorder-fields.js's.

   entry(ctx) (exported) -> {renderDeck(state), ask(title, base, names, done, setup),
     actionForm, cardForm, reactionForm, redirectForm, voteForm, amend(line), close(), isOpen()}
   ctx: {root, seats, fields (recorder-fields.js `fields`), vocabulary, view() (the game as loaded),
     send(events, label) -> Promise<true|false|"queued">, say(msg, isError), once(key, fn),
     chosen() (the tapped seat or null), forChosen(step), practice (bool)} */
import { form as makeForm } from "./recorder-form.js";
import { table as makeTable } from "./recorder-table.js";
import { actionForms } from "./recorder-action-forms.js";
import { combatForms } from "./recorder-combat-forms.js";
import { votes as makeVotes } from "./recorder-votes.js";
import { steps as makeSteps } from "./recorder-steps.js";
import { t as tr } from "./i18n.js";   // `t` is a seat or a type in places here

export const entry = (function () {
  return function (ctx) {
    // the table as the state has it (recorder-table.js)
    var T = makeTable(ctx);
    var name = T.name;

    // the forms' builder, on this table
    var FORM = makeForm({fields: ctx.fields, send: ctx.send, once: ctx.once, vocabulary: ctx.vocabulary, table: {
      live: T.live, name: T.name, minionsAt: T.minionsAt, minionNames: T.minionNames, cardsAt: T.cardsAt,
      allCards: T.allCards, minionChoices: T.minionChoices}});
    var open = FORM.open, close = FORM.close, field = FORM.field, words = FORM.words, coerce = FORM.coerce,
        record = FORM.record;

    // each declaration's form, the vote panel, the next steps
    var A = actionForms(ctx, T, FORM), C = combatForms(ctx, T, FORM, A), V = makeVotes(ctx, T, FORM);
    var actionForm = A.actionForm, cardForm = A.cardForm, prefill = A.prefill;
    var strikeForm = C.strikeForm, voteForm = V.voteForm, termsForm = V.termsForm;
    var S = makeSteps(ctx, T, FORM, {ask: ask, actionForm: actionForm, cardForm: cardForm, prefill: prefill,
      strikeForm: strikeForm, strikeSpec: C.strikeSpec, combatCards: C.combatCards, votePanel: V.votePanel,
      minionInForm: minionInForm});

    // --- any entry, and the influence phase's -----------------------------------------------------
    function ask(title, base, names, done, setup) {
      // any entry: the fields it asks for, each with its chips and suggestions
      var required = [];
      var fields = names.map(function (n) { return field(n, base[n]); });
      if (names.indexOf("minion") >= 0 && (base.type === "block.declare" || base.type === "minion.in")) required = ["minion"];
      var spec = {title: title, base: base, fields: fields, required: required, done: done, setup: setup,
                  focus: fields.filter(function (f) { return f.kind === "text" || f.kind === "name" || f.kind === "number"; })
                    .map(function (f) { return f.name; })[0]};
      if (base.type === "block.declare" || base.type === "minion.in") { spec.record = "minion"; spec.focus = "minion"; }
      if (base.type === "strike") return prefill(strikeForm(base.seat, title, done), base);
      if (base.type === "vote") return prefill(voteForm(base.seat, {title: title, done: done}), base);
      if (base.type === "action.declare") return actionForm(base.seat, base.minion, {title: title, done: done, base: base, noLock: true});
      if (base.type === "transfer") return prefill(transferForm(base.seat, title, done), base);
      if (base.type === "referendum.terms") return prefill(termsForm(base.seat, title, done), base);
      if (base.type === "card.play" || base.type === "reaction") {
        return prefill(cardForm(base.seat, base.card, {type: base.type, title: title, done: done}), base);
      }
      return open(spec);
    }

    function transferForm(seat, title, done) {
      return open({title: title || (name(seat) + " transfers"), base: {type: "transfer", seat: seat}, compact: true,
                   required: ["amount"], record: "amount", done: done, focus: null,
                   fields: [field("minion", null, {label: tr("entry.transfer_to")}),
                            field("amount", null, {label: tr("entry.pool_transferred")})]});
    }

    function minionInForm(seat) {
      return open({title: tr("entry.minion_in", {name: name(seat)}), base: {type: "minion.in", seat: seat},
                   compact: true, required: ["minion"], record: "minion", focus: "minion",
                   fields: [field("seat", seat), field("minion", null, {label: tr("entry.minion_vampire_or_ally")})]});
    }

    // --- correcting a log line ---------------------------------------------------------------------------
    var vocab = ctx.vocabulary || {};
    function amend(e, li) {
      // tap a line: its fields, as corrected so far, to change; stored as an `amend` (or taken back)
      if (!e) return;
      if (e.type === "amend" || e.type === "retract") {
        ctx.say(tr("entry.is_correction", {seq: e.seq}));
        return;
      }
      if (e.retracted) {
        var undoing = (ctx.view().events || []).filter(function (x) {
          return x.type === "retract" && x.target === e.seq && !x.retracted;
        }).pop();
        return open({title: tr("entry.taken_back", {seq: e.seq}), base: {}, fields: [], anchor: li, submitLabel: tr("entry.restore"),
          build: function () { return undoing ? [{type: "retract", target: undoing.seq, reason: "restore"}] : null; },
          hint: function () { return e.summary || ""; }});
      }
      var shape = vocab[e.type];
      if (!shape) { ctx.say(tr("entry.cannot_correct")); return; }
      var now = Object.assign({}, e, e.corrected || {});
      var names = [];
      if (shape.seat !== "none") names.push("seat");
      Object.keys(shape.fields).forEach(function (n) {
        var kind = shape.fields[n];
        if (kind === "dict" || kind === "seats") return;
        names.push(n);
      });
      // the fields it has first, then the others it may take
      names.sort(function (x, y) { return (now[y] != null) - (now[x] != null); });
      var has = function (n) { return now[n] != null || n === "seat"; };
      var fields = names.map(function (n) {
        var f = field(n, now[n] == null ? null : (Array.isArray(now[n]) ? now[n].join(" ") : now[n]));
        if (Array.isArray(shape.fields[n]) && n !== "action") {
          f.kind = "choice";
          f.options = shape.fields[n].map(function (o) { return [o, words(o).toLowerCase()]; });
        }
        // the fields the line has; the others it may take behind "More fields…"
        if (!has(n)) f.show = function (c) { return !!c.values["open:more"]; };
        return f;
      });
      var more = names.some(function (n) { return !has(n); });
      return open({
        title: tr("entry.correct_title", {seq: e.seq, summary: e.summary || e.type}), base: {}, fields: fields, anchor: li,
        submitLabel: tr("entry.record_correction"), focus: null, compact: true,
        extra: [[tr("entry.take_back"), function () { record("retract:" + e.seq, [{type: "retract", target: e.seq}]); }]]
          .concat(more ? [[tr("entry.more_fields"), function (c) { c.values["open:more"] = !c.values["open:more"]; c.refresh(); }]] : []),
        build: function (event, ctl) {
          var changed = {};
          fields.forEach(function (f) {
            var before = now[f.name] == null ? "" : String(Array.isArray(now[f.name]) ? now[f.name].join(" ") : now[f.name]);
            var after = ctl.get(f.name) === "" ? "" : String(ctl.get(f.name));
            if (before === after.trim()) return;
            changed[f.name] = after === "" ? null : coerce(f, ctl.get(f.name));
          });
          if (!Object.keys(changed).length) { ctx.say(tr("entry.nothing_changed")); return null; }
          return [{type: "amend", target: e.seq, fields: changed}];
        }});
    }

    return {renderDeck: S.renderDeck, ask: ask, heard: T.heard, minionInForm: minionInForm, actionForm: actionForm,
            cardForm: cardForm, reactionForm: A.reactionForm, redirectForm: A.redirectForm, voteForm: voteForm,
            blockForm: C.blockForm, amend: amend, close: close, isOpen: FORM.isOpen, showRefusal: FORM.showRefusal};
  };
})();
