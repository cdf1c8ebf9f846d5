/* The recorder page's political action after its declaration: the terms (as announced, or
   typed), the vote panel (one tap per seat: "For 3", "Against 3", abstain; a seat's titled
   vampires split, one tap each; a seat that voted may add another vampire's votes) and a
   seat's vote form when one tap is not enough. Plain JS, no build step; recorder-entry.js
   makes it, recorder-steps.js shows the panel.

   votes(ctx, T, FORM) (exported) -> {votePanel(state, step), voteForm(seat, opts),
     termsForm(seat, title, done)}
   ctx: recorder-entry.js's; T: recorder-table.js's `table`; FORM: recorder-form.js's `form`. */
import { t as tr } from "./i18n.js";   // `t` is a seat or a type in places here

export function votes(ctx, T, FORM) {
  var F = ctx.fields, el = F.el;
  var st = T.st, name = T.name, who = T.who, live = T.live, round = T.round, acting = T.acting;
  var minionsAt = T.minionsAt, minionFacts = T.minionFacts;
  var open = FORM.open, field = FORM.field, record = FORM.record;

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

  return {votePanel: votePanel, voteForm: voteForm, termsForm: termsForm};
}
