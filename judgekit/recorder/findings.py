"""The recorder's findings: one table of codes, and the `Finding` value the engine emits.

Every code the engine can report is a row of `CODES`: a short title for people (the
page's status line and log), its severity, whether the
declaration it concerns stays binding (None when that question does not apply), a default
one-line message, the citation into the rules corpus (a section id, never copied text) and
the infraction suggested to the judge (v2 catalog names, `content/penalties`; None when the
finding is not an infraction by itself). Codes are stable machine names: tests, the CLI,
the page and the tournament area rely on them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgekit.game.clock import CAP_SENTENCE
from judgekit.i18n import Message, Said, as_message

ANN = "announcements"
TR = "tournament-rules"
# The VEKN "Tournament Conduct & Infraction Guide" (v2), whose infractions are the catalog
# in content/penalties/v2.toml. Its text is not in the rules corpus: a citation of it
# links to the quick reference (/reference), where our summary names the guide's section.
IG = "infraction-guide"
GUIDE_PAGES = {("infraction-guide", "1.2.4"): "/reference#time"}
DOC_TITLES = {ANN: "Tournament Announcement Guidelines", TR: "VEKN Tournament Rules",
              IG: "Tournament Conduct & Infraction Guide (v2)"}

# Severities, from informative to serious.
SEVERITIES = ("info", "warning", "sequence", "declaration", "forbidden-shortcut",
              "misplay", "conduct", "loop", "time")

GRV = "Game Rule Violation"
PIM = "Public Information Miscommunication"


@dataclass(frozen=True)
class Code:
    code: str
    title: str
    severity: str
    binding: bool | None
    message: str
    cite: dict[str, str]
    infraction: str | None


def _c(code, title, severity, binding, message, doc, section, infraction):
    return Code(code, title, severity, binding, message, {"doc": doc, "section": section}, infraction)


CODES: dict[str, Code] = {c.code: c for c in [
    # The announcement procedure — forbidden shortcuts.
    _c("action-pass-missing", "Action not passed (“any blocks?”)", "forbidden-shortcut", None,
       "Someone acted on the action before the acting player passed (\"any blocks?\" counts as passing).",
       ANN, "forbidden-shortcuts", GRV),
    _c("block-pass-missing", "Block opportunity not passed", "forbidden-shortcut", None,
       "A block opportunity was not explicitly passed (\"no block\") before a reaction, an effect or the resolution.",
       ANN, "forbidden-shortcuts", GRV),
    _c("block-out-of-order", "Predator before the prey", "forbidden-shortcut", None,
       "On an undirected action the predator acted before the prey passed on blocking.",
       ANN, "forbidden-shortcuts", GRV),
    # Who may block: the target of a directed action (the engine cites action-declaration
    # then: the declaration names the target), the prey and predator of an undirected one.
    _c("block-not-eligible", "Block by a player who cannot block", "sequence", None,
       "This player has no block opportunity on this action by the rules of blocking (directed: only the target; undirected: the prey and the predator), unless a card lets the minion block anyway.",
       ANN, "forbidden-shortcuts", GRV),
    _c("replace-missing", "Card not replaced", "forbidden-shortcut", None,
       "A card was played before the previous card, one with no delay in its replacement, was replaced.",
       ANN, "forbidden-shortcuts", GRV),
    _c("end-of-turn-missing", "End of turn not declared", "forbidden-shortcut", None,
       "A new turn started without the previous player declaring the end of their turn.",
       ANN, "forbidden-shortcuts", GRV),
    # Turn order. The guidelines have no rule on acting out of turn (the turn sequence is
    # the game's rules): cited is tournament rules 2.3, players must follow the rules.
    _c("not-your-turn", "Not this player's turn", "sequence", None,
       "Something only the acting player does (an action, a phase, transfers, the discard phase action, the end of the turn) was done by another player, or with no turn started.",
       TR, "2.3", GRV),
    # Declarations.
    _c("action-not-announced", "Action not announced", "declaration", None,
       "A minion was locked and blocks were asked for (or answered) with no action announced: "
       "locking is not a declaration; the action must be announced.",
       ANN, "action-declaration", GRV),
    _c("bleed-amount-missing", "Bleed amount not stated", "declaration", None,
       "A bleed was declared without its amount.",
       ANN, "action-declaration", GRV),
    _c("bleed-total-not-restated", "New bleed total not stated", "declaration", None,
       "The bleed amount changed during the action and the new total was not stated.",
       ANN, "action-declaration", GRV),
    _c("stealth-undeclared", "Stealth not declared", "declaration", None,
       "The action's stealth is not the standard one for its type and was not declared.",
       ANN, "action-declaration", GRV),
    _c("card-choice-missing", "Card choice not announced", "declaration", False,
       "A card was played without a required choice; the player is not bound to any choice.",
       ANN, "card-declaration", GRV),
    _c("discipline-unavailable", "Discipline the minion lacks", "misplay", False,
       "The declared discipline or level is one the minion does not have: the declaration is void (misplay).",
       ANN, "card-declaration", GRV),
    _c("misrepresented", "Misrepresented declaration", "misplay", True,
       "A valid declaration was misrepresented: it stays binding, and it is a misplay.",
       ANN, "action-declaration", PIM),
    _c("declaration-binding", "The declaration binds", "declaration", True,
       "A declaration was made and is binding: it cannot be taken back.",
       ANN, "hypotheticals", GRV),
    # Votes and referendum terms.
    _c("vote-incomplete", "Votes incomplete", "declaration", None,
       "Votes were announced without their number or their side.",
       ANN, "votes", GRV),
    _c("vote-vampire-missing", "Voting vampire not named", "declaration", None,
       "Not all available votes (not counting optional effects) were committed and the voting vampire was not named.",
       ANN, "votes", GRV),
    _c("terms-unconfirmed", "Terms not confirmed", "declaration", None,
       "The political action succeeded and polling started without its terms that present a choice being confirmed.",
       ANN, "votes", GRV),
    # Shortcuts and windows.
    _c("phase-passed", "Phase already passed", "sequence", None,
       "This belongs to a phase or step the player already passed (by a shortcut or explicitly).",
       ANN, "shortcuts", GRV),
    _c("shortcut-voided", "Shortcut voided", "info", False,
       "An opponent interrupted a shortcut in its window: the shortcut does not bind and the sequence resumes there.",
       ANN, "shortcuts", None),
    _c("interrupt-too-late", "Too late to interrupt", "sequence", None,
       "Too late: the next card or effect was already played after that window.",
       ANN, "shortcuts", None),
    _c("cancel-too-late", "Too late to cancel", "sequence", None,
       "Too late to cancel (or wake against) that card: the next card was already announced.",
       ANN, "cancellation", None),
    # Table talk.
    _c("discussion-after-stop", "Discussion after the stop", "conduct", None,
       "Discussion went on after the acting player required it to stop and the last question and answer were given.",
       ANN, "pace", "Slow Play"),
    # A physical threat suggests Aggressive Behaviour instead, a discriminatory slur
    # Unsportsmanlike Conduct — Major (the engine picks it per case).
    _c("unsportsmanlike", "Unsportsmanlike talk", "conduct", None,
       "Table talk that is not allowed: raised voice, slur, or physical threat (even in jest). A discriminatory slur is Unsportsmanlike Conduct — Major.",
       ANN, "table-talk", "Unsportsmanlike Conduct — Minor"),
    # Loops (tournament rules 4.9).
    _c("loop-detected", "Loop", "loop", None,
       "The game state was completely restored to an earlier state: a loop; the activity cannot be begun again until the state changes.",
       TR, "4.9", None),
    _c("loop-repeated", "Loop begun again", "loop", None,
       "The looping activity was begun again without a change of game state.",
       TR, "4.9", GRV),
    # Time.
    _c("time-over", "After the time call", "time", None,
       "The round's time was called: this happens after the point where the game ends.",
       TR, "3.1.1", GRV),
    _c("time-limit-short", "Time limit too short", "warning", None,
       "The round's time limit is under the two-hour minimum.",
       TR, "3.1.1", None),
    # The cap is the infraction guide's (v2 1.2.4), a cap judges may apply, not a rule; the
    # tournament rules (2.8 allows extensions for lengthy rulings) set none.
    _c("extension-over-cap", "Extensions over the cap", "warning", None,
       "Time extensions at this table now total more than 10 minutes this round. " + CAP_SENTENCE,
       IG, "1.2.4", None),
]}


@dataclass
class Finding:
    """`message` is the English text; a message the engine wrote for the case is kept as a
    value too (`said`: a `Message` with a `recorder.finding.*` code), so that it is worded in
    the reader's language when read (`judgekit.recorder.lines.worded_findings`)."""
    seq: int
    code: str
    message: str
    seat: int | None = None
    title: str = ""
    severity: str = ""
    binding: bool | None = None
    cite: dict[str, str] = field(default_factory=dict)
    infraction: str | None = None
    said: Message | None = None

    def to_dict(self, said: bool = False) -> dict[str, Any]:
        """The finding as JSON; `said`: with the catalog code and parameters of a message
        written for the case (`message_code`, `message_params`: what a log line stores, so
        that the message is worded when read)."""
        out = {"seq": self.seq, "code": self.code, "title": self.title, "severity": self.severity,
               "binding": self.binding, "message": self.message, "cite": dict(self.cite),
               "infraction": self.infraction, "seat": self.seat}
        if said and self.said is not None:
            out["message_code"] = self.said.code
            out["message_params"] = stored_params(self.said)
        return out


