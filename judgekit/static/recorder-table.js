/* What the recorder page's entry reads off the game's state (the table drawing's): the seats
   still in, round the table from one, each seat's minions and the cards played there, the
   minions only heard of at the table, the prey, the acting seat, the minion that strikes.
   Plain JS, no build step; recorder-entry.js makes it for its forms and next steps.

   table(ctx) (exported) -> {st, name, who, live, round, minionsAt, minionNames, heard,
     minionChoices, cardsAt, allCards, prey, acting, minionFacts, strikerMinion}
   ctx: recorder-entry.js's {seats, fields (recorder-fields.js `fields`), view()} */
import { t as tr } from "./i18n.js";   // `t` is a seat or a type in places here

export function table(ctx) {
  var F = ctx.fields, SEATS = ctx.seats;

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

  return {st: st, name: name, who: who, live: live, round: round, minionsAt: minionsAt, minionNames: minionNames,
          heard: heard, minionChoices: minionChoices, cardsAt: cardsAt, allCards: allCards, prey: prey,
          acting: acting, minionFacts: minionFacts, strikerMinion: strikerMinion};
}
