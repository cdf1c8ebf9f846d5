"""The web app manifest (what makes judgekit installable), for the server and for a
published copy under another base path. Pure data, no Flask."""
from __future__ import annotations


def manifest_body(base: str = "/") -> dict:
    """The manifest of a site whose pages live under `base` ("/" or "/judgekit/")."""
    return {
        "name": "judgekit — VTES judge's companion",
        "short_name": "judgekit",
        "description": "VEKN tournament rules, announcement guidelines, cards and rulings, and a "
                       "table recorder, usable offline in the hall.",
        "id": base,
        "start_url": base,
        "scope": base,
        "display": "standalone",
        "orientation": "any",
        "background_color": "#fffdfa",
        "theme_color": "#5b1a1a",
        "lang": "en",
        "icons": [
            {"src": f"{base}static/icons/icon-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": f"{base}static/icons/icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": f"{base}static/icons/icon-maskable-512.png", "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
