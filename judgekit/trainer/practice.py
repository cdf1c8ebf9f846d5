"""Free practice: the player announces a play for a given situation, the recorder checks it.

A prompt (`content/trainer/practice/*.toml`, format in `content/trainer/README.md`) gives
a situation, a task and phrases to tap. The phrases the player taps become recorder events
(`compose`); the player may also type a line in the recorder's quick-entry notation
(`judgekit.recorder.notation`), when that module is available. Either way the declaration
goes through `situate`, the one place that turns the prompt's situation plus what the
player said into the events the engine checks (the player's seat, the level a discipline
code says, the situation's facts such as the real bleed amount), so that tapping and typing
the same declaration always get the same advice. The engine replays the prompt's `before`
events, those events and the prompt's `after` events (what the table does next), and
`check_events` turns every finding into advice in plain words ("say the bleed amount",
"pass on the block first") with the rules link, plus a hint for every goal of the task the
player has not met yet.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judgekit.i18n import N_, Message, Said
from judgekit.recorder import engine
from judgekit.recorder.events import VOCABULARY, EventError, validate_event
from judgekit.trainer.scenarios import SECTIONS, ScenarioProblem, rules_url
from judgekit.recorder.notation import parse_line

MAX_SAID = 40     # phrases in one declaration
# Fields that state the truth of the situation rather than what the player says: only a
# prompt's facts set them (a phrase carrying one would be lost when the player types).
FACT_FIELDS = ("actual_amount", "actual_stealth")


@dataclass(frozen=True)
class Phrase:
    id: str
    text: str
    event: dict[str, Any] | None = None
    adds: dict[str, Any] | None = None
    to: tuple[str, ...] = ()
    group: str = ""


@dataclass(frozen=True)
class Goal:
    match: dict[str, Any]
    hint: str
    # the rule the hint rests on, when it is not the prompt's own section (replacing a card
    # is a forbidden shortcut even in a prompt that practises action declaration)
    section: str | None = None
    anchor: str | None = None

    def cite(self, prompt: "Prompt") -> tuple[str, str]:
        section = self.section or prompt.section
        anchor = self.anchor if self.section else (self.anchor or prompt.anchor)
        return rules_url(section, anchor), SECTIONS[section]


@dataclass(frozen=True)
class Fact:
    """A truth of the situation the player cannot state: `adds` goes onto every event of
    the player's declaration that matches `match` (e.g. the real bleed with the card)."""
    match: dict[str, Any]
    adds: dict[str, Any]


@dataclass(frozen=True)
class Prompt:
    id: str
    section: str
    title: str
    situation: str
    task: str
    seats: tuple[str, ...]
    you: int
    before: tuple[dict[str, Any], ...]
    after: tuple[dict[str, Any], ...]
    phrases: tuple[Phrase, ...]
    goals: tuple[Goal, ...]
    model: tuple[str, ...]
    anchor: str | None = None
    facts: tuple[Fact, ...] = ()

    @property
    def url(self) -> str:
        return rules_url(self.section, self.anchor)

    def phrase(self, phrase_id: str) -> Phrase | None:
        return next((p for p in self.phrases if p.id == phrase_id), None)

    @property
    def groups(self) -> list[tuple[str, list[Phrase]]]:
        out: dict[str, list[Phrase]] = {}
        for p in self.phrases:
            out.setdefault(p.group or "Say", []).append(p)
        return list(out.items())


@dataclass
class Advice:
    code: str           # a finding code, or "goal" / "order" for the trainer's own advice
    tip: str
    detail: str = ""    # the recorder's own message, when there is one
    url: str = ""
    seq: int | None = None
    rule: str = ""      # the name of the rule the url points at ("Forbidden shortcuts")

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "tip": self.tip, "detail": self.detail, "url": self.url,
                "rule": self.rule}


@dataclass
class Result:
    ok: bool
    said: list[str]
    events: list[dict[str, Any]]
    advice: list[Advice] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "said": self.said, "events": self.events,
                "advice": [a.to_dict() for a in self.advice], "findings": self.findings,
                "error": self.error}


