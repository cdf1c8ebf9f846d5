"""The words of the card list, read once when the names table is built (pure Python).

Which words stand for one card as players call it (a vampire's surname or first name, a
library card's initials), which names the cards' own texts use as ordinary words ("dodge",
"blood hunt"), which words only the cards say and never the rules, and the disciplines',
clans' and types' names. `names.CardNames.from_catalog` builds its table from these; the
search reads the last ones to tell a question about cards from a rules question.
"""
from __future__ import annotations

import re

from judgekit.game.cards import DISCIPLINES, name_key

#: Chat abbreviations that a library card's initials may spell ("btw", "imo"): never taken
#: for a card's short form.
CHAT_WORDS = frozenset(("lol", "omg", "btw", "idk", "imo", "imho", "tbh", "afaik", "fyi", "asap", "brb",
                        "irl", "iirc", "wtf", "nvm", "ftw", "aka", "etc", "smh", "tldr", "pls", "plz",
                        "thx", "rip", "ggwp", "dnd", "ccg", "tcg", "vtes", "vekn", "ncn"))
#: Words and abbreviations of everyday writing that a library card's initials spell ("won",
#: "lots", "ate", "mod" for a modifier, "wod" for the World of Darkness), which the card
#: texts, rulings and rules lack: never taken for a card's short form. Reviewed by hand
#: against `initials` of the whole card list.
EVERYDAY_WORDS = frozenset((
    "ate", "atm", "bah", "bob", "bods", "cia", "con", "coms", "cot", "dim", "doe", "doo", "dow",
    "emp", "esc", "eta", "fop", "fps", "gam", "gob", "gore", "gtg", "hod", "hon", "hos", "hot",
    "hoc", "hth", "jose", "lit", "lits", "lots", "mae", "mod", "mods", "mom", "mos",
    "mote", "mots", "nit", "oob", "ooc", "poo", "poot", "pos", "pots", "psi", "psy", "pwd",
    "rar", "roe", "rot", "sag", "sam", "sop", "sow", "sht", "tac", "tact", "tat", "tbt", "teak",
    "tla", "toc", "tod", "tote", "tots", "tts", "uhf", "ums", "vas", "vod", "wod", "won", "wtb",
    "wth",
))
ACRONYM_MIN = 3        # letters of the shortest initials taken as a card's short form

#: A one-word name that this many cards' texts use as a word ("dodge", "frenzy", "circle",
#: "corruption") names the card only as the whole query: in a question it is the game's word
#: ("they can't dodge this round"). The names players ask about in questions ("deflection",
#: "bonding", "majesty", "rotschreck") are in no card's text or one.
TEXT_WORD_CARDS = 10
#: … and so does a name of up to this many words that as many cards' texts use ("blood
#: hunt", "red list": "can I call a blood hunt on…", "a red list gangrel antitribu…")
MAX_TEXT_GRAM = 3


#: Disciplines' and clans' names that are ordinary words of a question (the Imbued's virtues
#: and creeds, "Flight"): they do not say that a question is about cards.
ORDINARY_NAMES = frozenset(("defense", "defender", "flight", "innocence", "innocent", "judge", "judgment",
                            "martyr", "martyrdom", "redeemer", "redemption", "vengeance", "avenger",
                            "vision", "visionary", "pander"))


def text_words_of(catalog, texts: list[list[str]], keys: dict[str, int]) -> set[str]:
    """The names (keys) that at least `TEXT_WORD_CARDS` cards' texts use as words, of up to
    `MAX_TEXT_GRAM` words ("dodge", "bloodhunt"). `texts`: each card's text (`key_words`)."""
    held: dict[str, set[int]] = {}         # a word -> the texts holding it
    for i, seq in enumerate(texts):
        for w in seq:
            held.setdefault(w, set()).add(i)
    spaced = [f" {' '.join(seq)} " for seq in texts]
    found = set()
    for card in catalog:
        parts = key_words(card.name)
        parts = parts[1:] if parts[:1] == ["the"] and len(parts) > 1 else parts
        key = "".join(parts)
        if not parts or len(parts) > MAX_TEXT_GRAM or key not in keys or key in found:
            continue
        holding = set.intersection(*(held.get(w, set()) for w in parts))
        if len(parts) > 1:
            phrase = f" {' '.join(parts)} "
            holding = {i for i in holding if phrase in spaced[i]}
        if len(holding) >= TEXT_WORD_CARDS:
            found.add(key)
    return found


