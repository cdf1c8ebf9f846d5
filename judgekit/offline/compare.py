"""How close the browser's offline search comes to the server's (bench and tests).

A result is identified by (doc, section, title, url): a section and its examples share a
section id but not a title; a card and its rulings share both but not their address
(`/cards/100518`, `/cards/100518#r2`). The figure is the overlap of the top-3: for each query, the
share of the server's first three results that the offline search also puts in its first
three (order inside the three ignored), averaged over the queries.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

TOP = 3


def read_queries(path: str | Path) -> list[str]:
    """Queries of a `query<TAB>expected…` file (comments and blank lines skipped)."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        query = line.split("\t", 1)[0].strip()
        if query:
            out.append(query)
    return out


def result_key(r: dict) -> tuple[str, str, str, str]:
    return (r["doc"], r["section"], r["title"], r.get("url", ""))


def top(results: list[dict], k: int = TOP) -> list[tuple[str, str, str, str]]:
    return [result_key(r) for r in results[:k]]


@dataclass
class QueryComparison:
    query: str
    server: list[tuple[str, str, str, str]]
    offline: list[tuple[str, str, str, str]]

    @property
    def overlap(self) -> float:
        if not self.server:
            return 1.0 if not self.offline else 0.0
        # as multisets: a numbered question's parts may each answer with the same section
        return sum((Counter(self.server) & Counter(self.offline)).values()) / len(self.server)

    @property
    def identical(self) -> bool:
        return self.server == self.offline


@dataclass
class Report:
    queries: list[QueryComparison] = field(default_factory=list)

    @property
    def overlap(self) -> float:
        return sum(q.overlap for q in self.queries) / len(self.queries) if self.queries else 0.0

    @property
    def identical(self) -> float:
        return sum(q.identical for q in self.queries) / len(self.queries) if self.queries else 0.0

    @property
    def same_first(self) -> float:
        same = sum(1 for q in self.queries if q.server[:1] == q.offline[:1])
        return same / len(self.queries) if self.queries else 0.0

    def differing(self) -> list[QueryComparison]:
        return [q for q in self.queries if q.overlap < 1.0]


def compare(queries: list[str], server: list[list[dict]], offline: list[list[dict]],
            k: int = TOP) -> Report:
    """Pair up the result lists of each query (same order as `queries`)."""
    if not len(queries) == len(server) == len(offline):
        raise ValueError("one result list per query is needed on both sides")
    return Report([QueryComparison(q, top(s, k), top(o, k))
                   for q, s, o in zip(queries, server, offline)])
