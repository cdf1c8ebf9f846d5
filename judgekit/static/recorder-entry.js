/* One-handed entry on the recorder page: the next steps as buttons and one-tap chips (the
   minions and cards on the table, strikes, amounts), the vote panel (one tap per seat), the
   forms (an action, a card, a block, a strike, a vote, terms, a redirect, any other entry)
   with their fields pre-filled from the card facts, and the correction of a log line
   (an `amend`). Plain JS, no build step.

   A chip marked ✓ records the entry at once; other chips fill a field. A form opens for the
   seat the step is for (or the seat tapped in the table drawing); after it records, the
   page goes back to the table and the status line.

   The forms are built with recorder-form.js (`form`); the chips and suggestions are
   recorder-fields.js's.

   entry(ctx) (exported) -> {renderDeck(state), ask(title, base, names, done, setup),
     actionForm, cardForm, reactionForm, redirectForm, voteForm, amend(line), close(), isOpen()}
   ctx: {root, seats, fields (recorder-fields.js `fields`), vocabulary, view() (the game as loaded),
     send(events) -> Promise<true|false|"queued">, say(msg, isError), once(key, fn),
     chosen() (the tapped seat or null), forChosen(step), practice (bool)} */
import { form as makeForm } from "./recorder-form.js";
import { t as tr } from "./i18n.js";   // `t` is a seat or a type in places here

