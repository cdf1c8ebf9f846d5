"""A trainer session of questions: the content the trainer serves, and the plan of one
session (which questions, which answers so far) as plain data.

The web layer keeps the plan in the signed session cookie; these functions only read and
change a dict `{"ids": [...], "answers": {"1": "correct", ...}, "key": "..."}`.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgekit.i18n import Message
from judgekit.trainer.practice import Prompt, load_prompts
from judgekit.trainer.scenarios import Catalog, Scenario, load_scenarios


@dataclass
class TrainerContent:
    catalog: Catalog
    prompts: list[Prompt]
    cards: Any

    def prompt(self, prompt_id: str) -> Prompt | None:
        return next((p for p in self.prompts if p.id == prompt_id), None)


def load_content(content_dir: Path, cards) -> TrainerContent:
    folder = Path(content_dir) / "trainer"
    return TrainerContent(load_scenarios(folder, cards), load_prompts(folder / "practice", cards),
                          cards)


def new_plan(ids: list[str]) -> dict[str, Any]:
    return {"ids": list(ids), "answers": {}, "key": secrets.token_hex(4)}


def valid_plan(plan: Any, catalog: Catalog) -> bool:
    return (isinstance(plan, dict) and isinstance(plan.get("ids"), list) and plan["ids"]
            and all(isinstance(i, str) and catalog.get(i) for i in plan["ids"])
            and isinstance(plan.get("answers"), dict))


def position(plan: dict[str, Any]) -> int:
    """The number (1-based) of the first unanswered question; len+1 when all are done."""
    for n in range(1, len(plan["ids"]) + 1):
        if str(n) not in plan["answers"]:
            return n
    return len(plan["ids"]) + 1


def record(plan: dict[str, Any], n: int, scenario_id: str, choice: str, catalog: Catalog) -> Message | None:
    """Store the answer to question `n`; return why it cannot be stored, or None."""
    if not 1 <= n <= len(plan["ids"]) or plan["ids"][n - 1] != scenario_id:
        return Message("trainer.not-in-session", "This question is not part of your current session.")
    scenario = catalog.get(scenario_id)
    if choice not in scenario.choices:
        return Message("trainer.pick-one-answers-shown", "Pick one of the answers shown.")
    if str(n) in plan["answers"]:
        return None  # already answered (a repeated post): the first answer stands
    if n != position(plan):
        return Message("trainer.answer-in-order", "Answer the questions in order.")
    plan["answers"][str(n)] = choice
    return None


@dataclass
class Line:
    n: int
    scenario: Scenario
    choice: str | None

    @property
    def right(self) -> bool:
        return self.choice == self.scenario.answer


def lines(plan: dict[str, Any], catalog: Catalog) -> list[Line]:
    return [Line(n, catalog.get(sid), plan["answers"].get(str(n)))
            for n, sid in enumerate(plan["ids"], 1)]
