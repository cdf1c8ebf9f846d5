"""Web views of the trainer area (thin: parse, call the domain, render).

Pages work without JavaScript (forms post and redirect); `static/trainer.js` enhances
them (answers without a reload, progress in localStorage, tap-to-say practice). JSON:
`POST /api/trainer/check` (practice), `POST /api/trainer/progress` (mastery per section).
"""
from __future__ import annotations

import random
import secrets
import threading
from pathlib import Path

from flask import (Blueprint, abort, current_app, flash, jsonify, redirect, render_template,
                   request, session, url_for)

from judgekit.errors import parse_int, worded
from judgekit.inputs import decode_json
from judgekit.trainer import practice as practice_mod
from judgekit.trainer import progress as progress_mod
from judgekit.trainer import session as plan_mod
from judgekit.trainer.scenarios import ANSWERS, SECTIONS
from judgekit.views import ApiError, json_body
from judgekit.game.cards import load_cards
from judgekit.views import _, catalog
from judgekit.i18n import Message

bp = Blueprint("trainer", __name__)

_lock = threading.Lock()
MAX_PROGRESS_FIELD = 200_000


def content() -> plan_mod.TrainerContent:
    """Scenarios, practice prompts and card facts, loaded once per app."""
    data = current_app.extensions.get("trainer")
    if data is None:
        with _lock:
            data = current_app.extensions.get("trainer")
            if data is None:
                root = Path(current_app.config["CONTENT_DIR"])
                data = plan_mod.load_content(root, load_cards(root))
                current_app.extensions["trainer"] = data
    return data


def _records(raw: str | None):
    if not raw or len(raw) > MAX_PROGRESS_FIELD:
        return []
    data, problem = decode_json(raw)  # the edge's checks: depth, numbers, text
    if problem is not None:
        return []
    return progress_mod.parse_records(data, content().catalog)


def _plan():
    plan = session.get("trainer")
    return plan if plan_mod.valid_plan(plan, content().catalog) else None


# --- pages ---------------------------------------------------------------------------------

@bp.get("/trainer")
def index():
    c = content()
    counts = c.catalog.counts()
    sections = [{"id": sec, "title": title, "count": counts[sec]} for sec, title in SECTIONS.items()]
    plan = _plan()
    running = plan is not None and plan_mod.position(plan) <= len(plan["ids"])
    return render_template("trainer/index.html", sections=sections, total=len(c.catalog),
                           prompts=c.prompts, running=running, session_size=progress_mod.SESSION_SIZE)


@bp.post("/trainer/session")
def start_session():
    c = content()
    section = request.form.get("section") or None
    if section is not None and section not in SECTIONS:
        raise ApiError(400, Message("trainer.there-no-such-section-guidelines", "There is no such section of the guidelines."), field="section")
    records = _records(request.form.get("progress"))
    ids = progress_mod.pick_session(c.catalog, records, seed=random.SystemRandom().randrange(2**32),
                                    section=section)
    session["trainer"] = plan_mod.new_plan(ids)
    return redirect(url_for("trainer.session_page"))


@bp.get("/trainer/session")
def session_page():
    c = content()
    plan = _plan()
    if plan is None:
        return redirect(url_for("trainer.index"))
    total = len(plan["ids"])
    shown = parse_int(request.args.get("r"))  # not int(): it takes "1_0"
    if shown is not None and str(shown) in plan["answers"] and 1 <= shown <= total:
        scenario = c.catalog.get(plan["ids"][shown - 1])
        return _question(scenario, plan["answers"][str(shown)], n=shown, total=total,
                         key=f"{plan['key']}-{shown}", session_mode=True)
    n = plan_mod.position(plan)
    if n > total:
        lines = plan_mod.lines(plan, c.catalog)
        return render_template("trainer/summary.html", lines=lines,
                               right=sum(line.right for line in lines), total=total)
    scenario = c.catalog.get(plan["ids"][n - 1])
    return _question(scenario, None, n=n, total=total, session_mode=True)


@bp.post("/trainer/session/answer")
def session_answer():
    c = content()
    plan = _plan()
    if plan is None:
        return redirect(url_for("trainer.index"))
    n = parse_int(request.form.get("n"), 0) or 0  # not int(): it takes "1_0"
    problem = plan_mod.record(plan, n, request.form.get("scenario", ""),
                              request.form.get("choice", ""), c.catalog)
    if problem:
        # an answer from another tab or an older session: back to the question this session
        # is at, with the reason on it (nothing recorded)
        flash(_("%(problem)s Here is your current question.", problem=_(problem)), "error")
        return redirect(url_for("trainer.session_page"), code=303)
    session["trainer"] = plan
    session.modified = True
    return redirect(url_for("trainer.session_page", r=n) + "#result")


