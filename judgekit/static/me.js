// A player's own page (templates/reports/me.html): while it is open, ask every few seconds
// whether the table's report changed (another player confirmed, disagreed, a judge stored
// the result) and reload it then — unless the player is typing in a form (the VP, the
// decklist). The page says how often (`data-every`, seconds): 4 s while the table's result
// is open, 30 s once it is in or between rounds (the next round's seating).
const page = document.getElementById("me-page");
const url = page && page.dataset.meState;
const EVERY_MS = 1000 * (Number(page && page.dataset.every) || 4);

function typing() {
  const active = document.activeElement;
  if (active && active.matches("input, textarea") && active.value) return true;
  return [...document.querySelectorAll(".me-propose .vp-input, .me-deck textarea")].some((i) => i.value !== "");
}

async function check() {
  try {
    const reply = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (reply.ok) {
      const state = await reply.json();
      if (state.version !== page.dataset.version && !typing()) {
        window.location.reload();
        return;
      }
    }
  } catch (err) {
    // offline for a moment: ask again later
  }
  setTimeout(check, EVERY_MS);
}

if (url) setTimeout(check, EVERY_MS);
