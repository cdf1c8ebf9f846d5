"""The cards a recorder event names, with their pages (pure Python, no Flask).

The recorder's event vocabulary (`judgekit.recorder.events.VOCABULARY`) types each field:
`card` fields name a library card ("Govern the Unaligned"), `minion` fields a vampire or an
ally ("Alexa Draper"). `event_cards` looks each one up as the recorder does (its card index:
case, accents, versions) and gives the page what it needs to link the name where the log
line or a finding writes it: `[{"name": as written, "id": VEKN id, "url": "/cards/<id>"}]`.
"""
from __future__ import annotations

from typing import Any

from judgekit.recorder.events import VOCABULARY

NAME_TYPES = ("card", "minion")


def event_cards(event: dict[str, Any], index) -> list[dict[str, Any]]:
    """The cards `event` names (its corrected fields for an amended one), once each."""
    spec = VOCABULARY.get(event.get("type"))
    if spec is None or index is None:
        return []
    fields = [k for k, kind in spec[1].items() if kind in NAME_TYPES]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for source in (event.get("corrected") or event, event):
        for key in fields:
            name = source.get(key)
            if not isinstance(name, str) or not name.strip() or len(name) > 200 or name in seen:
                continue
            seen.add(name)
            card = index.find(name)
            if card is not None:
                out.append({"name": name, "id": card.id, "url": f"/cards/{card.id}"})
    return out
