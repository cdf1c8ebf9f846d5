"""The quick-reference page: the numbers a judge needs at hand, each linked to its rule.

The lines are our own summaries; every number that exists elsewhere comes from its one
source: VP, game-win and tournament-point numbers from `judgekit.tournament.scoring`, round
time and the extension cap from `judgekit.recorder.clock`, the recursion table and the
banned list straight from the rules corpus, standard stealth from the recorder's action table. Each line names the section it summarises.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from judgekit.rules.corpus import Block, Corpus
from judgekit.rules.entries import section_url
from judgekit.game.clock import CAP_SENTENCE, MIN_ROUND_MIN
from judgekit.recorder.engine import (
    STANDARD_STEALTH, TORPOR_ACTIONS, TORPOR_STEALTH_OTHER, TORPOR_STEALTH_SAME)
from judgekit.game.scoring import GW_MIN_VP, TIME_OUT_VP, TP_BY_PLACE, WITHDRAW_VP

TR = "tournament-rules"
AN = "announcements"
# The VEKN Tournament Conduct & Infraction Guide (v2): not in the rules corpus, so a line
# citing it names the section and links nowhere (this page is where its summary lives).
IG = "infraction-guide"


@dataclass
class Line:
    text: str
    doc: str
    section: str
    anchor: str | None = None

    @property
    def url(self) -> str | None:
        if self.doc == IG:
            return None
        return section_url(self.doc, self.section, self.anchor)

    @property
    def ref(self) -> str:
        if self.doc == IG:
            return f"Infraction Guide v2 §{self.section}"
        return self.section if self.doc == TR else self.section.replace("-", " ")


@dataclass
class Card:
    id: str
    title: str
    lines: list[Line] = field(default_factory=list)
    table: tuple[list[str], list[list[str]]] | None = None
    block: tuple[str, str, Block] | None = None   # (doc, section, block) shown as in the rules


def _block(corpus: Corpus, doc_id: str, section_id: str, kind: str) -> tuple[str, str, Block] | None:
    doc = corpus.get(doc_id)
    sec = doc.section(section_id) if doc else None
    if sec is None:
        return None
    for b in sec.blocks:
        if b.kind == kind:
            return doc_id, section_id, b
    return None


ACTION_NAMES = {
    "bleed": "bleed", "hunt": "hunt", "equip": "equip", "recruit": "recruit an ally",
    "employ": "employ a retainer", "political": "political action", "leave-torpor": "leave torpor",
    "rescue": "rescue from torpor", "diablerie": "diablerie", "anarch": "become anarch",
    "card": "action cards (unless the card says otherwise)", "other": "other actions",
}


# The actions the guidelines' list of standard stealth names (the rest is "zero by default");
# the recorder's table also has actions only the rulebook's action list gives a stealth for.
GUIDELINE_STEALTH = {"bleed", "hunt", "equip", "recruit", "employ", "political", "leave-torpor",
                     "rescue", "card", "other"}
# Actions on a torpid vampire (`TORPOR_ACTIONS`): their stealth depends on who controls it
# (the rulebook's action list), so they get a line of their own instead of one value.


def _stealth_lines() -> list[tuple[str, list[str]]]:
    """Standard stealth by action, from the recorder's table (the one place it lives)."""
    by_value: dict[int, list[str]] = {}
    for kind, value in STANDARD_STEALTH.items():
        if kind in TORPOR_ACTIONS:
            continue
        name = ACTION_NAMES.get(kind, kind.replace("-", " "))
        by_value.setdefault(value, []).append(name if kind in GUIDELINE_STEALTH else f"{name} (rulebook)")
    return [(f"+{v}" if v else "0", names) for v, names in sorted(by_value.items())]


def _plus(value: int) -> str:
    return f"+{value}" if value else "0"


def torpor_stealth_line() -> str:
    """The standard stealth of rescue and diablerie, from the recorder's numbers."""
    return (f"Rescue from torpor and diablerie: {_plus(TORPOR_STEALTH_SAME)} stealth when the "
            "acting vampire and the torpid vampire have the same controller, "
            f"{_plus(TORPOR_STEALTH_OTHER)} when not (rulebook; the guidelines' “1 stealth for "
            "leave and rescue from torpor” is the first case). The recorder checks both.")


def _half(vp: float) -> str:
    return "½" if vp == 0.5 else f"{vp:g}"


def _tp_rows() -> tuple[list[str], list[list[str]]]:
    five, four = TP_BY_PLACE[5], TP_BY_PLACE[4]
    four_by_place = dict(zip([1, 2, 4, 5], four))
    header = ["Place", "5 players", "4 players"]
    rows = []
    for place in range(1, 6):
        rows.append([str(place), str(five[place - 1]),
                     str(four_by_place.get(place, "— (table bye)"))])
    return header, rows