@bp.get("/trainer/q/<scenario_id>")
def question(scenario_id: str):
    scenario = content().catalog.get(scenario_id)
    if scenario is None:
        abort(404)
    choice = request.args.get("answer")
    if choice is not None and choice not in scenario.choices:
        choice = None
    key = request.args.get("k", "")[:40] or None
    return _question(scenario, choice, key=key)


@bp.post("/trainer/q/<scenario_id>")
def question_answer(scenario_id: str):
    scenario = content().catalog.get(scenario_id)
    if scenario is None:
        abort(404)
    choice = request.form.get("choice", "")
    if choice not in scenario.choices:
        raise ApiError(400, Message("trainer.pick-one-answers-shown", "Pick one of the answers shown."), field="choice")
    return redirect(url_for("trainer.question", scenario_id=scenario_id, answer=choice,
                            k=secrets.token_hex(4)) + "#result")


def _question(scenario, choice, n=None, total=None, key=None, session_mode=False):
    c = content()
    section_ids = [s.id for s in c.catalog.in_section(scenario.section)]
    nxt = section_ids[(section_ids.index(scenario.id) + 1) % len(section_ids)]
    return render_template("trainer/question.html", s=scenario, choice=choice, answers=ANSWERS,
                           n=n, total=total, key=key, session_mode=session_mode,
                           next_in_section=nxt if nxt != scenario.id else None)


@bp.get("/trainer/practice")
def practice_list():
    return render_template("trainer/practice_list.html", prompts=content().prompts)


@bp.route("/trainer/practice/<prompt_id>", methods=["GET", "POST"])
def practice_page(prompt_id: str):
    c = content()
    prompt = c.prompt(prompt_id)
    if prompt is None:
        abort(404)
    said = [p for p in (request.form.get("said") or "").split(",") if prompt.phrase(p)]
    result = None
    line = (request.form.get("line") or "").strip()
    if request.method == "POST":
        action = request.form.get("do", "")
        if action.startswith("add:") and prompt.phrase(action[4:]):
            said.append(action[4:])
        elif action == "undo" and said:
            said.pop()
        elif action == "clear":
            said, line = [], ""
        elif action == "check":
            result = practice_mod.check(prompt, said, c.cards)
        elif action == "check-line" and line:
            result = practice_mod.check_line(prompt, line, c.cards)
    words = [prompt.phrase(p).text for p in said]
    return render_template("trainer/practice.html", prompt=prompt, said=said, words=words,
                           result=result, line=line, prompt_rule=SECTIONS[prompt.section],
                           typing=practice_mod.notation_parser() is not None)


# --- JSON -------------------------------------------------------------------------------------

@bp.post("/api/trainer/check")
def api_check():
    c = content()
    data = json_body()
    if not isinstance(data, dict):
        raise ApiError(400, Message("trainer.send-object-prompt-id-said", 'send an object: {"prompt": id, "said": [phrase ids]} or {"prompt", "line"}'))
    prompt = c.prompt(data.get("prompt") if isinstance(data.get("prompt"), str) else "")
    if prompt is None:
        raise ApiError(404, Message("trainer.no-such-practice-prompt", "no such practice prompt"), field="prompt")
    if "line" in data:
        line = data["line"]
        if not isinstance(line, str) or not line.strip() or len(line) > 2000:
            raise ApiError(400, Message("trainer.line-must-non-empty-string", "line must be a non-empty string (at most 2000 characters)"), field="line")
        result = practice_mod.check_line(prompt, line, c.cards)
    else:
        said = data.get("said")
        if not isinstance(said, list) or not all(isinstance(p, str) for p in said):
            raise ApiError(400, Message("trainer.said-must-list-phrase-ids", "said must be a list of phrase ids"), field="said")
        if len(said) > practice_mod.MAX_SAID:
            raise ApiError(400, Message("trainer.at-most-phrases", "at most %(MAX_SAID)s phrases", MAX_SAID=practice_mod.MAX_SAID), field="said")
        unknown = [p for p in said if prompt.phrase(p) is None]
        if unknown:
            raise ApiError(400, Message("trainer.unknown-phrase-id-s", "unknown phrase id(s): %(value)s", value=', '.join(unknown[:5])), field="said")
        result = practice_mod.check(prompt, said, c.cards)
    return jsonify(worded(result.to_dict(), catalog()))


@bp.post("/api/trainer/progress")
def api_progress():
    data = json_body()
    records = progress_mod.parse_records(data, content().catalog)
    out = progress_mod.overview(records, content().catalog)
    for s in out["sections"]:
        s["status_label"] = _(s["status_label"])
    return jsonify(out)
