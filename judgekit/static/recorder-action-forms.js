/* The recorder page's forms of an action and of what is played on it: "Ana declares an
   action" (the minion, what it does, the card, the bleed's amount and target pre-filled from
   the card facts, stealth, a political action's terms), a card played or a reaction (what the
   card facts say it needs; an action card opens the action form, a Deflection asks for the
   new target's seat), a redirect. Plain JS, no build step; recorder-entry.js makes them.

   actionForms(ctx, T, FORM) (exported) -> {actionForm(seat, minion, opts), cardForm(seat, card,
     opts), reactionForm(seat), redirectForm(seat), prefill(ctl, base), levelChips(card)}
   ctx: recorder-entry.js's; T: recorder-table.js's `table`; FORM: recorder-form.js's `form`. */
import { t as tr } from "./i18n.js";   // `t` is a seat or a type in places here

export function actionForms(ctx, T, FORM) {
  var F = ctx.fields, form = document.getElementById("rec-ask");
  var st = T.st, name = T.name, live = T.live, prey = T.prey, acting = T.acting, minionFacts = T.minionFacts;
  var open = FORM.open, field = FORM.field, record = FORM.record, reveal = FORM.reveal, seatOf = FORM.seatOf;
  var ACTIONS = FORM.ACTIONS, WITH_CARD = FORM.WITH_CARD;
  function current() { return FORM.current(); }

  function actionHint(ctl) {
    var m = ctl.get("minion"), f = m ? minionFacts(m) : null, out = [];
    if (f && f.kind) {
      var bits = [];
      if (f.title) bits.push(f.title + ", " + tr("entry.votes", {count: f.votes}));
      if (f.bleed > 1) bits.push(tr("entry.bleed_n", {count: f.bleed}));
      if (f.stealth) bits.push(tr("entry.stealth_n", {count: f.stealth}));
      if (bits.length) out.push(m + ": " + bits.join(", "));
    }
    var card = ctl.get("card"), cf = card ? F.facts(card, "library") : null;
    if (cf && cf.types) out.push(card + ": " + cf.types.join(" / ").toLowerCase());
    return out.join(" · ");
  }
  function bleedOf(ctl) {
    var m = ctl.get("minion"), base = m ? (minionFacts(m).bleed || 1) : 1;
    var card = ctl.get("card"), cf = card ? F.facts(card, "library") : null, disc = ctl.get("discipline");
    if (cf && cf.bonuses) {
      var key = disc || (cf.disciplines && cf.disciplines.length === 1 ? cf.disciplines[0] : null);
      if (key && cf.bonuses[key] && cf.bonuses[key].bleed) base += cf.bonuses[key].bleed;
    }
    return base;
  }
  function actionForm(seat, minion, opts) {
    // "Ana declares an action": the minion (its chip opened this), what it does (the chips
    // that record), and what goes with it: the card, the bleed's amount (pre-filled from the
    // card facts) and target (the prey), stealth, a political action's terms
    opts = opts || {};
    seat = seat || acting();
    var isBleed = function (ctl) { return ctl.get("action") === "bleed" || ctl.get("action") === ""; };
    var preset = function (ctl) {
      if ((ctl.get("amount") === "" || ctl.values["auto:amount"]) && isBleed(ctl) && ctl.get("minion")) {
        ctl.set("amount", bleedOf(ctl), {auto: true, quiet: true});
      }
      if (ctl.get("target_seat") === "" && isBleed(ctl) && prey(seatOf(ctl))) {
        ctl.set("target_seat", prey(seatOf(ctl)), {auto: true, quiet: true});
      }
    };
    var spec = {
      title: opts.title || tr("entry.declares_action", {name: name(seat)}),
      compact: true,
      base: {type: "action.declare", seat: seat},
      required: ["minion", "action"], record: "action", done: opts.done,
      hint: actionHint,
      // the minion locked as if to act, no action named (yet): a `minion.lock`, one tap
      extra: opts.noLock ? [] : [[tr("entry.locked"), function (ctl) {
        if (!ctl.get("minion")) { ctx.say(tr("entry.lock_minion_first")); return; }
        record("lock:" + seatOf(ctl), [{type: "minion.lock", seat: +seatOf(ctl), minion: ctl.get("minion")}]);
      }]],
      fields: [
        field("seat", seat, {label: tr("recorder.field.seat"), change: function (v, ctl) { if (!ctl.values["auto:target_seat"]) return; ctl.values.target_seat = ""; preset(ctl); }}),
        field("minion", minion, {change: function (v, ctl) { preset(ctl); }}),
        field("card", opts.card, {label: tr("recorder.field.card"), change: function (v, ctl) {
          if (!v) return;
          F.factsOf([v]).then(function (got) {
            var cf = got[v];
            if (current() !== ctl) return;
            if (cf && cf.action && ctl.get("action") !== cf.action) ctl.set("action", cf.action, {quiet: true});
            preset(ctl);
            ctl.refresh();
          });
        }}),
        field("discipline", opts.discipline, {label: tr("entry.discipline"), show: function (ctl) {
          var cf = ctl.get("card") ? F.facts(ctl.get("card"), "library") : null;
          return !!(cf && cf.disciplines && cf.disciplines.length);
        }, chips: function (ctl) { return levelChips(ctl.get("card")); },
          change: function (v, ctl) { preset(ctl); }}),
        field("amount", opts.amount, {label: tr("entry.bleed"), show: isBleed}),
        field("target_seat", opts.target_seat, {label: tr("entry.bleeds"), show: isBleed,
          seats: function (ctl) { return live().filter(function (s) { return s !== seatOf(ctl); }); }}),
        field("stealth", null, {label: tr("recorder.field.stealth")}),
        field("terms", null, {label: tr("recorder.field.terms"), next: true, show: function (ctl) { return ctl.get("action") === "political"; },
          inserts: function () { return live().map(name); }}),
        field("action", opts.action, {label: tr("recorder.field.action"), options: function (ctl) {
            // the bleed chip says what it records: "Bleed 2 → Bruno"
            return ACTIONS.map(function (o) {
              if (o[0] === "bleed") {
                var t = +ctl.get("target_seat");
                return [o[0], tr("entry.bleed_chip", {amount: ctl.get("amount") || "?"}) + (t ? " → " + name(t) : "")];
              }
              // a kind that comes with a card: "Political…" chooses it, then "Political ✓" records
              return [o[0], o[1] + (WITH_CARD[o[0]] && ctl.get("action") !== o[0] ? "…" : "")];
            });
          }, selectOnly: function (val, ctl) { return !!WITH_CARD[val] && (ctl.get("action") !== val); },
          change: function (v, ctl) {
            preset(ctl);
            if (WITH_CARD[v] && !ctl.get("card")) reveal(ctl, "card");   // the card is named next
          }})
      ],
      build: function (event) {
        if (event.action !== "bleed") { delete event.amount; delete event.target_seat; }
        return [event];
      }
    };
    return prefill(open(spec), opts.base);
  }
  function prefill(ctl, base) {
    // a form opened for an entry made before (a queued entry to fix): its values
    if (!base) return ctl;
    Object.keys(ctl.fields).forEach(function (n) {
      if (base[n] != null && base[n] !== "") { ctl.values[n] = base[n]; delete ctl.values["auto:" + n]; }
    });
    ctl.refresh();
    return ctl;
  }
  function levelChips(card) {
    var cf = card ? F.facts(card, "library") : null;
    var out = [];
    Object.keys((cf && cf.levels) || {}).forEach(function (code) {
      (cf.levels[code] || []).forEach(function (lvl) {
        var v = lvl === "superior" ? code.toUpperCase() : code.toLowerCase();
        out.push([v, v, lvl]);
      });
    });
    return out;
  }
  function cardForm(seat, card, opts) {
    // a card: what its facts say it needs (discipline, target, amount, X); the chips of the
    // last thing it needs record. A political action card opens the action form instead.
    opts = opts || {};
    seat = seat || ctx.chosen() || acting() || 1;
    var ctl;
    var needs = function (ctl, what) {
      var cf = ctl.get("card") ? F.facts(ctl.get("card"), "library") : null;
      if (!cf) return what !== "x";   // facts unknown: the usual fields
      if (what === "discipline") return (cf.disciplines || []).length > 0;
      return (cf.needs || []).indexOf(what) >= 0;
    };
    var redirecting = function (ctl) {
      // a reaction that needs a target, played by the seat whose reaction now changes the
      // action's target (the engine's `redirect_by`: Deflection and the like): its target
      // is the new target's seat, not a minion
      var s = st(), a = s && s.action;
      var cf = ctl.get("card") ? F.facts(ctl.get("card"), "library") : null;
      return !!(a && a.redirect_by != null && seatOf(ctl) === a.redirect_by && cf &&
                (cf.types || []).indexOf("Reaction") >= 0 && (cf.needs || []).indexOf("target") >= 0);
    };
    var NEEDS = ["discipline", "target", "amount", "x"];
    var plan = function (c) {
      // what the card needs, in order; the chips of the last one record
      var cf = c.get("card") ? F.facts(c.get("card"), "library") : null;
      var list = NEEDS.filter(function (w) { return needs(c, w); }).map(function (w) {
        return w === "target" && redirecting(c) ? "target_seat" : w;
      });
      c.spec.record = cf && list.length ? list[list.length - 1] : null;
      c.spec.required = ["card"].concat(list);
    };
    var type = opts.type || "card.play";
    var spec = {
      title: opts.title || (type === "reaction" ? tr("entry.reaction") : tr("entry.play_card")),
      compact: true,
      base: {type: type, seat: seat}, required: ["card"], done: opts.done,
      build: function (event) {
        // an action modifier that changes the bleed in progress (Conditioning at DOM: +N from
        // the card facts): its change goes with it, and the page then offers "Bleed now N"
        var a = st() && st().action, cf = event.card ? F.facts(event.card, "library") : null;
        if (a && !a.resolved && a.kind === "bleed" && event.seat === a.seat && cf && cf.bonuses &&
            event.bleed_change == null) {
          var key = event.discipline || (cf.disciplines && cf.disciplines.length === 1 ? cf.disciplines[0] : null);
          var bonus = key && cf.bonuses[key] && cf.bonuses[key].bleed;
          if (bonus) event.bleed_change = bonus;
        }
        return [event];
      },
      hint: function (c) {
        var h = actionHint(c), a = st() && st().action;
        if (redirecting(c)) h = (h ? h + " · " : "") + tr(a.words ? "entry.redirects_words" : "entry.redirects",
                                                           {card: c.get("card"), action: a.words});
        return h;
      }, focus: card ? null : "card",
      fields: [
        field("seat", seat, {change: function (v, c) { plan(c); }}),
        field("card", card, {change: function (v, c) {
          if (!v) return;
          F.factsOf([v]).then(function (got) {
            if (current() !== c) return;
            var cf = got[v];
            if (cf && cf.action && acting() === seatOf(c) && type === "card.play") {   // an action card: declared as an action
              actionForm(seatOf(c), null, {card: v, action: cf.action, noLock: true});
              return;
            }
            if (cf && (cf.types || []).indexOf("Reaction") >= 0) {
              c.spec.base.type = "reaction";
              // a reaction that needs a target, opened from the acting seat's row ("A card…"):
              // the acting player does not react to their own action; the seat that may
              // redirect it (its target: Deflection) is the one playing it, and the form
              // asks for the new target's seat
              var a = st() && st().action;
              if (a && a.redirect_by != null && seatOf(c) === a.seat && (cf.needs || []).indexOf("target") >= 0) {
                c.set("seat", a.redirect_by, {quiet: true});
              }
            }
            plan(c);
            c.refresh();
            var head = form.querySelector(".rec-ask-title");   // "Play a card" -> what it is
            if (head && !opts.title && c.spec.base.type === "reaction") head.textContent = tr("entry.reaction");
          });
        }}),
        field("minion", null, {label: tr("entry.played_by"), show: function (c) {
          var cf = c.get("card") ? F.facts(c.get("card"), "library") : null;
          return !cf || (cf.types || []).indexOf("Master") < 0;   // a master card has no minion to name
        }}),
        field("discipline", null, {label: tr("entry.discipline"), show: function (c) { return needs(c, "discipline"); },
          chips: function (c) { return levelChips(c.get("card")); }}),
        field("target", null, {show: function (c) { return needs(c, "target") && !redirecting(c); }}),
        field("target_seat", null, {label: tr("entry.new_target"), show: redirecting, seats: function (c) {
          var a = st() && st().action;
          return live().filter(function (x) { return x !== seatOf(c) && !(a && x === a.seat); });
        }}),
        field("amount", null, {show: function (c) { return needs(c, "amount"); }}),
        field("x", null, {show: function (c) { return needs(c, "x"); }})
      ]
    };
    ctl = open(spec);
    return ctl;
  }
  function reactionForm(seat) {
    var s = st(), a = s && s.action;
    seat = seat || ctx.chosen() || (a && a.target_seat) || null;
    return cardForm(seat, null, {type: "reaction", title: tr("entry.reaction")});
  }
  function redirectForm(seat) {
    // a reaction or effect that aims the action at another Methuselah (Deflection…)
    var s = st(), a = s && s.action;
    seat = seat || ctx.chosen() || (a && a.target_seat) || null;
    return open({
      title: tr("entry.redirect_title"), base: {type: "action.redirect", seat: seat},
      compact: true,
      required: ["target_seat"], record: "target_seat", hint: actionHint, focus: null,
      fields: [
        field("seat", seat, {label: tr("entry.who_redirects")}),
        field("card", null, {label: tr("entry.redirect_card"), change: function (v, c) {
          if (v) F.factsOf([v]).then(function () { if (current() === c) c.refresh(); });
        }}),
        field("minion", null, {label: tr("entry.with_minion")}),
        field("discipline", null, {label: tr("entry.discipline"), chips: function (c) { return levelChips(c.get("card")); }}),
        field("target_seat", null, {label: tr("entry.new_target"), seats: function (c) {
          return live().filter(function (x) { return !a || (x !== a.seat && x !== +c.get("seat")); });
        }})
      ]
    });
  }

  return {actionForm: actionForm, cardForm: cardForm, reactionForm: reactionForm, redirectForm: redirectForm,
          prefill: prefill, levelChips: levelChips};
}
