// The published copy's home page: start reading the offline index while the page still
// opens, so that a judge who types at once does not wait for it. Loaded from the head
// (templates/rules/home.html; not `async`, which Chrome ran only just before the page's
// other scripts), after a `<link rel="preload">` that has already asked for the file: this
// fetch takes that answer, reads and parses it while the page goes on loading. static/offline-search.js takes
// window.judgekitIndexEarly ({url, data: Promise of the parsed index}) when the address
// matches, else reads the index itself.
(function () {
  "use strict";
  var me = document.currentScript, url = me && me.getAttribute("data-offline-index");
  if (!url || !window.fetch || !window.Promise) return;
  function mark(name) { if (window.performance && performance.mark) performance.mark("judgekit-index-" + name); }
  mark("fetch");
  var data = fetch(url).then(function (r) {
    if (!r.ok) throw new Error("the offline index answered " + r.status);
    return r.text();
  }).then(function (text) {
    mark("read");
    var parsed = JSON.parse(text);
    mark("parsed");
    return parsed;
  });
  data.catch(function () {});   // offline-search.js reads the index itself then
  window.judgekitIndexEarly = { url: url, data: data };
})();