# --- loading ----------------------------------------------------------------------------

def load_prompts(folder: Path, cards=None) -> list[Prompt]:
    """Every prompt of `folder`; ValueError listing every problem (file and prompt)."""
    prompts: list[Prompt] = []
    problems: list[ScenarioProblem] = []
    for path in sorted(Path(folder).glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            problems.append(ScenarioProblem(path.name, None, f"cannot read ({exc})"))
            continue
        for i, raw in enumerate(data.get("prompt") or [], 1):
            label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"#{i}"
            errors: list[str] = []
            prompt = _parse_prompt(raw, cards, errors)
            problems += [ScenarioProblem(path.name, label, e) for e in errors]
            if prompt is not None and not errors:
                prompts.append(prompt)
    ids = [p.id for p in prompts]
    for dup in {i for i in ids if ids.count(i) > 1}:
        problems.append(ScenarioProblem(str(folder), dup, "id used twice"))
    if problems:
        raise ValueError("\n".join(str(p) for p in problems))
    return prompts


def _events(raw, key, n, cards, errors, required=False) -> tuple[dict[str, Any], ...]:
    items = raw.get(key, [])
    if not isinstance(items, list) or (required and not items):
        errors.append(f"{key} must be a list of recorder events")
        return ()
    out = []
    for i, e in enumerate(items, 1):
        result = validate_event(e, n, cards)
        if isinstance(result, EventError):
            errors.append(f"{key} event {i}: {result}")
        else:
            out.append(result)
    return tuple(out)


def _parse_prompt(raw, cards, errors) -> Prompt | None:
    if not isinstance(raw, dict):
        errors.append("a prompt must be a table")
        return None
    known = {"id", "section", "anchor", "title", "situation", "task", "seats", "you",
             "before", "after", "phrase", "goal", "model", "fact"}
    if set(raw) - known:
        errors.append(f"unknown field(s): {', '.join(sorted(set(raw) - known))}")
    for key in ("id", "title", "situation", "task"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            errors.append(f"{key} is missing")
    if raw.get("section") not in SECTIONS:
        errors.append(f"section must be one of: {', '.join(SECTIONS)}")
    seats = raw.get("seats")
    if not (isinstance(seats, list) and 4 <= len(seats) <= 5 and all(isinstance(s, str) for s in seats)):
        errors.append("seats must be 4 or 5 names")
        return None
    you = raw.get("you")
    if not isinstance(you, int) or not 1 <= you <= len(seats):
        errors.append("you must be a seat number")
    before = _events(raw, "before", len(seats), cards, errors)
    after = _events(raw, "after", len(seats), cards, errors)
    phrases = []
    for i, p in enumerate(raw.get("phrase") or [], 1):
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not isinstance(p.get("text"), str):
            errors.append(f"phrase {i}: needs an id and a text")
            continue
        if set(p) - {"id", "text", "event", "adds", "to", "group"}:
            errors.append(f"phrase {p['id']!r}: unknown field(s)")
        event = p.get("event")
        adds = p.get("adds")
        if event is None and adds is None:
            errors.append(f"phrase {p['id']!r}: needs an event or adds")
        stated = [k for part in (event, adds) if isinstance(part, dict) for k in part if k in FACT_FIELDS]
        if stated:
            errors.append(f"phrase {p['id']!r}: {', '.join(stated)} is a fact of the situation, "
                          "not something the player says: put it in a [[prompt.fact]]")
        if event is not None:
            checked = validate_event(event, len(seats), cards)
            if isinstance(checked, EventError):
                # an event phrase may rely on its `adds` for a required field
                checked = validate_event(dict(event, **(adds or {})), len(seats), cards)
            if isinstance(checked, EventError):
                errors.append(f"phrase {p['id']!r}: {checked}")
        to = p.get("to", [])
        if adds is not None and (not isinstance(adds, dict) or not isinstance(to, list) or not to):
            errors.append(f"phrase {p['id']!r}: adds needs a table and a `to` list of event types")
        phrases.append(Phrase(p["id"], " ".join(p["text"].split()), event, adds, tuple(to),
                              p.get("group", "")))
    if len({p.id for p in phrases}) != len(phrases):
        errors.append("phrase ids repeat")
    goals = []
    for i, g in enumerate(raw.get("goal") or [], 1):
        if not isinstance(g, dict) or not isinstance(g.get("match"), dict) or not isinstance(g.get("hint"), str):
            errors.append(f"goal {i}: needs a match table and a hint")
            continue
        if set(g) - {"match", "hint", "section", "anchor"}:
            errors.append(f"goal {i}: unknown field(s)")
        if g.get("section") is not None and g["section"] not in SECTIONS:
            errors.append(f"goal {i}: section must be one of: {', '.join(SECTIONS)}")
            continue
        goals.append(Goal(g["match"], " ".join(g["hint"].split()), g.get("section"), g.get("anchor")))
    facts = _facts(raw, len(seats), you, cards, errors)
    model = raw.get("model")
    ids = {p.id for p in phrases}
    if not isinstance(model, list) or not model or any(m not in ids for m in model):
        errors.append("model must list phrase ids")
    if errors:
        return None
    return Prompt(id=raw["id"], section=raw["section"], title=raw["title"].strip(),
                  situation=" ".join(raw["situation"].split()), task=" ".join(raw["task"].split()),
                  seats=tuple(seats), you=you, before=before, after=after,
                  phrases=tuple(phrases), goals=tuple(goals), model=tuple(model),
                  anchor=raw.get("anchor"), facts=facts)


def _facts(raw, n, you, cards, errors) -> tuple[Fact, ...]:
    out = []
    for i, f in enumerate(raw.get("fact") or [], 1):
        if not isinstance(f, dict) or set(f) != {"match", "adds"} \
                or not isinstance(f["match"], dict) or not isinstance(f["adds"], dict) or not f["adds"]:
            errors.append(f"fact {i}: needs a match table and an adds table, nothing else")
            continue
        match, adds = f["match"], f["adds"]
        if set(adds) - set(FACT_FIELDS):
            # A fact overriding what the player says (the amount...) would hide a mistake.
            errors.append(f"fact {i}: adds may only set {', '.join(FACT_FIELDS)}")
            continue
        # The match and adds together must make a valid event, names spelt as the card
        # list spells them (the player's events are compared after validation).
        seat = you if isinstance(you, int) and 1 <= you <= n else 1
        checked = validate_event({"seat": seat, **match, **adds}, n, cards)
        if isinstance(checked, EventError):
            errors.append(f"fact {i}: {checked}")
            continue
        if any(checked.get(k) != v for k, v in match.items()):
            errors.append(f"fact {i}: write the match as the recorder stores it "
                          f"({ {k: checked.get(k) for k in match} })")
        out.append(Fact(dict(match), dict(adds)))
    return tuple(out)


# --- from phrases to events ------------------------------------------------------------

def compose(prompt: Prompt, said: list[str]) -> tuple[list[dict[str, Any]], list[str], list[Advice]]:
    """The player's events for the tapped phrases, the words said, and order problems."""
    events: list[dict[str, Any]] = []
    words: list[str] = []
    advice: list[Advice] = []
    for pid in said[:MAX_SAID]:
        phrase = prompt.phrase(pid)
        if phrase is None:
            continue
        words.append(phrase.text)
        last = events[-1] if events else None
        if phrase.adds is not None and last is not None and last["type"] in phrase.to \
                and not any(k in last for k in phrase.adds):
            last.update(phrase.adds)
        elif phrase.event is not None:
            events.append(dict(phrase.event, **(phrase.adds or {})))
        else:
            advice.append(Advice("order", Said(Message(
                "trainer.tip-nothing-to-belong", "“%(phrase)s” has nothing to belong to here: say it right after "
                "the card, action or vote it completes, before anything else happens.", phrase=phrase.text)),
                                 url=prompt.url, rule=SECTIONS[prompt.section]))
    return events, words, advice


def _matches(event: dict[str, Any], match: dict[str, Any]) -> bool:
    return all(event.get(k) == v for k, v in match.items())


# --- checking ---------------------------------------------------------------------------

def check(prompt: Prompt, said: list[str], cards=None) -> Result:
    """Check a declaration given as tapped phrase ids."""
    events, words, advice = compose(prompt, said)
    if not events and not advice:
        return Result(False, words, [], [Advice("goal", Said(Message("trainer.tip-tap", "Tap what you would say, in order.")))],
                      error=Said(Message("trainer.nothing-said", "nothing said yet")))
    return check_events(prompt, events, cards, words=words, advice=advice)


def check_line(prompt: Prompt, line: str, cards=None) -> Result:
    """Check a declaration typed in the recorder's quick-entry notation."""
    parse = notation_parser()
    if parse is None:
        return Result(False, [line], [], error=Said(Message(
            "trainer.no-typing", "typing is not available: tap the phrases instead")))
    parsed = parse(line, len(prompt.seats))
    if not isinstance(parsed, list):
        message = getattr(parsed, "message", str(parsed))
        return Result(False, [line], [], error=message)
    return check_events(prompt, parsed, cards, words=[line])


def notation_parser():
    """`parse_line` of the recorder's quick-entry notation."""
    return parse_line


def situate(prompt: Prompt, declared: list[dict[str, Any]], cards=None) -> list[dict[str, Any]] | str:
    """The events the engine checks for the player's declaration, tapped or typed.

    The one place where the prompt's situation meets what the player said, so that the same
    declaration gets the same advice whichever way it was given: a statement without a
    seat is the player's own; each event is validated (canonical names, discipline codes);
    a discipline code also gives the level it says (`dom` inferior, `DOM` superior, as the
    phrase "at inferior" does) so that goals and facts can ask for it; and the prompt's
    facts (what is true but not said, such as the real bleed amount with the card) go onto
    the events they match. Returns the events, or the reason one statement is refused.
    """
    out = []
    for i, raw in enumerate(declared, 1):
        if not isinstance(raw, dict):
            return Said(Message("trainer.statement-not-event", "statement %(n)s: not an event", n=i))
        e = validate_event(raw if "seat" in raw else dict(raw, seat=prompt.you), len(prompt.seats), cards)
        if isinstance(e, EventError):
            return Said(Message("trainer.statement-refused", "statement %(n)s: %(problem)s", n=i, problem=str(e)))
        level = _level_of(e.get("discipline"))
        if level and "level" not in e and "level" in VOCABULARY[e["type"]][1]:
            e["level"] = level
        for fact in prompt.facts:
            if _matches(e, fact.match):
                e.update(fact.adds)   # the situation is what it is, whatever was said
        out.append(e)
    return out


def _level_of(discipline) -> str | None:
    """The level a validated discipline code (or list of codes) says, if one."""
    codes = discipline if isinstance(discipline, list) else [discipline] if discipline else []
    levels = {"superior" if c.isupper() else "inferior" for c in codes if isinstance(c, str)}
    return levels.pop() if len(levels) == 1 else None


def check_events(prompt: Prompt, events: list[dict[str, Any]], cards=None,
                 words: list[str] | None = None, advice: list[Advice] | None = None) -> Result:
    """Check the player's declaration (events as tapped or typed, before `situate`)."""
    advice = list(advice or [])
    valid = situate(prompt, events, cards)
    if isinstance(valid, str):
        return Result(False, words or [], events, advice, error=valid)
    transcript = list(prompt.before) + valid + list(prompt.after)
    first = len(prompt.before) + 1
    findings = engine.check(transcript, list(prompt.seats), cards=cards)
    numbered = {i: e for i, e in enumerate(transcript, 1)}
    for f in findings:
        if f["seq"] < first or f["severity"] in ("info", "warning"):
            continue
        url, rule = _cite(f)
        event = numbered.get(f["seq"], {})
        # The recorder's own line narrates the event it was found on; shown only when that
        # event is the learner's own (not, say, Bram's "No block" that the table says next).
        theirs = event.get("seat") not in (None, prompt.you)
        advice.append(Advice(f["code"], tip_for(f, event, prompt, cards),
                             detail="" if theirs else f["message"], url=url, seq=f["seq"], rule=rule))
    for goal in prompt.goals:
        if not any(_matches(e, goal.match) for e in valid):
            url, rule = goal.cite(prompt)
            advice.append(Advice("goal", goal.hint, url=url, rule=rule))
    ok = not advice
    return Result(ok, words or [], valid, advice, findings)


def _cite(finding: dict[str, Any]) -> tuple[str, str]:
    """The rules address a finding cites, and the name to show for it."""
    cite = finding.get("cite") or {}
    if cite.get("doc") == "announcements" and cite.get("section") in SECTIONS:
        return rules_url(cite["section"], cite.get("anchor")), SECTIONS[cite["section"]]
    if cite.get("doc"):
        return f"/rules/{cite['doc']}/{cite['section']}", f"section {cite['section']}"
    return "", ""


CHOICE_WORDS = {"discipline": N_("which discipline you use"), "level": N_("the level (inferior or superior)"),
                "x": N_("how much X is"), "target": N_("the target"), "amount": N_("the amount")}


def _and(items: list) -> Message:
    """`items` joined as "a and b and c", each join a message of its own."""
    if len(items) == 1:
        return items[0]
    return Message("trainer.and", "%(first)s and %(rest)s", first=items[0], rest=_and(items[1:]))


def _choice_words(event: dict[str, Any], cards) -> list[str]:
    if cards is None or not event.get("card"):
        return []
    lib = cards.library(event["card"])
    if lib is None:
        return []
    vampire = cards.crypt(event["minion"]) if event.get("minion") else None
    return [Message(CHOICE_WORDS[k]) for k in engine.missing_choices(lib, event, vampire)]


def _name(prompt: Prompt, seat) -> str:
    """The player at a seat, as the learner knows them ("Bram"); "" if none."""
    if isinstance(seat, int) and 1 <= seat <= len(prompt.seats):
        return prompt.seats[seat - 1]
    return ""


def _what_they_did(event: dict[str, Any]) -> Message | str:
    """What another player did, in the learner's words ("answered “No block”")."""
    kind = event.get("type", "")
    if kind == "block.pass":
        return Message("trainer.did-no-block", "answered “No block”")
    if kind.startswith("block"):
        return Message("trainer.did-block", "tried to block")
    if kind == "reaction":
        return Message("trainer.did-play", "played %(card)s", card=event["card"]) if event.get("card") else \
            Message("trainer.did-reaction", "played a reaction")
    if kind == "action.result":
        return Message("trainer.did-result", "took the result of the action")
    return ""


def tip_for(finding: dict[str, Any], event: dict[str, Any], prompt: Prompt, cards=None) -> str:
    """Plain advice for one finding, from the player's point of view (a `Said`; a finding
    the trainer has no advice for: the recorder's own message)."""
    tip = _tip(finding, event, prompt, cards)
    return Said(tip) if isinstance(tip, Message) else tip


def _tip(finding: dict[str, Any], event: dict[str, Any], prompt: Prompt, cards=None) -> Message | str:
    code = finding["code"]
    mine = finding.get("seat") == prompt.you
    card = event.get("card")
    if code == "action-pass-missing":
        other = _name(prompt, event.get("seat"))
        did = _what_they_did(event)
        if mine:
            if other and did:
                return Message("trainer.tip-pass-before", "You did not pass the action (“Any blocks?”) before "
                               "%(other)s %(did)s: once your action is announced, say “Any blocks?” and let the "
                               "others answer.", other=other, did=did)
            return Message("trainer.tip-pass", "You did not pass the action (“Any blocks?”): once your action is "
                           "announced, say “Any blocks?” before anyone answers.")
        actor = _name(prompt, finding.get("seat"))
        if not actor:
            return Message("trainer.tip-wait-pass-anyone", "Wait for the acting player to pass the action (“Any "
                           "blocks?”) before you answer.")
        return Message("trainer.tip-wait-pass", "Wait for %(actor)s to pass the action (“Any blocks?”) before you "
                       "answer.", actor=actor)
    if code == "block-pass-missing":
        if mine:
            return Message("trainer.tip-pass-on-the-block", "Pass on the block first: say “No block” before you play a reaction.")
        return Message("trainer.tip-wait-until-everyone-who", "Wait until everyone who may block has passed (“No block”) before the action "
                       "goes through.")
    if code == "block-out-of-order":
        return Message("trainer.tip-on-an-undirected-action", "On an undirected action the prey answers first: wait for the prey's “No block”.")
    if code == "bleed-amount-missing":
        return Message("trainer.tip-say-the-bleed-amount", "Say the bleed amount: “… bleeds you for 2”.")
    if code == "bleed-total-not-restated":
        return Message("trainer.tip-the-bleed-changed-say", "The bleed changed: say the new total (“the bleed is now 3”).")
    if code == "stealth-undeclared":
        return Message("trainer.tip-say-the-stealth-this", "Say the stealth: this action does not start at its standard stealth.")
    if code == "card-choice-missing":
        missing = _choice_words(event, cards)
        what = _and(missing) if missing else Message("trainer.every-choice", "every choice it asks for")
        if card:
            return Message("trainer.tip-name-choices", "Name %(what)s as you play %(card)s, before replacing it.",
                           what=what, card=card)
        return Message("trainer.tip-name-choices-card", "Name %(what)s as you play the card, before replacing it.",
                       what=what)
    if code == "replace-missing":
        if card:
            return Message("trainer.tip-replace", "Replace each card before the next one: draw for the previous "
                           "card before you play %(card)s.", card=card)
        return Message("trainer.tip-replace-another", "Replace each card before the next one: draw for the previous "
                       "card before you play another card.")
    if code == "discipline-unavailable":
        return Message("trainer.tip-that-minion-cannot-play", "That minion cannot play the card like this: check its disciplines and the level.")
    if code == "misrepresented":
        return Message("trainer.tip-say-the-real-numbers", "Say the real numbers: the declaration binds, but announcing it wrongly is a misplay.")
    if code == "vote-incomplete":
        return Message("trainer.tip-say-how-many-votes", "Say how many votes and which side: “3 votes against”.")
    if code == "vote-vampire-missing":
        return Message("trainer.tip-you-are-not-using", "You are not using all your votes: say which vampire votes (“Anneke votes 3 against”).")
    if code == "terms-unconfirmed":
        return Message("trainer.tip-confirm-the-terms-once", "Confirm the terms once the action succeeds, before the votes (“terms as announced”).")
    if code == "declaration-binding":
        return Message("trainer.tip-what-you-announced-stands", "What you announced stands: you cannot take it back.")
    if code in ("phase-passed", "interrupt-too-late", "cancel-too-late"):
        return Message("trainer.tip-too-late-that-window", "Too late: that window closed when the game moved on.")
    if code == "end-of-turn-missing":
        other = _name(prompt, event.get("seat")) if event.get("seat") != prompt.you else ""
        if other:
            return Message("trainer.tip-end-of-turn-before", "You did not say that your turn is over (“end of "
                           "turn”) before %(other)s started the next one: say it out loud.", other=other)
        return Message("trainer.tip-say-out-loud-that", "Say out loud that your turn is over (“end of turn”).")
    if code == "unsportsmanlike":
        return Message("trainer.tip-keep-the-talk-civil", "Keep the talk civil: no shouting, insults or threats.")
    if code == "discussion-after-stop":
        return Message("trainer.tip-after-the-last-question", "After the last question and answer, decide without more discussion.")
    return finding.get("message", "")
