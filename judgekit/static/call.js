/* A table's call page (players, no sign-in): the call's state follows the public stream
   (a judge took it, it is closed) without reloading. */
import { live as JKLive } from "./live.js";

(function () {
  var page = document.querySelector("[data-call-page]");
  if (!page) return;
  JKLive.localTimes(page);
  var box = page.querySelector("[data-call]");
  if (!box) return;
  var id = parseInt(box.getAttribute("data-call"), 10);
  var stream = JKLive.stream(page.getAttribute("data-stream"), parseInt(page.getAttribute("data-after"), 10) || 0);
  function set(status) {
    box.setAttribute("data-status", status);
    box.className = "call-status is-" + status;
  }
  var bogus = box.querySelector("[data-call-bogus]");
  function reread() {
    JKLive.getJSON(box.getAttribute("data-state")).then(function (body) {
      set(body.call.status);
      // only the phone that called reads `bogus`: a judge closed its call as not needed
      if (bogus) bogus.hidden = !(body.call.status === "closed" && body.call.bogus);
    }).catch(function () { /* offline: the next message or poll */ });
  }
  stream.on(function (msg) {
    if (msg.call === id) {
      if (msg.kind === "call.claimed" || msg.kind === "call.reassigned") set("claimed");
      else if (msg.kind === "call.closed") { set("closed"); reread(); }
    } else if (msg.kind === "resync" || msg.kind === "poll") {
      reread();
    }
  });
})();
