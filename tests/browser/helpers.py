"""Helpers shared by the browser tests (imported as `from helpers import ...`)."""
from __future__ import annotations

from playwright.sync_api import expect


def line(page, text):
    """Type `text` into the recorder page's quick-entry line and send it; fail with the
    page's message unless the line was taken (the input empties)."""
    page.fill("#rec-input", text)
    page.click(".rec-send")
    try:
        expect(page.locator("#rec-input")).to_have_value("")
    except AssertionError:
        raise AssertionError(f"{text!r} not taken: {page.locator('#rec-msg').inner_text()}")
