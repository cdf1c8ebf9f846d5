"""The tournament's pages as an organizer and a judge use them on a phone (QA walk-through):
flashed messages, the share link, result entry, closed rounds, controls per role, form
errors in words, times."""
from __future__ import annotations

import re

import pytest


def flashes(resp) -> list[str]:
    return re.findall(r'class="flash flash-[a-z]+"[^>]*>([^<]+)', resp.get_data(as_text=True))


@pytest.fixture
def org(client, signed_in):
    """Tournament 1 created over the API; the client is its organizer through the session
    (as in a browser). Returns {"tid", "csrf"}."""
    r = client.post("/api/tournaments", json={"name": "Page Cup", "organizer": "Ola"})
    tid = r.get_json()["id"]
    csrf = signed_in(client, tid, "organizer", how="session")
    return {"tid": tid, "csrf": csrf}


# --- flashed messages ------------------------------------------------------------------------

def test_a_background_fetch_does_not_take_the_flash_of_the_next_page(client, org):
    """The service worker saves the rules pages for offline use while the organizer works:
    those fetches (Sec-Fetch-Dest: empty) rendered base.html and took "Filip registered"
    before the dashboard could show it (the flaky browser test), and kept it in the copy."""
    tid = org["tid"]
    r = client.post(f"/tournaments/{tid}/players", data={"name": "Filip", "vekn": "", "csrf_token": org["csrf"]})
    assert r.status_code == 302
    saved = client.get("/rules/tournament-rules/3.7.2", headers={"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors"})
    assert saved.status_code == 200 and not flashes(saved)
    prefetched = client.get("/", headers={"Sec-Purpose": "prefetch"})
    assert not flashes(prefetched)
    page = client.get(f"/tournaments/{tid}", headers={"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"})
    assert any("Filip registered" in f for f in flashes(page))
    assert not flashes(client.get(f"/tournaments/{tid}"))  # shown once
    # a navigation the service worker passes on to the network: dest "empty", mode "navigate"
    client.post(f"/tournaments/{tid}/players", data={"name": "Gina", "vekn": "", "csrf_token": org["csrf"]})
    page = client.get(f"/tournaments/{tid}", headers={"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "navigate"})
    assert any("Gina registered" in f for f in flashes(page))
