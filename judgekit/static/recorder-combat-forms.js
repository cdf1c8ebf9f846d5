/* The recorder page's combat: the block form, and the strike form (a hand strike's damage
   from the striking vampire's strength, or tapped after a combat card played this combat,
   or a strike card's), with what the next steps' strike chips read (`strikeSpec`, the
   combat cards a seat played: `combatCards`). Plain JS, no build step; recorder-entry.js
   makes them.

   combatForms(ctx, T, FORM, A) (exported) -> {blockForm(seat, title), strikeForm(seat, title,
     done, opts), strikeSpec(seat), combatCards(seat)}
   ctx: recorder-entry.js's; T: recorder-table.js's `table`; FORM: recorder-form.js's `form`;
   A: recorder-action-forms.js's (its levelChips). */
import { t as tr } from "./i18n.js";   // `t` is a seat or a type in places here

export function combatForms(ctx, T, FORM, A) {
  var F = ctx.fields;
  var st = T.st, name = T.name, who = T.who, minionFacts = T.minionFacts, strikerMinion = T.strikerMinion;
  var open = FORM.open, field = FORM.field, levelChips = A.levelChips;
  function current() { return FORM.current(); }

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

  return {blockForm: blockForm, strikeForm: strikeForm, strikeSpec: strikeSpec, combatCards: combatCards};
}