export const entry = (function () {
  return function (ctx) {
    var F = ctx.fields, el = F.el, SEATS = ctx.seats;
    var $ = function (id) { return document.getElementById(id); };
    var form = $("rec-ask"), deck = $("rec-next");

    // --- the table as the state has it -----------------------------------------------------
    function st() { var v = ctx.view(); return v ? v.state : null; }
    function name(seat) { return SEATS[seat - 1]; }
    function who(seat) { return seat ? tr("recorder.who_seat", {name: name(seat), seat: seat}) : ""; }
    function live() {
      var s = st();
      return s ? s.seats.filter(function (x) { return !x.out; }).map(function (x) { return x.seat; })
        : SEATS.map(function (_, i) { return i + 1; });
    }
    function round(from) {
      // the live seats round the table, starting at `from`
      var l = live(), i = l.indexOf(from);
      return i < 0 ? l : l.slice(i).concat(l.slice(0, i));
    }
    function minionsAt(seat) {
      var s = st();
      var list = s && seat && s.seats[seat - 1] ? s.seats[seat - 1].minions || [] : [];
      F.learn(list);
      return list;
    }
    function minionNames(first) {
      // every minion on the table, those of `first` first, then those only heard of
      var out = [];
      round(first || 1).forEach(function (seat) {
        minionsAt(seat).forEach(function (m) { if (out.indexOf(m.name) < 0) out.push(m.name); });
      });
      heard().forEach(function (n) { if (out.indexOf(n) < 0) out.push(n); });
      return out;
    }
    var HEARD_FIELDS = {target: 1, minion: 1, vampire: 1};
    var NOT_MINIONS = {transfer: 0};
    function heard() {
      // minions named at the table whose seat the table drawing does not show: the target
      // of a card or an action ("Vessel on Dominique"), most recent first. The page offers
      // them as chips in every minion field (after the seat's own), so a name heard once is
      // never typed again. (A minion seen acting is on the board of its seat already.)
      var v = ctx.view(), s = st();
      if (!v || !s) return [];
      var placed = {};
      s.seats.forEach(function (x) { (x.minions || []).forEach(function (m) { placed[m.name] = 1; }); });
      var out = [];
      for (var i = v.events.length - 1; i >= 0 && out.length < 8; i--) {
        var e = v.events[i];
        if (e.retracted || e.type === "amend" || e.type === "retract") continue;
        var f = e.corrected || e;
        Object.keys(HEARD_FIELDS).forEach(function (k) {
          var n = f[k];
          if (typeof n === "string" && n && !placed[n] && out.indexOf(n) < 0 && !(e.type in NOT_MINIONS)) out.push(n);
        });
      }
      return out;
    }
    function minionChoices(seat) {
      // a seat's minion chips: its own, then those heard of at the table (a few)
      var own = minionsAt(seat).map(function (m) { return m.name; });
      return own.concat(heard().filter(function (n) { return own.indexOf(n) < 0; }).slice(0, 4));
    }
    function cardsAt(seat) {
      var s = st();
      return s && seat && s.seats[seat - 1] ? (s.seats[seat - 1].cards || []) : [];
    }
    function allCards(first) {
      var out = cardsAt(first).slice();
      round(first || 1).forEach(function (seat) {
        cardsAt(seat).forEach(function (c) { if (out.indexOf(c) < 0) out.push(c); });
      });
      return out;
    }
    function prey(seat) { var s = st(); return s && seat ? s.seats[seat - 1].prey : null; }
    function acting() { var s = st(); return s && s.turn.seat && !s.turn.ended ? s.turn.seat : null; }
    function minionFacts(n) { return F.facts(n, "minion") || {}; }
    function strikerMinion(seat) {
      var s = st(), a = s && s.action;
      if (!a) return null;
      if (seat === a.seat) return a.minion;
      if (seat === a.blocker || seat === a.attempting) return a.blocker_minion || null;
      return null;
    }

    // the forms' builder, on this table
    var FORM = makeForm({fields: F, send: ctx.send, once: ctx.once, vocabulary: ctx.vocabulary, table: {
      live: live, name: name, minionsAt: minionsAt, minionNames: minionNames, cardsAt: cardsAt, allCards: allCards,
      minionChoices: minionChoices}});
    var open = FORM.open, close = FORM.close, field = FORM.field, words = FORM.words, coerce = FORM.coerce,
        record = FORM.record, backToTable = FORM.backToTable, reveal = FORM.reveal, seatOf = FORM.seatOf;
    var ACTIONS = FORM.ACTIONS, WITH_CARD = FORM.WITH_CARD, STRIKES = FORM.STRIKES;
    function current() { return FORM.current(); }

    // --- the forms --------------------------------------------------------------------------------
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
    function blockForm(seat, title) {
      return open({title: title || tr("entry.blocks_with", {name: name(seat)}), base: {type: "block.declare", seat: seat}, compact: true,
                   required: ["minion"], record: "minion", focus: "minion",
                   fields: [field("seat", seat), field("minion", null, {label: tr("entry.blocking_minion")})]});
    }
    function strikeSpec(seat) {
      var m = strikerMinion(seat), f = m ? minionFacts(m) : {};
      return {minion: m, strength: f.strength == null ? 1 : f.strength};
    }
    function combatCards(seat) {
      // the combat cards this seat played in the combat in progress (since the block
      // succeeded or the combat began): they may set the strength of a hand strike
      var v = ctx.view(), s = st();
      if (!v || !s || !s.combat) return [];
      var out = [];
      for (var i = v.events.length - 1; i >= 0; i--) {
        var e = v.events[i], f = e.corrected || e;
        if (e.type === "block.result" || e.type === "action.declare" || e.type === "combat.step" && f.step === "end") break;
        if (e.retracted || f.seat !== seat || !f.card) continue;
        if (e.type === "card.play" || e.type === "interrupt" || e.type === "reaction" || e.type === "effect") {
          var cf = F.facts(f.card, "library");
          if (!cf || (cf.types || []).indexOf("Combat") >= 0) { if (out.indexOf(f.card) < 0) out.unshift(f.card); }
        }
      }
      return out;
    }
    function strikeForm(seat, title, done, opts) {
      // opts.record "damage": the damage chips record (a strike whose damage is said: after a
      // combat card, or a strike card's); opts.focus: the field to type in
      opts = opts || {};
      var sm = strikeSpec(seat);
      var byDamage = opts.record === "damage";
      var strikeField = field("strike", null, {change: function (v, c) {
        if (byDamage) return;   // the damage is tapped
        if (c.get("damage") === "" || c.values["auto:damage"]) {
          c.set("damage", v === "hand strike" ? sm.strength : v === "dodge" || v === "combat ends" ? 0 : "", {auto: true, quiet: true});
        }
      }});
      var fields = byDamage ? [
        field("seat", seat),
        field("card", null, {label: tr("entry.strike_card"), change: function (v, c) {
          if (!v) return;
          if (c.get("strike") === "" || c.values["auto:strike"]) c.set("strike", v, {auto: true, quiet: true});
          F.factsOf([v]).then(function () { if (current() === c) c.refresh(); });
        }}),
        field("discipline", null, {label: tr("entry.discipline"), show: function (c) {
          var cf = c.get("card") ? F.facts(c.get("card"), "library") : null;
          return !!(cf && cf.disciplines && cf.disciplines.length);
        }, chips: function (c) { return levelChips(c.get("card")); }}),
        strikeField, field("damage", null, {label: tr("recorder.field.damage")}),
        field("minion", sm.minion, {label: tr("entry.striking_minion")})
      ] : [field("seat", seat), field("damage", null), strikeField,
           field("card", null, {label: tr("entry.card_if_any")}), field("minion", sm.minion, {label: tr("entry.striking_minion")})];
      return open({title: title || tr("entry.strike_title", {who: who(seat)}), base: {type: "strike", seat: seat}, compact: true,
                   required: byDamage ? ["strike", "damage"] : ["strike"], record: byDamage ? "damage" : "strike",
                   done: done, focus: opts.focus || null, fields: fields});
    }
    function transferForm(seat, title, done) {
      return open({title: title || (name(seat) + " transfers"), base: {type: "transfer", seat: seat}, compact: true,
                   required: ["amount"], record: "amount", done: done, focus: null,
                   fields: [field("minion", null, {label: tr("entry.transfer_to")}),
                            field("amount", null, {label: tr("entry.pool_transferred")})]});
    }
    function termsForm(seat, title, done) {
      var s = st(), a = s && s.action;
      seat = seat || (a && a.seat);
      return open({title: title || tr("entry.terms_confirmed"), base: {type: "referendum.terms", seat: seat}, focus: "terms",
                   done: done, fields: [field("terms", null, {label: a && a.card ? tr("entry.terms_of", {card: a.card}) : tr("recorder.field.terms"),
                     inserts: function () { return live().map(name); }})],
                   extra: [[tr("entry.as_announced"), function () { record("terms", [{type: "referendum.terms", seat: seat, terms: "as announced"}], done); }]]});
    }
    function voteForm(seat, opts) {
      // one seat's vote when the panel's one tap is not enough, in one more tap: another
      // number ("For 3" records it), or a vampire the table does not show yet (with the side
      // already chosen, picking the vampire records it, its votes from the card facts)
      opts = opts || {};
      var side = opts.side || null;
      var fields = [field("seat", seat),
        field("vampire", opts.vampire || null, {label: side ? tr("entry.voting_vampire_" + side) : tr("recorder.field.vampire"),
          change: function (v, c) {
            var f = minionFacts(v);
            if (f.votes && (c.get("votes") === "" || c.values["auto:votes"])) c.set("votes", f.votes, {auto: true, quiet: true});
          }}),
        field("votes", opts.votes || null)];
      if (!side) {
        fields.push(field("side", null, {label: tr("entry.votes_and_side"), options: function (c) {
          // "For 3": the number and the side in one tap
          var top = Math.max(4, +c.get("votes") || 0), out = [];
          ["for", "against"].forEach(function (sd) {
            for (var n = 1; n <= top; n++) out.push([sd + ":" + n, tr(sd === "for" ? "entry.for_n" : "entry.against_n", {count: n})]);
          });
          out.push(["abstain:", tr("entry.abstain")]);
          return out;
        }}));
      }
      return open({
        title: opts.title || tr("entry.vote_title", {who: who(seat)}), base: {type: "vote", seat: seat}, done: opts.done,
        compact: true,
        required: side ? ["vampire"] : ["side"], record: side ? "vampire" : "side", focus: opts.focus || null,
        fields: fields,
        build: function (event) {
          if (side) event.side = side;
          else if (event.side) {
            var parts = String(event.side).split(":");
            event.side = parts[0];
            if (parts[1]) event.votes = +parts[1]; else delete event.votes;
          }
          var list = [event];
          if (event.vampire && !minionsAt(event.seat).some(function (m) { return m.name === event.vampire; })) {
            // a vampire the table drawing does not show yet: it came into play
            list.unshift({type: "minion.in", seat: event.seat, minion: event.vampire});
          }
          return list;
        }});
    }

    // --- the vote panel: one tap per seat ------------------------------------------------------------
    function titled(seat) {
      return minionsAt(seat).filter(function (m) { return m.votes > 0; });
    }
    function ballotWords(list) {
      return list.map(function (b) {
        if (b.side === "abstain") return tr("entry.abstains");
        return (b.votes != null ? b.votes + " " : "") + (b.side ? tr("entry.side_" + b.side) : "?") + (b.vampire ? " (" + b.vampire + ")" : "");
      }).join(", ");
    }
    function votePanel(s, step) {
      var a = s.action, ballots = (a && a.votes && a.votes.ballots) || {};
      var box = el("div", {"class": "rec-votes", role: "group", "aria-label": tr("recorder.field.votes")});
      box.appendChild(el("div", {"class": "rec-votes-head"}, (a && a.votes ? tr("entry.votes_head_count", {for: a.votes["for"], against: a.votes.against}) : tr("entry.votes_head"))));
      round(a ? a.seat : acting()).forEach(function (seat) {
        var vs = titled(seat), total = vs.reduce(function (n, m) { return n + m.votes; }, 0);
        var row = el("div", {"class": "rec-vote" + (step && step.seat === seat ? " is-next" : ""), "data-seat": seat});
        var what = vs.length ? vs.map(function (m) { return m.name + " (" + m.title + ", " + m.votes + ")"; }).join(", ")
          : tr("entry.no_titled");
        row.appendChild(el("div", {"class": "rec-vote-who"}, name(seat) + " — " + what));
        var done = ballots[String(seat)];
        if (done) {
          row.classList.add("is-done");
          row.appendChild(el("div", {"class": "rec-vote-done"}, "✓ " + ballotWords(done)));
          // another titled vampire of the seat may still vote (a second prince the table
          // learns of now): its own chips, one tap each; or one not seen yet, by name
          var cast = done.map(function (b) { return b.vampire; });
          var more = el("div", {"class": "rec-vote-buttons rec-vote-more"});
          vs.filter(function (m) { return cast.indexOf(m.name) < 0; }).forEach(function (m) {
            ["for", "against"].forEach(function (side) {
              more.appendChild(F.chip("+ " + m.name + " " + tr(side === "for" ? "entry.for_n" : "entry.against_n", {count: m.votes}), function () {
                record("vote:" + seat + ":" + m.name, [{type: "vote", seat: seat, votes: m.votes, side: side, vampire: m.name}]);
              }, {record: true, extra: "is-" + side}));
            });
          });
          ["for", "against"].forEach(function (side) {
            var b = F.chip("+ " + tr(side === "for" ? "entry.for_more" : "entry.against_more"), function () {
              voteForm(seat, {side: side, focus: "vampire", title: tr("entry.another_votes_" + side, {name: name(seat)})});
            }, {extra: "is-more is-" + side});
            b.setAttribute("aria-label", tr("entry.another_votes_" + side, {name: name(seat)}) + "…");
            more.appendChild(b);
          });
          row.appendChild(more);
          box.appendChild(row);
          return;
        }
        var buttons = el("div", {"class": "rec-vote-buttons"});
        var cast = function (side) {
          var events = side === "abstain" ? [{type: "vote", seat: seat, side: "abstain"}]
            : vs.map(function (m) { return {type: "vote", seat: seat, votes: m.votes, side: side, vampire: m.name}; });
          record("vote:" + seat, events);
        };
        // every button of the panel records (one tap a seat), but those with "…"
        if (total) {
          buttons.appendChild(F.chip(tr("entry.for_n", {count: total}), function () { cast("for"); }, {record: true, extra: "is-for"}));
          buttons.appendChild(F.chip(tr("entry.against_n", {count: total}), function () { cast("against"); }, {record: true, extra: "is-against"}));
        } else {   // no titled vampire seen: name the one who votes (its votes from the card facts)
          buttons.appendChild(F.chip(tr("entry.for_more"), function () { voteForm(seat, {side: "for", focus: "vampire"}); }, {extra: "is-for"}));
          buttons.appendChild(F.chip(tr("entry.against_more"), function () { voteForm(seat, {side: "against", focus: "vampire"}); }, {extra: "is-against"}));
        }
        buttons.appendChild(F.chip(tr("entry.abstain"), function () { cast("abstain"); }, {record: true}));
        if (vs.length > 1) buttons.appendChild(F.chip(tr("entry.split"), function () { split(row, seat, vs); }));
        if (total) {
          var other = F.chip("…", function () {
            voteForm(seat, {vampire: vs.length === 1 ? vs[0].name : null});
          }, {title: tr("entry.other_vote_title")});
          other.setAttribute("aria-label", tr("entry.other_vote"));
          buttons.appendChild(other);
        }
        row.appendChild(buttons);
        box.appendChild(row);
      });
      return box;
    }
    function split(row, seat, vs) {
      // each titled vampire votes on its own: one tap each
      var old = row.querySelector(".rec-vote-buttons");
      var box = el("div", {"class": "rec-vote-split"});
      vs.forEach(function (m) {
        var line = el("div", {"class": "rec-vote-one", "data-vampire": m.name});
        line.appendChild(el("span", {"class": "rec-vote-name"}, m.name + " (" + m.votes + ")"));
        ["for", "against", "abstain"].forEach(function (side) {
          line.appendChild(F.chip(tr("entry.split_" + side), function () {
            var ev = side === "abstain" ? {type: "vote", seat: seat, side: "abstain", vampire: m.name}
              : {type: "vote", seat: seat, votes: m.votes, side: side, vampire: m.name};
            ctx.once("vote:" + seat + ":" + m.name, function () {
              return ctx.send([ev]).then(function (ok) { if (ok) line.classList.add("is-done"); return ok; });
            });
          }, {record: true}));
        });
        box.appendChild(line);
      });
      old.replaceWith(box);
    }

    // --- the next steps: buttons, and chips under those that name a minion or a strike -----------------
    function stepButton(step) {
      var btn = el("button", {type: "button", "class": (step.kind === "secondary" ? "is-secondary" : "") +
        (step.chosen ? " is-for-chosen" : "")}, step.label);
      btn.addEventListener("click", function () {
        if (step.ask && step.ask.length) ask(step.label, step.event, step.ask);
        else record("next:" + step.label, [step.event]);
      });
      return btn;
    }
    function chipRow(step, chips, label) {
      var row = el("div", {"class": "rec-step-row" + (step.kind === "secondary" ? " is-secondary" : "")});
      row.appendChild(stepButton(step));
      row.appendChild(F.chips(label || null, chips));
      return row;
    }
    function extraSteps(s, steps) {
      // a tapped seat may answer the block opportunity even when no step is theirs (the
      // predator's "no block" on a bleed): its "no block" and "blocks with…"
      var c = ctx.chosen(), a = s.action;
      if (!c || !a || a.resolved || !a.actor_passed || s.combat || a.polling || c === a.seat) return steps;
      if ((a.done || []).indexOf(c) >= 0 || steps.some(function (x) { return x.event.type === "block.pass" && x.event.seat === c; })) return steps;
      return [{label: tr("entry.no_block", {who: who(c)}), event: {type: "block.pass", seat: c}, ask: [], kind: "primary", seat: c, chosen: true},
              {label: tr("entry.blocks_with_more", {name: name(c)}), event: {type: "block.declare", seat: c}, ask: ["minion"], kind: "secondary", seat: c, chosen: true}]
        .concat(steps);
    }
    function gameOverStep(s) {
      // a game that has ended: its result and each seat's VP, the one step left (record the
      // end, when it is not stored yet) — and nothing else: no action, vote or card row
      var over = s.game_over || {words: tr("recorder.game_over_words"), stored: true};
      var box = el("section", {"class": "rec-over", "aria-labelledby": "rec-over-h"});
      // the status line above says how it ended ("Game over — one player left: Ana"): the
      // step is the result
      box.appendChild(el("h2", {id: "rec-over-h", "class": "rec-over-h"}, tr("entry.result_vp")));
      if (over.score) {
        var list = el("ol", {"class": "rec-over-score", "aria-label": tr("entry.victory_points")});
        over.score.forEach(function (x) {
          var li = el("li", {"data-seat": x.seat});
          li.appendChild(el("span", {"class": "rec-over-name"}, tr("recorder.who_seat", {name: x.name, seat: x.seat})));
          if (x.out) li.appendChild(el("span", {"class": "rec-over-out"}, x.out));
          li.appendChild(el("b", {"class": "rec-over-vp"}, fmtVp(x.vp) + " VP"));
          list.appendChild(li);
        });
        box.appendChild(list);
      }
      (s.next || []).forEach(function (step) {
        if (step.event.type === "game.end") box.appendChild(stepButton(step));
      });
      deck.appendChild(box);
    }
    function fmtVp(v) { return v % 1 ? (Math.floor(v) || "") + "½" : String(v); }
    function renderDeck(s) {
      deck.textContent = "";
      if (!s) return;
      if (s.game_over || s.finished) { gameOverStep(s); return; }
      var steps = extraSteps(s, (s.next || []).map(ctx.forChosen));
      var voteShown = false;
      steps.forEach(function (step) {
        var t = step.event.type, seat = step.event.seat;
        if (t === "vote") {
          if (!voteShown) { deck.appendChild(votePanel(s, step)); voteShown = true; }
          return;
        }
        if (t === "action.declare" && step.ask.length) {
          deck.appendChild(chipRow(step, minionChoices(seat).map(function (n) {
            var m = minionFacts(n);
            return F.chip(n, function () { actionForm(seat, n); }, {hint: m.bleed > 1 ? tr("entry.bleed_n", {count: m.bleed}) : null});
          })));
          return;
        }
        if (t === "block.declare") {
          deck.appendChild(chipRow(step, minionChoices(seat).map(function (n) {
            return F.chip(n + " ✓", function () {
              record("block:" + seat, [{type: "block.declare", seat: seat, minion: n}]);
            }, {record: true});
          })));
          return;
        }
        if (t === "strike") {
          var sm = strikeSpec(seat), played = combatCards(seat);
          var list = STRIKES.map(function (k) {
            if (k === "hand strike" && played.length) {
              // a combat card played this combat may change the strength: the damage is
              // tapped, not taken from the vampire's base strength
              var open = F.chip(tr("entry.hand_strike_played", {cards: played.join(", ")}), function () {
                prefill(strikeForm(seat, null, null, {record: "damage"}), {strike: "hand strike"});
              });
              return open;
            }
            var damage = k === "hand strike" ? sm.strength : 0;
            return F.chip(tr("entry.strike_" + k.replace(" ", "_"), {damage: damage}) + " ✓", function () {
              var ev = {type: "strike", seat: seat, strike: k, damage: damage};
              if (sm.minion) ev.minion = sm.minion;
              record("strike:" + seat, [ev]);
            }, {record: true});
          });
          // opening chips after the recording ones, apart
          var ones = list.filter(function (c) { return c.classList.contains("is-record"); });
          var opens = list.filter(function (c) { return !c.classList.contains("is-record"); });
          opens.push(F.chip(tr("entry.with_a_card"), function () { strikeForm(seat, null, null, {record: "damage", focus: "card"}); }, {extra: "is-more"}));
          var row = chipRow(step, ones);
          row.appendChild(F.chips(tr("entry.opens_a_form"), opens));
          deck.appendChild(row);
          return;
        }
        if (t === "action.result" && step.event.outcome === "success" && s.action && s.action.kind === "bleed" &&
            s.action.amount != null) {
          // the bleed's amount as it stands now (after modifiers and a restated total) goes
          // with its success: the log says "Bleed for 4 succeeds"
          var amount = s.action.amount;
          deck.appendChild(stepButton(Object.assign({}, step, {label: tr("entry.bleed_succeeds", {amount: amount}),
            event: Object.assign({}, step.event, {amount: amount})})));
          return;
        }
        if (t === "transfer") {
          // the pool the seat transfers, in words on the chip and for a screen reader
          // ("Ana transfers 2 pool"), not a bare "2 ✓"
          deck.appendChild(chipRow(step, [1, 2, 3, 4, 5].map(function (n) {
            var b = F.chip(tr("entry.pool_n", {count: n}) + " ✓", function () { record("transfer", [{type: "transfer", seat: seat, amount: n}]); }, {record: true});
            b.setAttribute("aria-label", tr("entry.transfers_aria", {name: name(seat), count: n}));
            return b;
          }), tr("entry.pool_transfers", {name: name(seat)})));
          return;
        }
        deck.appendChild(stepButton(step));
      });
      if (!voteShown && s.action && s.action.polling && !s.action.resolved && s.action.kind === "political") {
        deck.appendChild(votePanel(s, null));   // every seat voted: the panel still shows the ballots
      }
      bleedRow(s);
      cardRow(s);
      minionInRow(s);
    }
    function bleedRow(s) {
      // a bleed in progress, its amount changed by a modifier: "bleeding for 4 now" in one
      // tap (a `bleed.total`); the amount the card facts give first
      var a = s.action;
      if (!a || a.resolved || a.kind !== "bleed" || s.combat || a.amount == null) return;
      var now = a.amount, list = [];
      for (var n = Math.max(1, now - 1); n <= now + 3; n++) list.push(n);
      list.sort(function (x, y) { return (y === now) - (x === now); });
      var chips = list.map(function (n) {
        var b = F.chip((n === now ? tr("entry.bleed_now", {count: n}) : String(n)) + " ✓", function () {
          record("bleed.total", [{type: "bleed.total", seat: a.seat, amount: n}]);
        }, {record: true});
        b.setAttribute("aria-label", tr("entry.restates_aria", {name: name(a.seat), count: n}));
        return b;
      });
      var row = F.chips(tr("entry.restates", {name: name(a.seat)}), chips);
      row.classList.add("rec-bleed-row");
      deck.appendChild(row);
    }
    function minionInRow(s) {
      // a minion comes into play (influence phase, or any time an effect brings one out)
      var seat = ctx.chosen() || acting();
      if (!seat || s.finished || (s.game_over && !s.game_over.stored) || s.action) return;
      var phase = s.turn && s.turn.phase;
      var b = F.chip(tr("entry.minion_in", {name: name(seat)}) + "…", function () { minionInForm(seat); },
                     {extra: "is-more" + (phase === "influence" ? " is-lead" : "")});
      deck.appendChild(F.chips(null, [b]));
    }
    function minionInForm(seat) {
      return open({title: tr("entry.minion_in", {name: name(seat)}), base: {type: "minion.in", seat: seat},
                   compact: true, required: ["minion"], record: "minion", focus: "minion",
                   fields: [field("seat", seat), field("minion", null, {label: tr("entry.minion_vampire_or_ally")})]});
    }
    function cardRow(s) {
      // the cards already played at the seat that acts (or the seat tapped): one tap to play again
      var seat = ctx.chosen() || acting();
      if (!seat || (s.game_over && !s.game_over.stored) || s.finished) return;
      var cards = cardsAt(seat).slice(0, 6);
      F.factsOf(cards);
      var list = cards.map(function (c) {
        return F.chip(c, function () { cardForm(seat, c); });
      });
      list.push(F.chip(cards.length ? tr("entry.other_card") : tr("entry.a_card"), function () { cardForm(seat, null); }, {extra: "is-more"}));
      var row = F.chips(name(seat) + " plays", list);
      row.classList.add("rec-card-row");
      deck.appendChild(row);
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

    return {renderDeck: renderDeck, ask: ask, heard: heard, minionInForm: minionInForm, actionForm: actionForm, cardForm: cardForm, reactionForm: reactionForm,
            redirectForm: redirectForm, voteForm: voteForm, blockForm: blockForm, amend: amend, close: close,
            isOpen: FORM.isOpen, showRefusal: FORM.showRefusal};
  };
})();
