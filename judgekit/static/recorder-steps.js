/* The recorder page's next steps (the engine's `state.next`): a big button each, and under
   those that name something one-tap chips (a minion that acts or blocks, a strike, the pool
   transferred); the vote panel in place of the votes; the bleed restated, the cards played
   again, a minion coming into play; a game that has ended shows its result instead. Plain
   JS, no build step; recorder-entry.js makes it, recorder.js calls renderDeck.

   steps(ctx, T, FORM, forms) (exported) -> {renderDeck(state)}
   ctx: recorder-entry.js's; T: recorder-table.js's `table`; FORM: recorder-form.js's `form`;
   forms: the forms a step opens {ask, actionForm, cardForm, prefill, strikeForm, strikeSpec,
     combatCards, votePanel, minionInForm} (recorder-entry.js, recorder-action-forms.js,
     recorder-combat-forms.js, recorder-votes.js). */
import { t as tr } from "./i18n.js";   // `t` is a seat or a type in places here

export function steps(ctx, T, FORM, forms) {
  var F = ctx.fields, el = F.el, deck = document.getElementById("rec-next");
  var name = T.name, who = T.who, minionChoices = T.minionChoices, cardsAt = T.cardsAt, acting = T.acting,
      minionFacts = T.minionFacts;
  var record = FORM.record, STRIKES = FORM.STRIKES;
  var ask = forms.ask, actionForm = forms.actionForm, cardForm = forms.cardForm, prefill = forms.prefill,
      strikeForm = forms.strikeForm, strikeSpec = forms.strikeSpec, combatCards = forms.combatCards,
      votePanel = forms.votePanel, minionInForm = forms.minionInForm;

  // --- the next steps: buttons, and chips under those that name a minion or a strike -----------------
  function stepButton(step) {
    var btn = el("button", {type: "button", "class": (step.kind === "secondary" ? "is-secondary" : "") +
      (step.chosen ? " is-for-chosen" : "")}, step.label);
    btn.addEventListener("click", function () {
      if (step.ask && step.ask.length) ask(step.label, step.event, step.ask);
      else record("next:" + step.label, [step.event], null, step.label);
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

  return {renderDeck: renderDeck};
}