#: A vampire is found by its surname alone from this many letters ("kornfeld", "bisley")
SURNAME_MIN = 5
#: Surnames that are words of a question before they are a vampire's ("can I use french
#: cards", "north american championship", "the mayor of Chicago"), reviewed among the 600
#: or so that `surnames` finds: words of English, places, first names
SURNAME_WORDS = frozenset((
    "brand", "bridges", "brooks", "butler", "cadiz", "cambridge", "charmer", "claire", "cobbler", "cordwood",
    "cross", "derby", "drake", "durban", "endeavor", "evelyn", "fellows", "fence", "fisher", "french", "glens",
    "graves", "grime", "grimes", "halcyon", "harden", "james", "lemon", "linda", "lionel", "lotus", "marseilles",
    "mayor", "medic", "montana", "moody", "morocco", "muerte", "north", "padua", "perks", "polonia", "prima",
    "reeds", "rouge", "shale", "siamese", "silver", "steed", "sterling", "thorn", "thrace", "tucker", "turner",
    "underwood", "valentine", "wheeler", "willie", "woodstock", "wright", "zagreb"))


def surnames(catalog, words: set[str], name_words: dict[str, list[str]]) -> dict[str, int]:
    """A vampire's surname (the last word of its name, before a comma: "Katarina Kornfeld",
    "Sascha Vykos, The Angel of Caine") -> the card its plain name means, as players call
    a vampire ("how many votes does kornfeld have"): only a surname of at least
    `SURNAME_MIN` letters that no other name holds, not an epithet ("the"), none of
    `SURNAME_WORDS`, and that `words` (the words of the cards' texts, of the rules and of
    their questions; name keys) never say, in any form (`said_in_any_form`).
    `name_words`: each card name -> its words (`key_words`)."""
    last = {parts[-1]: name for name, parts in _vampire_names(catalog)}    # a surname -> its name
    return _alone(catalog, last, name_words, SURNAME_WORDS, words)


#: First names that are words of a question before they are a vampire's ("my uncle", "an
#: honest mistake", "the roman numerals", "mister", "a scout", "smallpox"), reviewed among the
#: 490 or so that `first_names` finds: English words, titles and kin, a town
FIRST_NAME_WORDS = frozenset((
    "america", "apache", "aurora", "babalawo", "belle", "blackhorse", "blanche", "chandler", "creamy", "crystal",
    "dancin", "dolphin", "ember", "fakir", "frere", "gloria", "handsome", "harry", "honest", "jaggedy", "jesus",
    "jimmy", "karen", "lille", "madame", "maman", "marchesa", "mason", "mickey", "mister", "molly", "neighbor",
    "primo", "redbone", "roman", "scout", "sister", "smallpox", "uncle", "violet"))


def first_names(catalog, texts: list[list[str]], words: set[str], name_words: dict[str, list[str]]) -> dict[str, int]:
    """A vampire's first name (the first word of its name, before a comma: "Nahum Enosh",
    "Pedro Cortez") -> the card its plain name means, as players call a vampire ("can nahum
    give blood if he is locked"): only a first name of at least `SURNAME_MIN` letters that
    no other name holds, none of `FIRST_NAME_WORDS`, that `words` (the rules' words, their
    questions', the common words; name keys) never say in any form, and that no card's text
    but the vampire's own says ("If Nahum is ready…"). `texts`: each card's text (`key_words`),
    in the catalog's order; `name_words`: each card name -> its words."""
    told: dict[str, set[str]] = {}        # a word -> the names of the cards whose texts say it
    for card, seq in zip(catalog, texts):
        for w in seq:
            told.setdefault(w, set()).add(card.name)
    first = {parts[0]: name for name, parts in _vampire_names(catalog)}    # a first name -> its name
    return _alone(catalog, first, name_words, FIRST_NAME_WORDS, words,
                  lambda word, name: told.get(word, set()) <= {name})


def _vampire_names(catalog):
    """Each vampire's name (once) with its words before a comma, of two words or more and no
    epithet ("The Colonel", "Nigel the Shunned")."""
    for name in sorted({card.name for card in catalog if card.kind == "crypt"}):
        parts = key_words(name.split(",", 1)[0])
        if len(parts) >= 2 and "the" not in parts:
            yield name, parts


def _alone(catalog, candidates: dict[str, str], name_words: dict[str, list[str]], reviewed: frozenset[str],
           words: set[str], fits=None) -> dict[str, int]:
    """Of `candidates` (a word of a vampire's name -> that name), the words that stand for the
    vampire alone -> the card its plain name means: at least `SURNAME_MIN` letters, held by no
    other name (`name_words`), none of `reviewed`, never said in any form by `words`, and
    `fits(word, name)` when given."""
    held: dict[str, int] = {}             # a word -> how many names hold it
    for parts in name_words.values():
        for w in set(parts):
            held[w] = held.get(w, 0) + 1
    forms = spoken_forms(words)
    found = {}
    for word, name in sorted(candidates.items()):
        if held[word] != 1 or len(word) < SURNAME_MIN or not word.isalpha() or word in reviewed \
                or said_in_any_form(word, words, forms) or (fits is not None and not fits(word, name)):
            continue
        card = catalog.index.find(name)    # the version a plain name means
        if card is not None:
            found[word] = card.id
    return found


