"""What a search gives back (`Hit`: an entry, its score, snippet and link), and what a part
of the index may add to its ranking (`EntryFactors`: the cards' factors)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from judgekit.rules.entries import Entry
from judgekit.rules.query import Group


#: The score of an answer the query names (`Hit.direct`), shown above any other's.
DIRECT_SCORE = 1000.0


@dataclass
class Hit:
    entry: Entry
    score: float
    snippet: str      # HTML: escaped text with <mark> around matched words
    url: str          # entry URL, or the anchor of the paragraph the snippet comes from
    coverage: float = 1.0   # the share of the query's weight the entry holds (its part's)
    #: asked for by name: a section's number, a card's name (or a ruling of that card); ranked
    #: before every other answer, at `DIRECT_SCORE`
    direct: bool = False


class EntryFactors(Protocol):
    """A part's own factors for the candidate entries' scores: docnum -> factor for those
    that have one (the others: 1.0), given the query's groups, the query weight each
    candidate holds (`covered_of`: docnum -> weight), the entries' keys by docnum, and per
    group the entries holding it in their body / title (`body_of[i]`, `title_of[i]`, made
    when asked) and anywhere (`group_docs[i]`)."""

    def __call__(self, groups: list[Group], covered_of: dict[int, float], keys: list[str],
                 body_of, title_of, group_docs) -> dict[int, float]: ...

    def facet_groups(self, groups: list[Group]) -> list[int]:
        """The query's groups that name what the part's entries are sorted by (the cards:
        a discipline or a clan), whose holders are candidates too (`SearchIndex._covering`)."""
        ...


def runs_by_doc(results: list[dict]) -> list[tuple[str, list[dict]]]:
    """The results (the API's dicts, best first) cut where the document changes, each run
    with its document's id: a page heads each run with the document's title and keeps the
    ranking's order (grouping every result of a document under its first put a card ranked
    thirteenth above the rule ranked second). The home page's script cuts them the same
    way (static/search.js)."""
    runs: list[tuple[str, list[dict]]] = []
    for r in results:
        if runs and runs[-1][0] == r["doc"]:
            runs[-1][1].append(r)
        else:
            runs.append((r["doc"], [r]))
    return runs
