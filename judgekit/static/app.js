// judgekit: small shared behaviour. No framework, no build step.
import { t } from "./i18n.js";
(function () {
  // "/" focuses the search box (unless typing in a field already).
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var box = document.querySelector("[data-search-main]") || document.querySelector("[data-search-shortcut]");
    if (box) { ev.preventDefault(); box.focus(); box.select(); }
  });

  // The header box names the "/" key only where a keyboard is likely (not on phones).
  if (window.matchMedia && matchMedia("(hover: hover) and (pointer: fine)").matches) {
    document.querySelectorAll("[data-key-placeholder]").forEach(function (box) {
      box.placeholder = box.getAttribute("data-key-placeholder");
    });
  }

  // Copy-link buttons: copy the absolute URL of the anchor they carry. Once copied the
  // button reads "Copied ✓" (and says so to screen readers) for a moment, then "#" again.
  var status = null;
  function announce(text) {
    if (!status) {
      status = document.createElement("div");
      status.className = "visually-hidden"; status.setAttribute("role", "status");
      document.body.appendChild(status);
    }
    status.textContent = "";
    setTimeout(function () { status.textContent = text; }, 50);
  }
  function copied(btn) {
    if (!btn.hasAttribute("data-label")) {
      btn.setAttribute("data-label", btn.getAttribute("aria-label") || "");
      btn.setAttribute("data-text", btn.textContent);
    }
    clearTimeout(btn._copiedTimer);
    btn.classList.add("copied");
    btn.textContent = t("app.copied");
    btn.setAttribute("aria-label", t("app.link_copied"));
    announce(t("app.link_copied"));
    btn._copiedTimer = setTimeout(function () {
      btn.classList.remove("copied");
      btn.textContent = btn.getAttribute("data-text");
      btn.setAttribute("aria-label", btn.getAttribute("data-label"));
    }, 2000);
  }
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest("[data-copy-link]");
    if (!btn) return;
    ev.preventDefault();
    var url = new URL(btn.getAttribute("data-copy-link"), location.href).href;
    function done() { copied(btn); }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { fallback(url); done(); });
    } else { fallback(url); done(); }
    if (navigator.share && btn.hasAttribute("data-share") && /Mobi/.test(navigator.userAgent)) {
      navigator.share({ url: url }).catch(function () {});
    }
  });
  function fallback(text) {
    var ta = document.createElement("textarea");
    ta.value = text; ta.setAttribute("readonly", ""); ta.style.position = "absolute"; ta.style.left = "-9999px";
    document.body.appendChild(ta); ta.select();
    try { document.execCommand("copy"); } catch (e) { /* ignore */ }
    document.body.removeChild(ta);
  }

  // Glossary terms: show the definition on hover (desktop) or tap (phone).
  var pop = null;
  function hidePop() { if (pop) { pop.remove(); pop = null; } }
  function showPop(a) {
    hidePop();
    var def = a.getAttribute("data-definition");
    if (!def) return;
    pop = document.createElement("div");
    pop.className = "term-pop"; pop.setAttribute("role", "tooltip");
    pop.textContent = def;
    var more = document.createElement("a"); more.href = a.href; more.textContent = " " + t("app.read_in_appendix_b");
    pop.appendChild(document.createElement("br")); pop.appendChild(more);
    document.body.appendChild(pop);
    var r = a.getBoundingClientRect();
    pop.style.top = (window.scrollY + r.bottom + 6) + "px";
    pop.style.left = Math.max(8, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - pop.offsetWidth - 8)) + "px";
  }
  document.addEventListener("mouseover", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.term");
    if (a && matchMedia("(hover: hover)").matches) showPop(a);
  });
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.term");
    if (a && !matchMedia("(hover: hover)").matches && (!pop || pop.dataset.for !== a.href)) {
      ev.preventDefault(); showPop(a); if (pop) pop.dataset.for = a.href; return;
    }
    if (pop && !(ev.target.closest && ev.target.closest(".term-pop"))) hidePop();
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") hidePop(); });

  // Landing on a paragraph or an example (a search result, a shared link) scrolls past the
  // section's heading: the block then names its section at its top, so the judge can quote
  // the number; the name links back to the heading.
  function citeTarget() {
    var old = document.querySelector(".target-cite");
    if (old) old.parentNode.removeChild(old);
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target || !target.matches(".block, .example")) return;
    var section = target.closest("section.section");
    var heading = section && section.querySelector(".section-head h1, .section-head h2, .section-head h3, " +
                                                   ".section-head h4, .section-head h5, .section-head h6");
    if (!heading) return;
    var cite = document.createElement("a");
    cite.className = "target-cite";
    cite.href = "#" + heading.id;
    cite.textContent = heading.textContent.trim();
    target.insertBefore(cite, target.firstChild);
  }
  citeTarget();
  window.addEventListener("hashchange", citeTarget);

  // Keyboard users get the definition when the term has focus.
  document.addEventListener("focusin", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.term");
    if (a) showPop(a);
    else if (pop && !(ev.target.closest && ev.target.closest(".term-pop"))) hidePop();
  });

  // "Print" buttons (no inline handlers: the Content-Security-Policy allows none).
  document.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-print]")) window.print();
  });
})();
