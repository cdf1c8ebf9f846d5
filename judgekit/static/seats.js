// Find your table, as you type: the lookup form asks the server for its answer only
// (the same address with part=results: one matcher, one template) and puts it in place.
// Without this script the form is a plain GET form and the page answers in full.
(function () {
  var form = document.querySelector("[data-seat-find]");
  var out = document.getElementById("seat-results");
  if (!form || !out || !window.fetch || !window.URLSearchParams) return;
  var input = form.querySelector("input[name=q]");
  var timer = null, pending = null, shown = input.value;

  function ask(query, submitted) {
    if (pending && pending.abort) pending.abort();
    pending = window.AbortController ? new AbortController() : null;
    var params = new URLSearchParams();
    params.set("q", query);
    params.set("part", "results");
    var url = form.getAttribute("action") + "?" + params.toString();
    fetch(url, {credentials: "same-origin", signal: pending ? pending.signal : undefined})
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (query !== input.value.trim()) return;  // typed on meanwhile: the next answer comes
        out.innerHTML = html;
        shown = query;
        var page = new URLSearchParams();
        if (query) page.set("q", query);
        var address = form.getAttribute("action") + (query ? "?" + page.toString() : "");
        if (window.history && history.replaceState) history.replaceState(null, "", address);
      })
      .catch(function (err) {
        // aborted (typed on), or the answer failed: a press of Find then loads the page whole
        if (submitted && !(err && err.name === "AbortError")) form.submit();
      });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var query = input.value.trim();
      if (query !== shown) ask(query);
    }, 150);
  });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    clearTimeout(timer);
    ask(input.value.trim(), true);
  });
})();
