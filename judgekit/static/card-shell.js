// The card shell: a card page (or a card group's page) drawn on this device from the cards'
// data (/offline/cards.json, judgekit/offline/cards_data.py), for a card page that was not
// saved. The service worker answers /cards/<id> with this page when the network fails; it
// reads the id from the address and shows what templates/cards/card.html shows (name,
// facts, text, every ruling with its sources, the card's groups, other versions), with
// the same markup rules as judgekit/cards/markup.py.
import { t } from "./i18n.js";
import { site } from "./site.js";

(function () {
  var root = document.querySelector("[data-card-shell]");
  if (!root) return;
  function u(path) { return site && site.url ? site.url(path) : path; }
  var status = root.querySelector("[data-shell-status]");
  var title = root.querySelector("[data-shell-title]");

  var ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
  function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return ESC[c]; }); }

  // the card text's symbols ([ACTION]) and their words (cards.symbol.<symbol>)
  var SYMBOLS = {};
  ["ACTION", "POLITICAL ACTION", "ALLY", "RETAINER", "EQUIPMENT", "ACTION MODIFIER", "REACTION", "COMBAT",
   "REFLEX", "POWER", "FLIGHT", "MERGED", "CONVICTION"].forEach(function (s) {
    SYMBOLS[s] = t("cards.symbol." + s.toLowerCase().replace(" ", "_"));
  });
  var VIRTUES = { def: 1, inn: 1, jud: 1, mar: 1, red: 1, ven: 1, viz: 1 };
  var TOKEN = /\[(?:(\d+) )?([A-Za-z]{3}|[A-Z][A-Z ]+[A-Z])\]|\{(\d+)\|([^{}]*)\}/g;

  function markup(text, data) {
    var out = "", pos = 0, m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(text)) !== null) {
      out += esc(text.slice(pos, m.index));
      pos = m.index + m[0].length;
      if (m[3]) {
        out += data.cards[m[3]] ? '<a class="card-link" href="' + esc(u("/cards/" + m[3])) + '">' + esc(m[4]) + "</a>"
          : esc(m[4]);
        continue;
      }
      var count = m[1], raw = m[2], low = raw.toLowerCase();
      if (SYMBOLS[raw.toUpperCase()] && (raw.length > 3 || raw === raw.toUpperCase())) {
        var word = SYMBOLS[raw.toUpperCase()];
        out += '<abbr class="sym" title="' + esc(count ? count + " " + word : word) + '">' +
          esc(count ? count + " " + raw : raw) + "</abbr>";
      } else if (data.disciplines[low] && (raw === low || raw === raw.toUpperCase())) {
        var name = data.disciplines[low];
        if (VIRTUES[low]) out += '<abbr class="dis dis-virtue" title="' + esc(t("cards.virtue", {name: name})) + '">' + low + "</abbr>";
        else if (raw === low) out += '<abbr class="dis dis-inf" title="' + esc(t("cards.inferior", {name: name})) + '">' + raw + "</abbr>";
        else out += '<abbr class="dis dis-sup" title="' + esc(t("cards.superior", {name: name})) + '">' + raw + "</abbr>";
      } else out += esc(m[0]);
    }
    out += esc(text.slice(pos));
    return out.replace(/\n/g, "<br>").replace(/Ⓓ/g, '<abbr class="sym" title="' + esc(t("cards.directed_action")) + '">Ⓓ</abbr>');
  }

  function refLink(label, data) {
    var head = label.split(" ")[0], rest = label.slice(head.length + 1);
    var digits = rest.split("-")[0], shown;
    if (/^\d{8}$/.test(digits)) shown = head + " " + digits.slice(0, 4) + "-" + digits.slice(4, 6) + "-" + digits.slice(6);
    else shown = (data.authors[head] || head) + ": " + rest.replace(/-/g, " ");
    return '<a class="source" href="' + esc(data.refs[label] || "#") + '" rel="noopener external" title="' +
      esc(data.authors[head] || head) + '">' + esc(shown) + "</a>";
  }

  function rulingItem(r, anchor, groupId, data) {
    var html = '<li class="ruling block" id="' + anchor + '"><p class="ruling-text">' + markup(r.text, data) +
      (r.reminder ? ' <span class="reminder" title="' + esc(t("cards.reminder_title")) + '">' + esc(t("cards.reminder")) + "</span>" : "") + "</p>" +
      '<p class="ruling-meta">';
    if (groupId) html += '<a class="ruling-group" href="' + esc(u("/cards/groups/" + groupId)) + '">' + esc(data.groups[groupId][0]) + "</a> · ";
    html += r.refs.map(function (x) { return refLink(x, data); }).join(" ") + "</p></li>";
    return html;
  }

  function cardRulings(id, card, data) {
    var out = [];
    card[6].forEach(function (r) { out.push({ text: r[0], refs: r[1], reminder: r[2], group: null }); });
    card[7].forEach(function (gid) {
      var g = data.groups[gid], prefix = "";
      g[1].forEach(function (m) { if (String(m[0]) === id) prefix = m[1]; });
      g[2].forEach(function (r) {
        var own = r[3][id];
        out.push(own ? { text: own[0], refs: own[1], reminder: r[2], group: gid }
                     : { text: prefix ? prefix + " " + r[0] : r[0], refs: r[1], reminder: r[2], group: gid });
      });
    });
    return out;
  }

  function renderCard(id, data) {
    var card = data.cards[id];
    if (!card) return notFound(t("cards.no_card", {id: id}));
    document.title = t("cards.card_page_title", {name: card[1]});
    var kind = document.querySelector("[data-shell-kind]");
    if (kind) kind.textContent = card[2].join(" / ");
    var html = '<div class="section-head"><h1>' + esc(card[0]) +
      (card[1] !== card[0] ? ' <span class="version">' + esc(card[1].slice(card[0].length)) + "</span>" : "") + "</h1>" +
      '<button type="button" class="copy-link" data-copy-link="' + esc(u("/cards/" + id)) + '" aria-label="' +
      esc(t("cards.copy_link_to", {name: card[1]})) + '" title="' + esc(t("cards.copy_link")) + '">#</button></div>';
    html += '<dl class="card-facts"><div><dt>' + esc(t("cards.type")) + "</dt><dd>" + esc(card[2].join(" / ")) + "</dd></div>";
    card[3].forEach(function (f) {
      html += "<div><dt>" + esc(f[0]) + "</dt><dd" + (f[0] === "Banned" ? ' class="banned"' : "") + ">" +
        markup(f[1], data) + "</dd></div>";
    });
    html += "</dl>" + '<div class="card-text" id="text">' + markup(card[4], data) + "</div>";
    if (card[8].length) {
      html += '<p class="card-versions">' + esc(t("cards.other_versions")) + " " + card[8].map(function (v) {
        var other = data.cards[String(v)];
        return '<a href="' + esc(u("/cards/" + v)) + '">' + esc(other ? other[1] : v) + "</a>";
      }).join(", ") + "</p>";
    }
    var rulings = cardRulings(id, card, data);
    html += '<section class="rulings" aria-labelledby="h-rulings"><h2 id="h-rulings">' + esc(t("cards.rulings")) +
      (rulings.length ? ' <span class="count">(' + rulings.length + ")</span>" : "") + "</h2>";
    if (rulings.length) {
      html += '<ol class="ruling-list">' + rulings.map(function (r, i) {
        return rulingItem(r, "r" + (i + 1), r.group, data);
      }).join("") + "</ol>";
    } else html += '<p class="muted">' + esc(t("cards.no_ruling")) + "</p>";
    html += "</section>";
    if (card[7].length) {
      html += '<section class="card-groups" aria-labelledby="h-groups"><h2 id="h-groups">' + esc(t("cards.card_groups")) + "</h2><ul>" +
        card[7].map(function (gid) {
          return '<li><a href="' + esc(u("/cards/groups/" + gid)) + '">' + esc(data.groups[gid][0]) +
            '</a> <span class="muted">(' + esc(t("cards.n_cards", {count: data.groups[gid][1].length})) + ")</span></li>";
        }).join("") + "</ul></section>";
    }
    if (card[5].length) {
      html += '<p class="card-sets muted">' + esc(t("cards.printed_in", {sets: card[5].map(function (s) { return data.sets[s] || s; }).join(", ")})) + "</p>";
    }
    show(html, data);
  }

  function renderGroup(gid, data) {
    var g = data.groups[gid];
    if (!g) return notFound(t("cards.no_group", {id: gid}));
    document.title = t("cards.group_page_title", {name: g[0]});
    var kind = document.querySelector("[data-shell-kind]");
    if (kind) kind.textContent = t("cards.card_group");
    var html = '<div class="section-head"><h1>' + esc(g[0]) + "</h1></div>" +
      '<section class="rulings"><h2>' + esc(t("cards.rulings")) + " (" + g[2].length + ')</h2><ol class="ruling-list">' +
      g[2].map(function (r, i) { return rulingItem({ text: r[0], refs: r[1], reminder: r[2] }, "r" + (i + 1), null, data); }).join("") +
      "</ol></section><section><h2>" + esc(t("cards.cards")) + " (" + g[1].length + ')</h2><ul class="group-members">' +
      g[1].map(function (m) {
        var c = data.cards[String(m[0])];
        return '<li><a href="' + esc(u("/cards/" + m[0])) + '">' + esc(c ? c[1] : m[0]) + "</a>" +
          (m[1] ? ' <span class="muted">' + markup(m[1], data) + "</span>" : "") + "</li>";
      }).join("") + "</ul></section>";
    show(html, data);
  }

  function show(html, data) {
    root.innerHTML = html;
    var note = document.querySelector("[data-shell-note]");
    if (note) note.hidden = false;
    var credits = document.querySelector("[data-shell-credits]");
    if (credits) credits.textContent = data.attribution.join(" ") + " " + t("cards.data_source", {source: data.source});
    if (location.hash) {
      var target = document.getElementById(location.hash.slice(1));
      if (target) target.scrollIntoView();
    }
  }

  function notFound(message) {
    title.textContent = t("cards.not_in_copy");
    status.textContent = message;
  }

  var m = /\/cards\/(?:groups\/(G\d+)|(\d+))\/?$/.exec(location.pathname);
  if (!m) {
    title.textContent = t("cards.cards_and_rulings");
    status.textContent = t("cards.open_a_card");
    return;
  }
  fetch(root.getAttribute("data-cards-url")).then(function (r) {
    if (!r.ok) throw new Error("status " + r.status);
    return r.json();
  }).then(function (data) {
    if (m[1]) renderGroup(m[1], data); else renderCard(m[2], data);
  }).catch(function () {
    notFound(t("cards.not_saved"));
  });
})();
