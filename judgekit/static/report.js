// The report page: "Copy" puts the VEKN results string on the clipboard.
import { t } from "./i18n.js";
(function () {
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest("[data-copy-text]");
    if (!btn) return;
    var field = document.querySelector(btn.getAttribute("data-copy-text"));
    if (!field) return;
    var text = field.value || field.textContent;
    function done() {
      btn.textContent = t("app.copied");
      btn.classList.add("copied");
      setTimeout(function () { btn.textContent = t("report.copy"); btn.classList.remove("copied"); }, 2500);
    }
    function fallback() {
      field.focus(); field.select();
      try { document.execCommand("copy"); } catch (e) { /* selected: the user copies it */ }
      done();
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  });
})();
