"""The rules' and the cards' answers in one list (`merge`): each part ranked by its own
statistics, the two merged by score, a section's third entry yielding to the other part's
best, and the entry holding clearly more of the question leading (docs/search.md, "Cards
and rulings")."""
from __future__ import annotations

from judgekit.rules.hits import Hit

#: A source's entry that would be the third of its section on top yields to the other
#: source's best when that one scores at least this share of it ("cancel a card as it is
#: played": two paragraphs of the cancellation window, then the cards, not a third paragraph).
YIELD_SHARE = 0.2
#: The entry that holds clearly more of the question (COVERAGE_LEAD more of its weight, each
#: by its own part's statistics) comes first, when it scores at least NEAR_TIE of the other,
#: the other holds less than LEAD_BELOW of the question (one that holds more answers it) and
#: for the first LEAD_PLACES places only (past them, the scores decide): a question that
#: describes a card ("the reaction that ends combat and sends both vampires to torpor")
#: shares a few words with many rules, and the whole of it with one card's text. The
#: scores of the two parts are hardly comparable (a rule's BM25F over 174 entries, a card's
#: over 6,400, scaled by CARD_FACTOR): NEAR_TIE only keeps an entry far below from leading.
NEAR_TIE = 0.02
COVERAGE_LEAD = 0.05
LEAD_BELOW = 0.65
LEAD_PLACES = 3
#: (LEAD_BELOW, LEAD_PLACES) for a question that names a discipline or a clan, a word of no
#: rule ("that obfuscate reaction when I block a younger vampire"): the entry holding more
#: of it leads the first three places, however much the other holds
CARD_QUESTION_LEAD = (1.01, 3)


def merge(direct: list[Hit], rules: list[Hit], cards: list[Hit], limit: int,
          about_cards: bool = False, described: bool = False) -> list[Hit]:
    """The rules' and the cards' hits in one list, best score first, each source's own
    order kept; a third entry of one section yields to the other source's best, and the
    entry holding more of the question may lead (above; `about_cards`: the question names
    a discipline or a clan, and the lead is `CARD_QUESTION_LEAD`; `described`: the question
    describes a card by its type, and only a card may lead a rule)."""
    lead_below, lead_places = CARD_QUESTION_LEAD if about_cards else (LEAD_BELOW, LEAD_PLACES)
    merged = list(direct)
    seen: dict[tuple[str, str], int] = {}
    for h in merged:
        seen[(h.entry.doc, h.entry.section)] = seen.get((h.entry.doc, h.entry.section), 0) + 1
    heads = [rules, cards]
    at = [0, 0]
    while len(merged) < limit and (at[0] < len(rules) or at[1] < len(cards)):
        live = [k for k in (0, 1) if at[k] < len(heads[k])]
        pick = max(live, key=lambda k: (heads[k][at[k]].score, -k))
        if len(live) == 2:
            other = 1 - pick
            h, o = heads[pick][at[pick]], heads[other][at[other]]
            repeat, o_seen = seen.get((h.entry.doc, h.entry.section), 0), seen.get((o.entry.doc, o.entry.section), 0)
            if repeat >= 2 and o_seen < 2 and o.score >= YIELD_SHARE * h.score:
                pick = other
            elif len(merged) - len(direct) < lead_places and o.score >= NEAR_TIE * h.score \
                    and o.coverage >= h.coverage + COVERAGE_LEAD and h.coverage < lead_below \
                    and not (described and other == 0):
                pick = other
        h = heads[pick][at[pick]]
        at[pick] += 1
        merged.append(h)
        seen[(h.entry.doc, h.entry.section)] = seen.get((h.entry.doc, h.entry.section), 0) + 1
    return merged[:limit]