def build(corpus: Corpus) -> list[Card]:
    cards: list[Card] = []

    cards.append(Card("ranking", "Ranking after the preliminary rounds", [
        Line("Game wins, then victory points, then tournament points.", TR, "3.1"),
        Line("Remaining ties for the top five: a fair random method (coin, die).", TR, "3.1"),
        Line("The five best play the final; the final's VP decide the winner, ties by preliminary rank; "
             "the other finalists tie for second.", TR, "3.7.5"),
        Line("Without a final (fewer than 8 players, announced before round 1) the preliminary "
             "results decide.", TR, "3.1.6"),
    ]))

    cards.append(Card("vp", "Victory points", [
        Line("Your prey is ousted: 1 VP.", TR, "3.7.2"),
        Line(f"Withdrawal: {_half(WITHDRAW_VP)} VP (not 1).", TR, "3.7.2"),
        Line(f"Time limit reached: {_half(TIME_OUT_VP)} VP to each player not ousted; "
             "a lone survivor gets 1 VP.", TR, "3.7.2"),
        Line("Concession: only when all players but one agree, and only if it does not break the "
             "play-to-win rule; scored as if the one remaining player ousted the conceders in "
             "sequence.", TR, "3.5"),
        Line("Intentional draw: scored as if the time limit was reached.", TR, "3.6"),
    ]))

    cards.append(Card("gw", "Game win", [
        Line(f"At least {GW_MIN_VP} VP and more VP than every other player at the table; "
             "no game win on a tie.", TR, "3.7.1"),
    ]))

    header, rows = _tp_rows()
    cards.append(Card("tp", "Tournament points", [
        Line("By place at the table on VP. At 4 players third place is the empty “table bye”.", TR, "3.7.3"),
        Line("Tied players share the average of the places they occupy "
             f"(two tied first at 5 players: ({TP_BY_PLACE[5][0]} + {TP_BY_PLACE[5][1]}) / 2 = "
             f"{(TP_BY_PLACE[5][0] + TP_BY_PLACE[5][1]) // 2} each).", TR, "3.7.4"),
    ], table=(header, rows)))

    cards.append(Card("time", "Time call", [
        Line(f"The round's time limit is at least {MIN_ROUND_MIN // 60} hours and is announced before "
             "play; the final may have a longer limit, at the judge's option.", TR, "3.1.1"),
        Line("At the call, the game ends after the current minion action, or at the end of the current "
             "phase when the call comes outside the minion phase.", TR, "3.1.1"),
        Line("A ruling that takes the judge more than a minute may add time to the table.", TR, "2.8"),
        Line("A break in the middle of a game: call a judge first, who extends the table's time as "
             "needed.", TR, "3.3.3"),
        Line(CAP_SENTENCE[:-1] + " — a cap judges may apply, not a rule; the tournament rules "
             "set none.", IG, "1.2.4"),
    ]))

    cards.append(Card("stealth", "Standard stealth (declare it only when different)", [
        Line(f"{value} stealth: {', '.join(names)}.", AN, "action-declaration")
        for value, names in _stealth_lines()
    ] + [
        Line(torpor_stealth_line(), AN, "action-declaration"),
    ] + [
        Line("A bleed always states its amount, and the new total whenever it changes.", AN, "action-declaration"),
    ]))

    cards.append(Card("decks", "Deck sizes", [
        Line("Constructed: library 60 to 90 cards, crypt at least 12.", TR, "6.2"),
        Line("Limited: with starters, library 40 and crypt 12 at least; otherwise by boosters per player "
             "(table below); never more than 90 library cards.", TR, "7.2.1"),
    ]))

    recursion = _block(corpus, TR, "7.2.2", "table")
    cards.append(Card("recursion", "Limited: minimum sizes and recursions (Swainbank)", [
        Line("A recursion is a discard phase action that shuffles the library cards of your ash heap "
             "back into your library. With recursions left you cannot withdraw.", TR, "7.2.2"),
    ], block=recursion))

    banned = _block(corpus, TR, "4.1.1", "list")
    cards.append(Card("banned", "Banned cards", [
        Line("Banned in every VEKN tournament, constructed and limited:", TR, "4.1.1"),
    ], block=banned))

    cards.append(Card("announce", "Announcements at a glance", [
        Line("Name the card and every choice: discipline and level when there is a choice, X, targets.",
             AN, "card-declaration"),
        Line("After declaring an action the acting player passes (“any blocks?” counts).", AN, "forbidden-shortcuts"),
        Line("Each player who may block passes explicitly (“no block” counts) before reacting.", AN,
             "forbidden-shortcuts"),
        Line("A card with no delay in its replacement is replaced before the next card is played; "
             "declare the end of the turn.", AN, "forbidden-shortcuts"),
        Line("Referendum terms that offer a choice are confirmed when the political action succeeds, "
             "even if they were negotiated before.", AN, "votes"),
        Line("Votes: the number and the side; name the voting vampire when not committing all "
             "available votes, not counting optional effects.", AN, "votes"),
    ]))
    return cards
