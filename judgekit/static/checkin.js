// Check-in by phone: the code shown on the dashboard (and full screen) changes every ten
// minutes; this keeps the code, its QR code and the link current without a reload.
(function () {
  var box = document.querySelector("[data-checkin-state]");
  if (!box || !window.fetch) return;
  var api = box.getAttribute("data-checkin-state");
  var qr = box.getAttribute("data-qr");
  var seen = box.getAttribute("data-window");
  var img = box.querySelector("[data-checkin-qr]");
  var code = box.querySelector("[data-checkin-code]");
  var link = box.querySelector("[data-checkin-link]");
  function refresh() {
    fetch(api, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s || !s.open || String(s.window) === seen) return;
        seen = String(s.window);
        if (img) img.src = qr + "?w=" + encodeURIComponent(seen);
        if (code) code.textContent = s.code;
        if (link && s.url) { link.href = s.url; link.textContent = s.url; }
      })
      .catch(function () {});
  }
  setInterval(refresh, 20000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
})();
