"""The words judges use, mapped to the words the rules use, and the words of a question
that carry no rule.

Used by the server search and by the offline index the browser searches
(`judgekit.offline.search_index`). Each key of `SYNONYMS` is a judge's word or phrase (lower
case); its value lists the phrases of the rules text it stands for. The mapping is applied
to the query only, never to the indexed text. A key is matched on its stems, so every word
of it must survive the analyzer's stop list ("can play" would stand for every "play").
Keys written in upper case in `CASE_SENSITIVE` expand only when typed in capitals ("TO",
not "to").

`QUESTION_WORDS` are the words that make a sentence a question ("what happens if", "can I",
"do I have to", "my", "whole"): a query word among them counts for little in the ranking,
so the words that name the rule decide it.
"""
from __future__ import annotations

from judgekit.game.cards import DISCIPLINES
from judgekit.rules.card_idioms import CARD_IDIOMS
from judgekit.rules.rules_idioms import RULES_IDIOMS

SYNONYMS: dict[str, tuple[str, ...]] = {
    # ordinals typed in digits ("a 2nd copy", "the 1st round")
    "1st": ("first",),
    "2nd": ("second",),
    "3rd": ("third",),
    "4th": ("fourth",),
    "5th": ("fifth",),
    # scoring
    "vp": ("victory point",),
    "vps": ("victory point",),
    "victory point": ("vp",),
    "gw": ("game win",),
    "gws": ("game win",),
    "game win": ("gw",),
    "tp": ("tournament point",),
    "tps": ("tournament point",),
    "tournament point": ("tp",),
    "win": ("game win", "winner"),
    "points": ("victory point", "tournament point"),
    "pts": ("point",),
    "score": ("scoring",),
    "tie": ("tie", "toss", "random"),
    "coin flip": ("coin toss", "random"),
    "flip": ("toss", "random"),
    "dice": ("die roll", "random"),
    "split": ("averaged", "tie"),
    "tiebreak": ("tie", "toss"),
    "same number": ("tie", "same number"),
    "same vp": ("tie",),
    "same score": ("tie",),
    "equal": ("tie",),
    "tiebreaker": ("tie", "toss"),
    "bye": ("sit out", "table bye"),
    "sit out": ("bye",),
    "rating points": ("rating", "finalist bonus"),
    "rating pts": ("rating", "finalist bonus"),
    # people and roles
    "to": ("tournament organizer",),
    "organiser": ("organizer",),
    "hj": ("head judge",),
    # "what is the TO on the hook for", "can i hand some of it off": responsible, delegate
    "hook": ("responsible", "responsibilities"),
    "hand off": ("delegate",),
    "judge": ("judge",),
    "scorekeeper": ("scorekeeper",),
    "spectator": ("spectator",),
    "kibitz": ("spectator", "outside assistance"),
    "watch": ("spectator", "observe"),
    "watching": ("spectator", "observe"),
    "onlooker": ("spectator",),
    "audience": ("spectator",),
    # outcomes and penalties
    "id": ("intentional draw",),
    "draw": ("intentional draw",),
    "dq": ("disqualification", "disqualified"),
    "disqualify": ("disqualification",),
    "oust": ("oust", "ousted"),
    "ousted": ("oust",),
    "kill": ("oust",),
    "killed": ("oust",),
    "eliminated": ("oust",),
    "concede": ("conceding", "concession"),
    "scoop": ("conceding",),
    "towel": ("conceding",),    # "throw in the towel"
    "drop": ("bowing out", "drop"),
    "quit": ("bowing out",),
    "leave": ("bowing out", "early departure"),
    "left": ("leave", "bowing out"),
    "went": ("go",),
    "survivor": ("surviving", "survive"),
    "alive": ("surviving", "not been ousted"),
    "standing": ("surviving",),
    "lone": ("last",),
    "playing": ("participate",),
    "participate": ("eligible",),
    "late": ("tardiness", "late arrival"),
    "show up": ("arrive", "arrival"),
    "no show": ("tardiness", "fail to arrive"),
    "show": ("reveal",),
    "cheat": ("cheating",),
    "penalty": ("penalty", "judge's guide"),
    "penalties": ("penalty", "judge's guide"),
    "bet": ("wagering",),
    # money typed as people say it: at a tournament, a stake ("put a fiver on who wins"; not
    # "cash": a cash prize)
    "fiver": ("bet", "wagering"),
    "tenner": ("bet", "wagering"),
    "bucks": ("bet", "wagering"),
    "quid": ("bet", "wagering"),
    "euros": ("bet", "wagering"),
    "dollars": ("bet", "wagering"),
    "betting": ("wagering",),
    "bribe": ("bribery", "wagering"),
    "stall": ("stalling", "slow play"),
    "slow": ("slow play",),
    # "took too long", "is taking too long": slow, not the word "long" of the rules
    "too long": ("slow",),
    "collude": ("collusion",),
    "kingmaking": ("play to win",),
    "kingmake": ("play to win",),
    "appeal": ("appeals to the head judge",),
    "lock": ("lock", "tap"),
    "tap": ("lock",),
    "tapped": ("locked",),
    "untap": ("unlock",),
    # time
    "time": ("time limit",),
    # units typed short ("5 min on a ruling", "how many secs to look"): the rules spell them
    # out (not "sec": a section, "sec 3.7"). ("min" as "minimum" too lost a question of
    # `search_phone6`: "spends like 5 min shuffling my library…", its section fourth)
    "min": ("minute",),
    "mins": ("minute",),
    "secs": ("second",),
    "hr": ("hour",),
    "hrs": ("hour",),
    "least": ("minimum",),
    "fewest": ("minimum",),     # "the fewest n most cards my library can have" (7 Dec 2026: +1)
    "smallest": ("minimum",),
    "biggest": ("maximum",),
    "largest": ("maximum",),
    "clock": ("time limit",),
    "time out": ("time limit",),
    "timeout": ("time limit",),
    "extension": ("extend", "additional time", "lengthy rulings"),
    "extra time": ("extend", "additional time"),
    "more time": ("extend", "additional time"),
    "break": ("in-game break",),
    "bathroom": ("in-game break",),
    "toilet": ("in-game break",),
    "smoke": ("in-game break",),
    # decks and cards
    "swainbank": ("recursion",),
    "recursions": ("recursion",),
    "michigan": ("restricted trade",),
    "rochester": ("table draft",),
    "elder": ("mixed draft",),
    "elder draft": ("mixed draft",),
    "proxy": ("proxy card",),
    "proxies": ("proxy card",),
    "counterfeit": ("proxy card",),
    "fake": ("proxy card", "counterfeit"),
    # results an organizer sends in that are not what happened
    "fake result": ("fraudulent", "incorrect results"),
    "bogus": ("fraudulent", "incorrect"),
    "sleeves": ("card sleeves",),
    "sleeve": ("card sleeves",),
    "peek": ("looking at", "card faces"),
    "peeked": ("looking at", "card faces"),
    "decklist": ("deck registration", "decklist"),
    "deck list": ("deck registration", "decklist"),
    "deck check": ("deck registration", "decklist"),
    "deck size": ("deck size limits",),
    "banned": ("banned list", "banned card"),
    "ban": ("banned list",),
    "legal": ("cards allowed",),
    "allowed cards": ("cards allowed",),
    "new set": ("new releases",),
    "release": ("new releases",),
    "marked": ("marked cards",),
    "shuffle": ("shuffling", "cutting"),
    "cut": ("cutting",),
    "sealed": ("sealed deck",),
    "booster": ("boosters",),
    "boosters": ("booster",),
    "draft": ("draft",),
    "pick": ("select", "choose"),
    "multideck": ("multi-deck",),
    "multi deck": ("multi-deck",),
    "two decks": ("multi-deck",),
    # seating
    "seat": ("seating",),
    "seats": ("seating",),
    "seating": ("seating",),
    "split table": ("seating", "table"),    # "13 players, how do we split the tables" (not a VP split)
    "final table": ("final round",),
    "finals": ("final round",),
    "top 5": ("final round",),
    "top five": ("final round",),
    # devices and notes
    "phone": ("electronic devices",),
    "headphones": ("electronic devices", "portable audio"),
    "music": ("electronic devices", "portable audio"),
    "mobile": ("electronic devices",),
    "notes": ("taking notes",),
    "notepad": ("taking notes",),
    # announcements
    "say": ("announce", "declare"),
    "announce": ("declare", "declaration"),
    "declare": ("announce", "declaration"),
    "any blocks": ("passing", "asking for blocks"),
    "no block": ("passing", "block"),
    "skip": ("shortcut", "pass"),
    "shortcut": ("shortcut",),
    "sequence": ("shortcut", "sequencing"),
    "cancel": ("cancellation", "cancel"),
    "direct intervention": ("cancel", "cancellation"),
    # and its short name, the verb players make of it ("he DI'd my action"): the card is
    # found by its name only as the whole query (`SHORT_NAMES`; "di" is common)
    "di": ("cancel", "cancellation"),
    "di'd": ("cancel", "cancellation"),
    "di'ed": ("cancel", "cancellation"),
    "wake": ("wake",),
    "replace": ("replace", "replacement"),
    "two cards": ("multiple cards",),
    "three cards": ("multiple cards",),
    "several cards": ("multiple cards",),
    "draw card": ("replace",),
    # drawing back to hand size is replacing ("draw back up", "draw up after each")
    "draw up": ("replace",),
    "draw back up": ("replace",),
    "misplay": ("misplay", "misrepresentation"),
    "mistake": ("misplay", "misrepresentation"),
    "misrepresent": ("misrepresented", "misrepresentation"),
    "lie": ("misrepresented", "bluff"),
    "fib": ("misrepresented", "bluff"),
    "bluff": ("bluff", "posture"),
    "negotiate": ("negotiation", "discussion"),
    "deal": ("negotiation",),
    "haggle": ("negotiate", "negotiation"),
    "bargain": ("negotiate", "negotiation"),
    # "one more q before we stop talking"
    "q": ("question",),
    "talk": ("table talk", "discussion"),
    "chat": ("table talk", "discussion"),
    "stop talking": ("pace of discussion",),
    # to stop a card as it is played is to cancel it ("how long do i have to stop a card")
    "stop card": ("cancel",),
    "wrap up": ("stop discussing", "pace of discussion"),
    "shut down": ("stop discussing", "stop"),
    "shout": ("raise their voices",),
    "yell": ("raise their voices",),
    "scream": ("raise their voices",),
    "insult": ("slur", "defame"),
    "mock": ("defame", "slur"),
    "laugh": ("defame", "slur"),
    "rude": ("unsportsmanlike", "defame"),
    "swear": ("profanity", "slur"),
    "swearing": ("profanity", "slur"),
    "curse": ("profanity",),
    "advice": ("coaching", "outside assistance", "communicate"),
    "coach": ("coaching", "outside assistance"),
    "help": ("outside assistance",),
    "threat": ("physical threat",),
    "threaten": ("physical threat",),
    "hypothetical": ("hypothetic", "hypotheticals"),
    "terms": ("referendum terms",),
    "ballot": ("votes",),
    "vote": ("votes", "referendum"),
    "votes": ("vote", "referendum"),
    "stealth": ("stealth",),
    "vampire": ("minion",),
    "vampires": ("minion",),
    "bleed amount": ("bleed amount",),
    "loop": ("infinite loops",),
    "infinite": ("infinite loops",),
    "priscus": ("prisci",),
    # everyday words for the rules' terms
    "tourney": ("tournament",),
    "tournie": ("tournament",),
    "people": ("players",),
    "ppl": ("players",),
    "torn": ("damaged", "marked cards"),
    "ripped": ("damaged", "marked cards"),
    "bent": ("damaged", "marked cards"),
    "crease": ("damaged", "marked cards"),
    "kick off": ("begin", "start"),
    "misplayed": ("misplay", "misrepresentation"),
    "write down": ("record", "notes"),
    "wrote down": ("record", "notes"),
    "jot down": ("record", "notes"),
    "sign up": ("register", "sanctioning"),
    "signed up": ("register", "sanctioning"),
    "signup": ("register", "sanctioning"),
    "timed out": ("time limit", "time"),
    # players' words for the cards' terms (a card's text says "combat", "minion",
    # "additional", "ash heap", "library", "life")
    "fight": ("combat",),
    "fights": ("combat",),
    "fighting": ("combat",),
    "guy": ("minion", "vampire"),
    "guys": ("minion", "vampire"),
    "dude": ("minion", "vampire"),
    "vamp": ("vampire",),
    "flyer": ("flight",),
    "flier": ("flight",),
    "flying": ("flight",),
    "vamps": ("vampire",),
    "cant": ("cannot",),
    "can't": ("cannot",),
    "extra": ("additional",),
    # players' shorthand and verbs for the cards' "different", "move", "perform"
    "diff": ("different",),
    "pol": ("political",),
    "pols": ("political",),
    # a referendum "passes" where the cards say "successful" (a key is matched on its
    # stems: "passes", "passed" and "passing" too)
    "pass": ("successful",),
    "shift": ("move",),
    "pull off": ("perform", "successful"),
    # a minion that "picks a fight" or "attacks" enters combat (the cards' words)
    # ("pick a fight" is read as "pick fights": "a" is a stop word)
    "pick fights": ("enter combat",),
    "start fights": ("enter combat",),
    "attack": ("enter combat",),
    # and a minion that "jumps" another
    "jump": ("enter combat",),
    # what happens "two rounds in a row" happens in consecutive ones
    "row": ("consecutive",),
    # a card "takes control" of what a player says it "steals" (a steal of blood stays one)
    "steal": ("take control",),
    "stole": ("steal", "take control"),
    "stolen": ("steal", "take control"),
    # a game told afterwards: the past of an irregular verb is no form of it to the stemmer
    # ("he drew 2 extra cards", "a title he lost", "the cost is still paid"); the rules and
    # the cards say the present. Not "took" and "bled" (with them, every "take" and "bleed"
    # of a question came first: two development questions lost) or "left" ("remaining")
    "drew": ("draw",),
    "drawn": ("draw",),
    "paid": ("pay",),
    "lost": ("lose",),
    "fought": ("fight",),
    "dealt": ("deal",),
    "chose": ("choose",),
    "chosen": ("choose",),
    "won": ("win",),
    "kept": ("keep",),
    # what players say a card does: "drain" a prey's pool, "give back" a VP, "each turn",
    # "stick" a card on a minion, "get rid" of it (the cards: steal, lose, the unlock phase,
    # put this card on, burn this card)
    "drain": ("drain", "steal", "lose"),
    # a card that takes pool from a Methuselah steals it
    "take pool": ("steal pool",),
    "swap seats": ("switch places", "seating"),
    "swap places": ("switch places",),
    # the cards' one plural that the stemmer does not bring back to its singular
    "werewolf": ("werewolves",),
    "critter": ("animal",),
    "critters": ("animal",),
    "non targeted": ("undirected",),
    "untargeted": ("undirected",),
    "dig": ("search",),
    "yank": ("move", "take"),
    "face up": ("open hand", "face up"),
    "every turn": ("unlock phase", "each turn"),
    "each turn": ("unlock phase", "each turn"),
    "give back": ("lose", "return"),
    "stick": ("put this card on", "attach"),
    "attach": ("put this card on", "attach"),
    "get rid": ("burn this card", "remove"),
    "gave": ("give",),
    "given": ("give",),
    "hid": ("hide",),
    "hidden": ("hide",),
    "threw": ("throw",),
    "thrown": ("throw",),
    "struck": ("strike",),
    "woke": ("wake",),
    "woken": ("wake",),
    "withdrew": ("withdraw",),
    "withdrawn": ("withdraw",),
    "spent": ("spend",),
    "brought": ("bring",),
    "sent": ("send",),
    # "try to block", "tries to bleed": the cards and rulings say "attempt" (a key is
    # matched on its stems: "try" stands for "tries" and "trying" too)
    "try": ("attempt",),
    # "each time", "whenever" and "after" open what a card does on an event
    "every time": ("each time", "whenever", "after"),
    "everytime": ("each time", "whenever", "after"),
    "bounce": ("change the target", "redirect"),
    # a bleed sent or passed on to someone else is a bleed redirected ("the card that sends a
    # bleed to someone else"): the cards say the bleed "is now directed at" another Methuselah
    "send bleed": ("redirect", "now directed"),
    "pass bleed": ("redirect", "now directed"),
    "redirect": ("change the target",),
    "discard pile": ("ash heap",),
    "graveyard": ("ash heap",),
    "trash": ("ash heap",),
    "toss": ("toss", "discard", "invalidate"),
    "draw pile": ("library",),
    "deck": ("deck", "library"),
    "tokens": ("counters",),
    "token": ("counter",),
    "hp": ("life",),
    "health": ("life",),
    # a player's "life" is the cards' "pool" as often as an ally's life ("gives 5 life if i
    # have a ministry out"), and a "sneaky" action a stealth one
    "life": ("life", "pool"),
    "sneaky": ("stealth",),
    # an advanced vampire's name says it as "(ADV)" ("Nefertiti (G2 ADV)"); its text, rarely
    "advanced": ("advanced", "adv"),
    "str": ("strength",),
    "agg": ("aggravated",),
    "aggs": ("aggravated",),
    "sup": ("superior",),
    "cap": ("capacity",),
    "gun": ("gun", "weapon"),
    "guns": ("gun", "weapon"),
    "gear": ("equipment",),
    "item": ("equipment",),
    "items": ("equipment",),
    # a minion "hits" for the cards' strike and its damage ("does the retainer hit again",
    # "hits for 2"): in four card entries, "hit" weighed the most of a question's words
    "hit": ("strike", "damage"),
    "hurt": ("damage",),
    "hurts": ("damage",),
    "dmg": ("damage",),
    # players "soak" damage that the cards prevent ("the thaum card that soaks 2 of the
    # dmg"); a one-word key names no card but as the whole query (the card names' common
    # words, `judgekit.rules.service._card_entries`): not Soak
    "soak": ("prevent",),
    # a card "ditched" from the hand is discarded, a game ditched is left; a bleed or a
    # strength "knocked" down (or a point "knocked off" it) is reduced
    "ditch": ("discard", "bowing out"),
    "knock": ("knock", "reduce"),
    "heal": ("mend",),
    "heals": ("mend",),
    "healing": ("mend", "healing"),
    # words people type that the rules do not hold (British spellings, run-together words,
    # abbreviations), each mapped to words the rules or the guidelines say: from a list of
    # 193 a second hand wrote from the rules text alone (1 Dec 2026), the 47 the rules' part
    # did not know, read and kept (the doubtful left out: "swiss", "mulligan", "oracle"…).
    # No question of any set moved with them: they are for the questions the sets do not
    # have.
    "enrol": ("register", "registration"),
    "reg": ("registration", "register"),
    "referee": ("judge", "head judge"),
    "anticlockwise": ("counterclockwise", "clockwise"),
    "pred": ("predator",),
    "randomise": ("randomly", "randomized", "randomizing"),
    "randomised": ("randomized", "sufficiently randomized"),
    "absent": ("fail to arrive", "loss"),
    "autoloss": ("loss", "fail to arrive"),
    "dropout": ("dropping out", "early departure"),
    "ragequit": ("leave", "concede"),
    "concession": ("concede", "conceding"),
    "surrender": ("concede",),
    "bribery": ("bribe", "coerce", "concede"),
    "truce": ("intentional draw",),
    "leaderboard": ("standings", "ranked", "rankings"),
    "avg": ("averaged",),
    "champ": ("tournament winner", "winner"),
    "overtime": ("extra time", "extend the game time"),
    "verdict": ("ruling", "decision"),
    "overturn": ("overrule", "appeal"),
    "penalised": ("penalty", "penalties"),
    "caution": ("warning", "warnings"),
    "palming": ("drawing extra cards", "manipulating"),
    "slowplay": ("slow play", "slowly"),
    "dawdling": ("stalling", "slowly"),
    "timewasting": ("stalling", "stalling for time"),
    "hurry": ("timely manner", "pace"),
    "cardback": ("backs", "distinct backs"),
    "colour": ("color", "color-copy", "color printed"),
    "greyscale": ("color-copy", "proxy"),
    "pnp": ("vekn issued cards", "color printed"),
    "unsleeved": ("sleeve", "sleeved"),
    "banlist": ("banned list", "banned"),
    "deckbuilding": ("deck construction", "construct"),
    "precon": ("preconstructed starter decks", "starter"),
    "unsanctioned": ("sanctioned", "sanctioning"),
    "smartphone": ("electronic devices", "cellular phones"),
    "notetaking": ("taking notes", "written notes"),
    "watcher": ("spectator",),
    "trashtalk": ("slur", "defame"),
    "nb": ("no block",),
    "misrep": ("misrepresentation",),
    "eot": ("end of turn",),
    "coinflip": ("coin toss", "random"),
    "honour": ("honored", "deal"),
    "tutor": ("search your library",),
    "tutors": ("search your library",),
    # "a disc my anarch has at sup": a discipline (the word alone was "Nonu Dis", "disc"
    # rarer than any word of the question)
    "disc": ("discipline",),
    "discs": ("disciplines",),
    "empty": ("no blood", "empty"),
}

