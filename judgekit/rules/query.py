"""What a query is before it is ranked: its checks (`check_query`, `QueryError`), a section
number typed as such (`SECTION_QUERY`), a call to the judge it opens with
(`without_address`), the words it is made of (`query_words`), the question words' stems
(and the cards' part's talk, `talk_stems`), and one word's `Group` (what it may match)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from judgekit.rules.analysis import WORD, analyze, numbers_in, phrase_item, query_tokens, stem_word
from judgekit.rules.synonyms import (CARD_QUESTION_WORDS, CASE_SENSITIVE, DISCIPLINE_SPELLINGS, QUESTION_WORDS, TYPED_AS_IS,
                                     SYNONYMS)

#: The longest question taken: a message pasted from a chat, sub-questions and all. Longer
#: is not a question a person types (a 400 says so).
MAX_QUERY = 4000

#: Words joined by "/", "+" or "&" without spaces ("for/pre", "Aus/Cel/For", "obf+pre"),
#: after what comes before them (the browser's copy, static/offline-query.js, has no
#: look-behind: old phones lack it); `LIST_SPLIT` cuts one into its words and separators
LIST_SEPARATORS = "/+&"
SLASH_LIST = re.compile(r"(^|[^A-Za-z0-9_])([A-Za-z]+(?:[/+&][A-Za-z]+)+)(?![A-Za-z0-9_])")
LIST_SPLIT = re.compile(r"([/+&])")

#: Where a question's sentences end: after ".", "?", "!" or ";", at a dash between words, or
#: after a colon that a question word follows ("Tremere who hunts by stealing blood: can she
#: hunt when nobody has blood?": the card described, then what is asked; a card's text
#: quoted, "strike: combat ends", goes on). The browser's `sentences`, static/offline-query.js,
#: splits alike without a look-behind (the question words, letters compared in ASCII, come
#: with the offline index as `question_after_colon`; the spaces are those both languages'
#: `\s` match, `SPACE`).
QUESTION_AFTER_COLON = ("can", "could", "does", "do", "did", "is", "are", "was", "will", "would", "should",
                        "must", "may", "what", "how", "when", "who", "which", "where", "why")
SPACE = "[ \t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
SENTENCE_BREAK = re.compile(rf"(?<=[.?!;]){SPACE}+|{SPACE}+-+{SPACE}+"
                            rf"|(?<=:){SPACE}+(?=(?ai:{'|'.join(QUESTION_AFTER_COLON)}){SPACE})")

#: A call to the judge that opens a question ("Judge!", "judge,", "Call:", "hey judge -"): it
#: speaks to the judge and names nothing ("Judge" is a word of a card's name, Those Who Endure
#: Judge, and of the rules). The browser's copy: static/offline-query.js `ADDRESS`.
ADDRESS = re.compile(r"^\s*(?:(?:hey|hi)\s+)?(?:judge\s*(?:[!:,.;?]+|\s-+)|call\s*(?:[!:]+|\s-+))\s*", re.I)

#: A question's closing ask for a card's name ("…, whats it called", "forgot the name",
#: "name?", "which one is that", "who's that?"; "can't recall the name", "anyone know the
#: name" since 7 Dec 2026, and "can't recall her name" as a sentence of its own ("…if I
#: can't recall his name?" asks about a player): one question more in the first three,
#: none fewer): it asks for the answer and describes nothing,
#: and its words weighed as a description's ("called" is a referendum's "call", "name" the
#: cards' "name a discipline", "forgot" in no card at all). "name" alone only after a
#: sentence's mark ("…just the name?" asks the rules). Each part starts at the text's start
#: or at a separator (`ASK_SEPARATORS`), which the match keeps (its first, second or third group):
#: no part repeats a run of characters from every place, so a long run of separators costs
#: its length, not its square; and no look-behind, which older phones' Safari lacks. The
#: browser compiles this same pattern (the offline index's params, `name_asked`).
ASK_SEPARATORS = " \t\n\r,;:.!?-"
NAME_ASKED = re.compile(
    r"(^|[\s,;:.!?-])(?:"
    r"(?:what['\u2019]?s|what\s+is|what\s+was)\s+(?:it|that|this|the\s+card|that\s+card|this\s+card"
    r"|the\s+name(?:\s+of\s+(?:it|that|this))?)(?:\s+(?:called|named))?"
    r"|(?:what|which)\s+(?:card|one|vamp|vampire)\s+(?:is|was)\s+(?:it|that|this)"
    r"|which\s+one\s+(?:is|was)\s+(?:it|that|this)"
    r"|(?:i\s+)?forgot\s+(?:the|its|it['\u2019]?s)\s+n[a-z]{2}e"
    r"|(?:i\s+)?(?:can['\u2019]?t|cannot|don['\u2019]?t)\s+(?:remember|recall)\s+(?:the|its)\s+name"
    r"|(?:does\s+)?any(?:\s*one|\s*body)\s+knows?\s+(?:the|its)\s+name"
    r"|who(?:['\u2019]?s|\s+is)\s+(?:that|this|he|she)"
    r"|(?:the\s+)?name\s+(?:of\s+(?:it|that|the\s+card)|please|pls)"
    r")[\s?!.]*$"
    r"|([,;:.!?-])\s?name[\s?!.]*$"
    r"|([.!?])\s*(?:i\s+)?(?:can['\u2019]?t|cannot|don['\u2019]?t)\s+(?:remember|recall)\s+(?:his|her|their)\s+name"
    r"[\s?!.]*$", re.I)

#: A clause that rules out another card ("…+1 bleed vs Ventrue. Not the independent one",
#: "…1 agg per strike? not the grenade", "…, not the sabbat guy w the same thing"): "not
#: the" opening a clause (at the text's start, after a sentence's mark, a comma, a bracket or
#: a dash, or after "and"/"but"), to the clause's end. Its words describe the card the
#: question does not mean, and counted for it (`without_ruled_out`). The browser compiles
#: this same pattern (the offline index's params, `ruled_out`).
RULED_OUT = re.compile(
    r"(^|[,;:.!?(\u2014\u2013]|\s-+(?=\s)|\s(?:and|but)(?=\s))(\s*)not\s+the\s[^,;:.!?()\u2014\u2013]*", re.I)

#: The words after "blood" where it opens a rules term or a discipline's name ("a blood
#: hunt", "a blood sorcery card", "a blood curse"): not "a blood" paid (`ONE_BLOOD`). The
#: cards' names add theirs ("a Blood Doll": `one_blood_pattern`).
BLOOD_TERMS = ("hunts?", "sorcery", "curse[ds]?")
#: The words after "blood" in a card's name that follow a blood paid too ("pay a blood to
#: untap", "a blood of his"; "Blood of Acid", "Blood to Water"): they name no card there.
BLOOD_PAID = frozenset({"of", "to"})


def one_blood_pattern(names: Iterable[str] = ()) -> re.Pattern[str]:
    """The pattern of "a blood" said for one ("pay a blood to…", "costs a blood"), which the
    cards write "1 blood", a number that counts blood (and a card's cost,
    `numbers.query_units`); the question's "a" was a stop word (`with_one_blood`). Not where
    "blood" opens a rules term (`BLOOD_TERMS`) or one of `names` (the cards'): the word after
    "blood" in each, and its plural ("a Blood Doll", "two blood dolls"). Not "a pool": "lose
    a pool" then found every card costing one pool (chosen on the development sets, 6 Dec
    2026). Word edges and spaces in ASCII, as the browser's, which compiles the same pattern
    (the offline index's params, `one_blood`)."""
    words = {after for name in names for before, after in pairwise(re.findall(r"[a-z]+", name.lower()))
             if before == "blood"} - BLOOD_PAID
    opening = "|".join([*BLOOD_TERMS, *(re.escape(w) + "s?" for w in sorted(words))])
    return re.compile(rf"\b(?:a|an)([ \t\n\r\f\v]+)(blood)\b(?![ \t\n\r\f\v]*-?(?:{opening})\b)", re.I | re.A)


#: "a blood" read as one where no card is known (the rules alone): `one_blood_pattern`
ONE_BLOOD = one_blood_pattern()

#: A question asking for a plain card, one that does little beside what it says ("the master
#: that just destroys a location", "the plain pistol", "nothing else on it", "nothin else",
#: "vanilla"): the cards' part ranks a card with a short text higher
#: (`CardFactors.plain_factor`). Word edges and spaces in ASCII, as the browser's, which
#: compiles this same pattern (the offline index's params, `plain_asked`), and `JUST_NOW` first.
PLAIN_ASKED = re.compile(r"\b(?:just|plain|simple|vanilla|nothin[g']?[ \t\n\r\f\v]+(?:else|more))\b", re.I | re.A)
#: "just" said of time, not of a card doing little ("I just burned the Edge", "who just got
#: influenced", "just for the stealth"): taken out before `PLAIN_ASKED` is looked for. The
#: browser's copy: the offline index's params, `just_now`.
JUST_NOW = re.compile(r"\b(?:i|we|you|they|he|she|who)(?:['\u2019]?ve|['\u2019]d)?[ \t\n\r\f\v]+just\b"
                      r"|\bjust[ \t\n\r\f\v]+(?:for|got|now|after|before|when)\b", re.I | re.A)

#: A number typed against its word ("2pool master", "a 3cap", "1blood"): read as the number and
#: the word. Not ordinals ("2nd", "30TH"), a ranged strike's "2R" (one letter) or "9mm". The
#: browser compiles this same pattern (the offline index's params, `number_glued`; no flag
#: for the case, which both engines read alike only without one).
NUMBER_GLUED = re.compile(r"(^|[^A-Za-z0-9_.])([0-9]+)(?!(?:[sS][tT]|[nN][dD]|[rR][dD]|[tT][hH]|[mM][mM])\b)"
                          r"([A-Za-z]{2,})\b", re.A)

#: A "what-if" (hyphenated, or "a what if") is a noun: a hypothetical ("I said I'd block,
#: meaning it as a what-if"), read as the one word "whatif" (`RULES_IDIOMS`); "what if" opening
#: a question stays two words of no weight. The browser compiles this same pattern (the
#: offline index's params, `what_if`).
WHAT_IF = re.compile(r"\bwhat-(ifs?)\b|\b(a[ \t]+)what[ \t]+(ifs?)\b", re.I | re.A)

SECTION_QUERY = re.compile(
    r"^\s*(?:(?:section|sect|sec|rule|rules|§|appendix)\s*)?"
    r"((?:\d+|[A-Ba-b])(?:\.\d+)*)\.?\s*$", re.I)


class QueryError(ValueError):
    """A query the search cannot take (empty, too long)."""


def check_query(text) -> str:
    """The query stripped, or QueryError (empty, too long)."""
    text = (text or "").strip()
    if not text:
        raise QueryError("type something to search for")
    if len(text) > MAX_QUERY:
        raise QueryError(f"the query is too long ({len(text)} characters; at most {MAX_QUERY})")
    return text


def without_address(text: str) -> str:
    """The question without the call to the judge it opens with (`ADDRESS`): "Judge! His
    minion has…" is ranked on "His minion has…". The whole text when nothing else is left."""
    rest = ADDRESS.sub("", text, count=1)
    return rest if rest.strip() else text


def without_ruled_out(text: str) -> str:
    """The question without the clauses that rule out another card (`RULED_OUT`), for the
    cards' part: "which sabbat vamp bleeds for one extra vs ventrue? not the independent
    woman" is ranked there on what the card does. The whole text when nothing else is left."""
    rest = RULED_OUT.sub(lambda m: m.group(1) + m.group(2), text)
    return rest if rest.strip(ASK_SEPARATORS) else text


def asks_plain(text: str) -> bool:
    """Whether the question asks for a plain card (`PLAIN_ASKED`, not a "just" of time,
    `JUST_NOW`): "whats the 2 pool master that just destroys a location"."""
    return PLAIN_ASKED.search(JUST_NOW.sub(" ", text)) is not None


def with_one_blood(text: str, pattern: re.Pattern[str] = ONE_BLOOD) -> str:
    """The question with "a blood" read as "1 blood" (`pattern`: `one_blood_pattern`, of the
    cards' names where there are cards): "my opponent paid a blood for a strike" finds the
    card costing 1 blood."""
    return pattern.sub(r"1\1\2", text)


def with_numbers_apart(text: str) -> str:
    """The question with each number typed against its word set apart (`NUMBER_GLUED`):
    "2pool master" is read as "2 pool master"."""
    return NUMBER_GLUED.sub(r"\1\2 \3", text)


def with_what_if(text: str) -> str:
    """The question with each "what-if" (`WHAT_IF`) written as one word: "meaning it as a
    what-if" is read as "meaning it as a whatif"."""
    return WHAT_IF.sub(r"\2what\1\3", text)


def without_name_asked(text: str) -> str:
    """The question without its closing ask for the card's name (`NAME_ASKED`): "1 pool
    vehicle that gives +1 intercept, whats it called" is ranked on its description. The
    whole text when nothing else is left ("What card was that?")."""
    rest = NAME_ASKED.sub(lambda m: m.group(1) or m.group(2) or m.group(3) or "", text, count=1)
    return rest if rest.strip(ASK_SEPARATORS) else text


@lru_cache(maxsize=64)
def sentences(text: str) -> tuple[str, ...]:
    """The question's sentences (`SENTENCE_BREAK`), empty ones left out (kept for the last
    queries: a search reads them in each part of the index and when merging)."""
    return tuple(part for part in SENTENCE_BREAK.split(text.strip()) if part.strip())


def spell_out_disciplines(text: str) -> str:
    """The query with each list of disciplines written with slashes (or "+", "&") spelt out
    ("for/pre mod" -> "fortitude/presence mod", "obf+pre" -> "obfuscate+presence"): a list
    every word of which is a discipline's code or short name (`DISCIPLINE_SPELLINGS`); any
    other ("pred/prey", "and/or", "R&D") is left as typed."""
    def spelt(m: re.Match) -> str:
        items = LIST_SPLIT.split(m.group(2).lower())     # words, with the separators between
        if all(w in DISCIPLINE_SPELLINGS for w in items[::2]):
            return m.group(1) + "".join(DISCIPLINE_SPELLINGS.get(w, w) if k % 2 == 0 else w
                                        for k, w in enumerate(items))
        return m.group()
    return SLASH_LIST.sub(spelt, text) if any(c in text for c in LIST_SEPARATORS) else text


@lru_cache(maxsize=64)
def query_words(text: str):
    """What a query's groups are made from, the same for each part of the index (kept for
    the last queries, as a search makes the groups of both parts): the words typed in
    capitals that have a meaning of their own ("TO"), then per analysed word (typed word,
    stem), its phrase item (`phrase_item`; a word whose stem is a code of `TYPED_AS_IS` but
    typed otherwise, the word itself), and the numbers by first word's index."""
    capitals = tuple(w for w in re.findall(WORD, text)
                     if w.lower() in CASE_SENSITIVE and w == CASE_SENSITIVE[w.lower()])
    tokens = query_tokens(text)
    seq = tuple((text[a:b], st) for st, a, b in tokens)
    items = tuple(w.lower() if st in TYPED_AS_IS and w.lower() != st else phrase_item(w, st) for w, st in seq)
    numbers = {i: (width, value) for i, width, value in numbers_in(text, tokens)}
    return capitals, seq, items, numbers


@lru_cache(maxsize=2)
def question_stems(cards: bool = False) -> frozenset[str]:
    """The stems of `QUESTION_WORDS` (words the analyzer drops as stop words have none), and
    for the cards' part of the index (`cards`) of `CARD_QUESTION_WORDS` too."""
    words = QUESTION_WORDS | CARD_QUESTION_WORDS if cards else QUESTION_WORDS
    return frozenset(s for w in words for s in stem_word(w))


#: The talk of people's questions, not a card's word: a stem held by the questions of at least
#: this many of the rules' entries (the words people ask the rules in) that, in the cards'
#: part, only its groups' questions hold (no card's text, ruling or types say it) and that no
#: synonym maps alone (`talk_stems`). Besides the question words, that is "right", "mid",
#: "nobody", "sit", "swap" and "early". There a group ruling whose questions happen to say
#: one was worth the word's rarity: in "…My friend played it right as he announced…" a
#: ruling came before the Toreador card described. In the cards' part they count as
#: question words. Chosen on the development sets (1 Dec 2026): at 3, one question more in
#: each of the sets 23, 31, 38, 39 and the held-out set 2, none lost; 5 the same; 2 one more
#: (set 35), but "snake" and "cover" among them; 8 three fewer.
TALK_ASKED = 3


def talk_stems(rules_asked: dict[str, list], cards_terms: dict[str, dict[str, list]]) -> frozenset[str]:
    """The cards' part's talk (`TALK_ASKED`): `rules_asked`, the rules' questions field
    (stem -> the entries holding it); `cards_terms`, the cards' part's fields (field -> stem
    -> its entries)."""
    said = set(cards_terms["body"]) | set(cards_terms["context"])
    said.update(key[0] for key in synonym_stems() if len(key) == 1)      # "untap": "unlock"
    return frozenset(s for s in cards_terms["questions"]
                     if s not in said and len(rules_asked.get(s, ())) >= TALK_ASKED)


@dataclass
class Group:
    """What one word (or synonym phrase, or number) of the query may match."""

    words: str                       # as typed
    alts: dict[tuple[str, ...], float]  # stem sequence -> boost (original 1.0, synonym, typo)
    weight: float = 1.0              # rarity of the word in the corpus, times `factor`
    factor: float = 1.0              # QUESTION_FACTOR for a question word, else 1
    number: float | None = None      # a number group: the value asked about
    units: frozenset[str] = field(default_factory=frozenset)  # stems of the words after it
    near: dict[int, float] = field(default_factory=dict)     # docnum -> closeness x unit

    def stems(self) -> set[str]:
        return {s for alt in self.alts for s in alt}


@lru_cache(maxsize=1)
def synonym_stems() -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    """The synonym table (`SYNONYMS`) as stems: a key's phrase items -> its phrases' stems
    (read, never changed: every part of the index shares it)."""
    out: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for key, alts in SYNONYMS.items():
        if key in CASE_SENSITIVE:
            continue  # matched on the typed form, see _groups
        stems = tuple(phrase_item(key[a:b], s) for s, a, b in analyze(key))
        if not stems or len(stems) < len(re.findall(WORD, key)):
            continue  # a stop word in the key: it would stand for its other words alone
        bucket = out.setdefault(stems, [])
        for alt in alts:
            alt_stems = tuple(s for s, _, _ in analyze(alt))
            if alt_stems and alt_stems != stems and alt_stems not in bucket:
                bucket.append(alt_stems)
    return out
