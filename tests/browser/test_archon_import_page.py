"""Issue 27: a real Archon v1.5 workbook, filled and saved by LibreOffice, imported through the
page (the tournaments list's "Import an Archon workbook" form) shows the event: its name,
its 17 players, its three rounds and the final, and the winner the file gives."""
from __future__ import annotations

import re
from pathlib import Path

import openpyxl
from playwright.sync_api import expect

WORKBOOK = Path(__file__).parent.parent / "fixtures" / "archon" / "lo-17-players.xlsx"


def file_facts() -> dict:
    """What the file itself says: the event's name, its players, the final's winner."""
    wb = openpyxl.load_workbook(WORKBOOK, read_only=True, data_only=True)
    try:
        name = wb["Tournament Info"]["B3"].value
        players = {int(r[0]): f"{r[1]} {r[2]}" for r in wb["Methuselahs"].iter_rows(
            min_row=7, max_row=23, max_col=3, values_only=True) if r[0]}
        final = list(wb["Final Round"].iter_rows(min_row=14, max_row=18, max_col=10, values_only=True))
        winner = next(int(r[0]) for r in final if r[9] == 1)
    finally:
        wb.close()
    return {"name": name, "players": players, "winner": players[winner]}


def import_through_the_page(page, base: str, who: str) -> None:
    page.goto(f"{base}/tournaments")
    page.locator("#import-archon > summary").click()
    page.set_input_files("#ia-file", str(WORKBOOK))
    page.fill("#ia-org", who)
    page.locator("#import-archon button[type=submit]").click()


def test_a_libreoffice_saved_workbook_imports_through_the_page(desktop_page, own_server, shot):
    facts = file_facts()
    assert len(facts["players"]) == 17
    page = desktop_page
    import_through_the_page(page, own_server, "Olga Organizer")
    expect(page).to_have_url(re.compile(r"/tournaments/\d+$"))
    expect(page.locator("h1")).to_have_text(facts["name"])
    expect(page.get_by_text("Imported from the Archon workbook")).to_be_visible()
    expect(page.locator("#players-h")).to_be_visible()
    expect(page.locator("#player-list > li")).to_have_count(17)
    expect(page.locator("#rounds .round-name")).to_have_text(["Round 1", "Round 2", "Round 3", "Final"])
    for name in list(facts["players"].values())[:3]:
        expect(page.locator("#player-list .p-name", has_text=name)).to_be_visible()
    shot(page, "archon-import-dashboard-laptop")
    tid = page.url.rstrip("/").rsplit("/", 1)[1]
    page.goto(f"{own_server}/tournaments/{tid}/standings")
    expect(page.locator(".winner b")).to_have_text(facts["winner"])
    expect(page.locator("table.standings tbody tr")).to_have_count(17)


def test_the_import_on_a_phone(phone, own_server, shot):
    facts = file_facts()
    import_through_the_page(phone, own_server, "Olga Organizer")
    expect(phone.locator("h1")).to_have_text(facts["name"])
    expect(phone.locator("#player-list > li")).to_have_count(17)
    shot(phone, "archon-import-dashboard-phone")