#: The short names players give clans (a card's text names the clan in full).
CLAN_SHORT_NAMES: dict[str, tuple[str, ...]] = {
    "tzi": ("tzimisce",), "tzim": ("tzimisce",), "tzimi": ("tzimisce",),
    "malk": ("malkavian",), "malks": ("malkavian",), "malkav": ("malkavian",),
    "nos": ("nosferatu",), "nossie": ("nosferatu",), "nossies": ("nosferatu",), "nosfe": ("nosferatu",),
    "trem": ("tremere",), "torrie": ("toreador",), "toreadors": ("toreador",),
    "ventrues": ("ventrue",), "giov": ("giovanni",), "gio": ("giovanni",),
    "lasombras": ("lasombra",), "sombra": ("lasombra",), "setite": ("follower of set", "ministry"),
    "setites": ("follower of set", "ministry"), "ministry": ("ministry", "follower of set"),
    "assamite": ("assamite", "banu haqim"), "assamites": ("assamite", "banu haqim"),
    "banu haqim": ("banu haqim", "assamite"), "salu": ("salubri",), "garg": ("gargoyle",),
    "gargs": ("gargoyle",), "anarchs": ("anarch",), "ravnoses": ("ravnos",),
}
#: The short names players give sects ("a cammy vamp", "indep"; a card's text names the
#: sect in full).
SECT_SHORT_NAMES: dict[str, tuple[str, ...]] = {
    "cammy": ("camarilla",), "cammies": ("camarilla",), "cam": ("camarilla",),
    "indep": ("independent",), "indeps": ("independent",), "indy": ("independent",),
    "indie": ("independent",), "sab": ("sabbat",),
}
#: The short names players give disciplines: the card lists' codes ("obf", "dom"; not
#: "for", a stop word, "pre" ("pre-release") and "str" (strength), nor the imbued virtues'
#: codes, everyday words) and a few more.
DISCIPLINE_SHORT_NAMES: dict[str, tuple[str, ...]] = {
    **{code: (name.lower(),) for code, name in DISCIPLINES.items()
       if code not in ("for", "pre", "str", "def", "inn", "jud", "mar", "red", "ven", "viz")},
    "thaum": ("thaumaturgy",), "thauma": ("thaumaturgy",), "necro": ("necromancy",),
    "obfu": ("obfuscate",), "pres": ("presence",), "fort": ("fortitude",),
    "celer": ("celerity",), "anim": ("animalism",), "dementia": ("dementation",),
    "vicis": ("vicissitude",), "chim": ("chimerstry",), "obten": ("obtenebration",),
    "serp": ("serpentis",),
}
#: Discipline codes whose stem is an everyday word's too ("any" stems to "ani", "spy" to
#: "spi"): they expand only when typed as the code ("ani retainer", not "can any vampire
#: block", which was read as Animalism and ranked its cards three times higher).
TYPED_AS_IS = frozenset(("ani", "spi"))
#: Every discipline's code and short name -> its name, for the lists players write with
#: slashes ("for/pre", "aus/cel/for", "nec/pro"): in such a list "for" and "pre" are
#: Fortitude and Presence, which alone they are not (`judgekit.rules.query.spell_out_disciplines`).
DISCIPLINE_SPELLINGS: dict[str, str] = {
    **{code: name.lower() for code, name in DISCIPLINES.items()},
    **{short: names[0] for short, names in DISCIPLINE_SHORT_NAMES.items()},
}
# the short names, and how players say what the cards' fixed wording and the rules' terms
# say (`judgekit.rules.card_idioms`, `judgekit.rules.rules_idioms`): keys of their own, none
# of the table's above
for _table in (CLAN_SHORT_NAMES, SECT_SHORT_NAMES, DISCIPLINE_SHORT_NAMES, CARD_IDIOMS, RULES_IDIOMS):
    for _key, _alts in _table.items():
        SYNONYMS.setdefault(_key, _alts)