def stored_params(message: Message) -> dict[str, Any]:
    """A message's parameters as JSON: a parameter that is a message itself becomes
    `{"code", "english", "params"}` (a `Said` too: its message)."""
    params = {k: as_message(v) if isinstance(v, Said) else v for k, v in message.params.items()}
    return {k: {"code": v.code, "english": v.english, "params": stored_params(v)}
            if isinstance(v, Message) else v for k, v in params.items()}


# A message made again from what was stored: its code and text are the stored ones, not
# catalog entries written here (the catalog's extraction reads `Message(...)` calls).
Stored = Message


def loaded(code: str, english: str | None, params: dict[str, Any] | None) -> Message:
    """The message `stored_params` wrote (with its code and English text)."""
    return Stored(code, english, **{
        k: loaded(v["code"], v.get("english"), v.get("params"))
        if isinstance(v, dict) and "code" in v and "english" in v else v
        for k, v in (params or {}).items()})


def make(code: str, seq: int, message: str | Message | None = None, *, seat: int | None = None,
         infraction: str | None = ..., binding: bool | None = ..., section: str | None = None,
         anchor: str | None = None) -> Finding:
    """A finding for `code` at event `seq`; the table gives every default."""
    row = CODES[code]
    cite = dict(row.cite)
    if section:
        cite["section"] = section
    if anchor:
        cite["anchor"] = anchor
    said = message if isinstance(message, Message) else None
    return Finding(seq=seq, code=code, message=str(message) if message else row.message, seat=seat, said=said,
                   title=row.title, severity=row.severity,
                   binding=row.binding if binding is ... else binding,
                   cite=cite,
                   infraction=row.infraction if infraction is ... else infraction)


def cite_url(cite: dict[str, str]) -> str:
    """The address of a citation: /rules/<doc>/<section>[#anchor] in the rules pages; a
    section of the infraction guide (not in the corpus) links to the quick reference's
    summary of it (`GUIDE_PAGES`)."""
    if cite["doc"] == IG:
        return GUIDE_PAGES.get((cite["doc"], cite["section"]), "/reference")
    url = f"/rules/{cite['doc']}/{cite['section']}"
    if cite.get("anchor"):
        url += "#" + cite["anchor"]
    return url


def cite_rule(cite: dict[str, str]) -> str | None:
    """The citation as a penalty record's `rule` ("doc/section", a rules page), or None
    when it cites a document outside the rules pages (the infraction guide)."""
    url = cite_url(cite)
    return url.removeprefix("/rules/") if url.startswith("/rules/") else None


def cite_text(cite: dict[str, str]) -> str:
    """The citation in words: "Tournament Conduct & Infraction Guide (v2) 1.2.4"."""
    return f"{DOC_TITLES.get(cite['doc'], cite['doc'])} {cite['section']}"
