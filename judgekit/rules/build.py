"""The stored index of the rules and the cards: what it must have been built from (its
stamp) and its building (`judgekit.rules.index_store` writes it)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from judgekit.rules.corpus import Corpus
from judgekit.rules.entries import entries_of
from judgekit.rules.index_store import build_index as store_index

# Bump when the analyzer, the entries or the card names table stored beside them change:
# the index is then rebuilt. (A ranking constant or a part's setting needs no bump: the
# offline copy's version follows them, `offline.search_index.index_version`.)
INDEX_VERSION = "50"


def index_stamp(corpus: Corpus, extra: str = "") -> str:
    """What the stored index must have been built from: the rules content, this version,
    and the other sources' stamp (the card files)."""
    return f"{corpus.content_hash}:{INDEX_VERSION}" + (f":{extra}" if extra else "")


def build_index(corpus: Corpus, index_dir: str | Path,
                progress: Callable[[str], None] | None = None, cards=(),
                cards_stamp: str = "", extra: dict | None = None) -> None:
    """Write a fresh index of the rules (and of the cards' entries) into `index_dir`."""
    parts = {"rules": entries_of(corpus)}
    if cards:
        parts["cards"] = list(cards)
    store_index(parts, index_stamp(corpus, cards_stamp), index_dir, extra=extra, progress=progress)
