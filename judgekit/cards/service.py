"""The cards as the app serves them: the catalog, and where each card is named (pure Python).

One service per app, read-only and thread-safe; the catalog and the mentions are loaded on
first use (a page about a card, the search index build), not at start-up.
"""
from __future__ import annotations

import re
import threading
from pathlib import Path

from judgekit.cards.catalog import CardCatalog, CardInfo, load_catalog
from judgekit.cards.mentions import Mention, find_mentions
from judgekit.game.cards import load_cards
from judgekit.trainer.session import load_content

MAX_NAME = 200   # a longer "name" is not looked up (nor suggested for)


class CardsService:
    def __init__(self, content_dir: str | Path, corpus=None):
        self.content_dir = Path(content_dir)
        self.corpus = corpus
        self._lock = threading.Lock()
        self._mentions: dict[int, list[Mention]] | None = None

    @property
    def catalog(self) -> CardCatalog:
        return load_catalog(self.content_dir)

    def mentions(self, card: CardInfo) -> list[Mention]:
        """The guideline examples and trainer questions naming the card."""
        if self._mentions is None:
            with self._lock:
                if self._mentions is None:
                    try:
                        trainer = load_content(self.content_dir, load_cards(self.content_dir))
                    except (OSError, ValueError):   # no trainer content: examples only
                        trainer = None
                    self._mentions = find_mentions(self.catalog, self.corpus, trainer)
        return self._mentions.get(card.id, [])

    def lookup(self, address: str) -> tuple[CardInfo | None, list[CardInfo]]:
        """The card an address names (an id, or a name with -, _ or + for spaces), or None
        and the nearest names."""
        address = (address or "").strip()
        if not address:
            return None, []
        if address.isdigit() and len(address) <= 9:
            card = self.catalog.get(int(address))
            return card, []
        if len(address) > MAX_NAME:
            return None, []
        name = re.sub(r"[-_+]+", " ", address)
        card = self.catalog.find(address) or self.catalog.find(name)
        if card is not None:
            return card, []
        return None, self.catalog.suggest(name)