def spoken_forms(said: set[str]) -> set[str]:
    """The words of `said` and their inflected forms (`inflections`), for `said_in_any_form`."""
    return said | {f for w in said for f in inflections(w)}


def said_in_any_form(word: str, said: set[str], forms: set[str]) -> bool:
    """Whether `said` holds `word` in some form: the word itself, a word it inflects ("hounds"
    said, "hound" asked) or one of its inflections. `forms`: `spoken_forms(said)`."""
    return word in forms or any(f in said for f in inflections(word))


def inflections(word: str) -> list[str]:
    """The forms a question may give a word of the cards or the rules that their texts may not
    hold: "remove" -> "removes", "removed", "removing"; "carry" -> "carries", "carried"."""
    if len(word) < 3 or not word.isalpha():
        return []
    out = [word + "s", word + "es", word + "ed", word + "ing"]
    if word.endswith("e"):
        out += [word + "d", word[:-1] + "ing"]
    if word.endswith("y"):
        out += [word[:-1] + "ies", word[:-1] + "ied"]
    return out


#: A word of the cards is a card's word (`card_only_words_of`) from this many letters
CARD_WORD_MIN = 3


def card_only_words_of(words: set[str], said: set[str]) -> frozenset[str]:
    """The words of the cards' names and texts (`words`, name keys) that `said` (the words
    of the rules and of their questions) never holds in any form (`inflections` either way:
    the rules' "hounds" is the name's "hound"), of letters only and at least
    `CARD_WORD_MIN` long. Chosen on the development sets (1 Dec 2026). The names' words
    alone: one question more in each of the sets 26 ("aim card so my strike goes at the
    hound on his vamp…") and 38, none lost, the MRR of fourteen card sets higher. With the
    texts' words: one more in each of the sets 27, 31, 35, 36, 38 and the held-out set 2,
    one lost in set 22 (a torpor action's group ruling), the MRR of twenty sets higher.
    No rules set's hit@3 moved with either."""
    forms = spoken_forms(said)
    return frozenset(w for w in words if len(w) >= CARD_WORD_MIN and w.isalpha()
                     and not said_in_any_form(w, said, forms))


def key_words(text: str) -> list[str]:
    """The words of a card's name, text or ruling as name keys, in order."""
    return [w for w in (name_key(w) for w in re.findall(r"[\w']+", text)) if w]


def written_words(texts) -> set[str]:
    """Every word (name key) of these texts."""
    words: set[str] = set()
    for text in texts:
        words.update(key_words(text))
    return words


def initials(catalog, words: frozenset[str] | set[str]) -> dict[str, int]:
    """The short forms players make of a library card's name of three words or more: its
    initials ("wwef" Wake with Evening's Freshness, "tttm" Tribute to the Master, "krc"),
    when no other card has the same initials and they spell no word a question may hold:
    none of `words` (the cards' names, texts and rulings and the rules, name keys), of `EVERYDAY_WORDS`
    or `CHAT_WORDS` ("who won the game" names no Week of Nightmares)."""
    by_initials: dict[str, list[int]] = {}
    for card in catalog:
        if card.kind != "library":
            continue
        parts = [name_key(w) for w in re.split(r"[\s\-–—/]+", card.name) if name_key(w)]
        if len(parts) >= ACRONYM_MIN:
            by_initials.setdefault("".join(p[0] for p in parts), []).append(card.id)
    return {short: ids[0] for short, ids in sorted(by_initials.items())
            if len(ids) == 1 and short not in words and short not in EVERYDAY_WORDS
            and short not in CHAT_WORDS}


def discipline_and_clan_words(catalog) -> frozenset[str]:
    """The disciplines' and clans' names (`facet_names`) as name keys: "dominate",
    "truebrujah"."""
    return frozenset(name_key(n) for n in facet_names(catalog)) - {""}


def facet_names(catalog) -> list[str]:
    """The disciplines' and clans' names a card is described by ("the aus reaction that…",
    "a lasombra priscus with…"), as the card lists write them: not the Imbued's virtues and
    the clans' names that are ordinary words (`ORDINARY_NAMES`)."""
    names = {*DISCIPLINES.values()} | {part for c in catalog if c.clan for part in c.clan.split("/")}
    return sorted(n for n in names if name_key(n) not in ORDINARY_NAMES)


def game_words(catalog) -> frozenset[str]:
    """The disciplines', clans' and card types' names (name keys): "the dominate card that
    …" describes a card by its discipline; it does not name the master card "Dominate"."""
    words = {*DISCIPLINES.values()} | {c.clan for c in catalog if c.clan} | {t for c in catalog for t in c.types}
    return frozenset(name_key(w) for w in words) - {""}
