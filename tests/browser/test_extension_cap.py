"""The recorder page's "Extend time…" asks for the same over-cap confirmation as the
tournament's time page: an extension that takes the table past the 10-minute cap is
recorded only on a second, confirming tap."""
from __future__ import annotations

from playwright.sync_api import expect

from judgekit.db import open_db
from judgekit.recorder import clock, store


def test_an_extension_over_the_cap_needs_a_second_tap(page, live_server, live_app, shot):
    db = open_db(live_app.config["DATABASE"])
    try:
        gid = store.create_game(db, ["Ann", "Ben", "Cid", "Dee"], label="Cap")
        store.append_events(db, gid, [{"type": "game.start"},
                                      {"type": "time.extend", "minutes": 8, "reason": "long ruling"}])
    finally:
        db.close()

    def extensions():
        d = open_db(live_app.config["DATABASE"])
        try:
            return [e["minutes"] for e in store.load_events(d, gid) if e["type"] == "time.extend"]
        finally:
            d.close()

    page.goto(f"{live_server}/games/{gid}")
    page.get_by_role("button", name="Extend time…").click()
    form = page.locator("#rec-ask")
    form.locator("[name=minutes]").fill("5")
    form.locator("[name=reason]").fill("judge call at the table")
    form.get_by_role("button", name="Record").click()
    warning = form.locator(".rec-ask-warn")
    expect(warning).to_contain_text(f"13 minutes of extensions this round. Judges may cap a table's "
                                    f"extensions at {clock.EXTENSION_CAP_MIN} minutes a round")
    shot(page, "recorder-extension-over-cap-360", full_page=False)
    assert extensions() == [8]  # nothing sent yet
    # changing the minutes asks again; 2 more stay under the cap and go at once
    form.locator("[name=minutes]").fill("2")
    expect(warning).to_have_count(0)
    form.locator("[name=minutes]").fill("5")
    form.get_by_role("button", name="Record").click()
    form.get_by_role("button", name="Record over the cap").click()
    expect(form).to_be_hidden()
    expect(page.locator(".rec-clock-note")).to_contain_text("+13 min")
    assert extensions() == [8, 5]