# Keys that expand only when typed in capitals (they are common English words otherwise).
CASE_SENSITIVE = {"to": "TO"}

# The scaffolding of a judge's question: interrogatives, auxiliaries, pronouns, vague verbs,
# quantifiers and the particles of everyday phrasal verbs ("put back into the library",
# "on your own": the card's text says "return", "yourself"). Not "off": the rules' idioms
# hang on it ("phones off", "the timer goes off", "cut off table talk"). Nor "both"
# (a question word, it moved no development set's hit@3 and cost the held-out described
# cards one). Also "but", "vs" and "stuff": a conjunction, a preposition and a vague noun
# ("shift the stuff onto another guy", "prevent 2 vs guns"), rare in the cards' texts, so
# they weighed the most in a question. And the negated auxiliaries, typed with or without
# their apostrophe ("my action wasnt blocked", "their votes dont count"): a word the index
# lacks, "wasnt" weighed the most and was read as "want". And the contractions of a stop
# word or a pronoun ("that's" is "that" once its ending is cut, kept although "that" alone
# is a stop word; "I'm", "you're"): rare in the cards' texts, they weighed the most in a
# judge call ("the pre bleed card that's +1 bleed at basic…"). They still count
# (a little) when nothing else matches, and inside a synonym phrase ("no block") they are
# matched as usual. And a message's greetings and thanks ("hello judge", "thx"): "hello",
# one letter from "hell", answered with the cards named "Hell…". And the question words typed
# as they sound ("wat", "whats"), and "anyway": in "wats vekn anyway, who r they", words
# of a few cards' texts, they weighed the most and brought those cards.
QUESTION_WORDS = frozenset("""
what which who whom whose why how where whenever whatever
do does did done doing am was were been being has had having
could should would shall might must need needs needed ought
i me my mine myself he him his she her hers its our ours they them their theirs themselves
someone somebody anyone anybody everyone everybody something anything everything
happen happens happened happening count counts counted mean means meant
get gets got getting ok okay fine really just still also even already again ever too anymore
actually actualy literally honestly seriously probably maybe kinda sorta
very pretty extremely truly
work works worked working
whole entire thing things stuff way there then so than about like else many much but vs
into onto own out up down over back away
please tell know want wants wanted supposed allowed permitted possible legal
isnt wasnt arent werent dont doesnt didnt hasnt havent hadnt wont wouldnt couldnt shouldnt
isn't wasn't aren't weren't don't doesn't didn't hasn't haven't hadn't won't wouldn't couldn't shouldn't
that's thats it's i'm im i'd i'll i've ive you're youre we're they're theyre
hello hi hey hiya thanks thank thx cheers
wat wats whats anyway anyways
""".split())

#: The verbs of a question describing what a card does ("the card that makes a vampire count
#: as anarch", "the location that lets me…"): question words in the cards' part only, whose
#: texts say "is considered" and "may"; the rules' everyday questions hang on them ("make a
#: deal", "making the final", "let you propose", "letting go of the card"). And "question",
#: the word a message opens with ("Quick question:", "Question from our league:"), which
#: the cards say only as "the vampire in question": in thirteen card entries, it weighed
#: the most of a message's words. And "nothing" (7 Dec 2026): "a point of damage that nothing
#: could prevent", "did nothing since the target was gone", "just taps a minion, nothing
#: else" tell of the card without being its word (no card's text says it, a few rulings do,
#: and it weighed the most): over every set two questions more in the first three, none fewer.
CARD_QUESTION_WORDS = frozenset("make makes made making let lets letting question questions super "
                                "nothing nothin".split())
