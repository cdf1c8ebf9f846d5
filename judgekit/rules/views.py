"""Pages and API of the rules reference."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from judgekit.errors import AppError
from judgekit.rules import history as history_mod
from judgekit.rules import nearby
from judgekit.rules.entries import SOURCE_TITLES
from judgekit.rules.hits import runs_by_doc
from judgekit.rules.search_api import search_args
from judgekit.views import ApiError, rules
from judgekit.rules import quickref

bp = Blueprint("rules", __name__)


@bp.get("/")
def home():
    svc = rules()
    return render_template("rules/home.html", documents=svc.corpus.current, source_titles=SOURCE_TITLES)


@bp.get("/api/search")
def api_search():
    """Answered here when `search_api.SearchFastPath` passes a request on: bad arguments,
    a refused query, a failure — or a plain search when the fast path is off."""
    args = search_args(request.args.get)
    if isinstance(args, AppError):
        raise args
    try:
        body = rules().search_json(*args)
    except ValueError as exc:
        raise ApiError(400, str(exc), field="q")
    return current_app.response_class(body, mimetype="application/json")


@bp.get("/search")
def search_page():
    q = request.args.get("q", "")
    svc = rules()
    error = None
    groups: list[tuple] = []
    took = None
    status = 200
    payload = None
    if q.strip():
        try:
            payload = svc.search_payload(q, limit=25)
        except ValueError as exc:
            error, status = str(exc), 400
        else:
            took = payload["took_ms"]
            groups = [(svc.corpus.get(d).title if svc.corpus.get(d) else SOURCE_TITLES.get(d, d), rs)
                      for d, rs in runs_by_doc(payload["results"])]
    return render_template("rules/search.html", q=q, groups=groups, error=error, took=took,
                           answer=payload, documents=svc.corpus.current), status


@bp.get("/rules/")
@bp.get("/rules")
def index():
    return redirect(url_for("rules.home"))


@bp.get("/rules/<doc_id>")
def document(doc_id: str):
    svc = rules()
    doc = svc.corpus.get(doc_id)
    if doc is None:
        return _not_found(doc_id, None)
    sections = [doc.sections[s] for s in doc.sections]
    return render_template("rules/document.html", doc=doc, top=doc.top, full=True,
                           sections=sections, **_doc_context(doc))


@bp.get("/rules/<doc_id>/<path:section_id>")
def section(doc_id: str, section_id: str):
    svc = rules()
    doc = svc.corpus.get(doc_id)
    if doc is None:
        return _not_found(doc_id, section_id)
    wanted = section_id.strip().rstrip("./")
    if wanted == "intro":
        return redirect(url_for("rules.document", doc_id=doc_id) + "#intro")
    sec = doc.section(wanted) or doc.section(wanted.upper())
    if sec is None:
        return _not_found(doc_id, wanted)
    if sec.id != section_id:  # "3.7.2." or "a.2.1": send the reader to the canonical address
        return redirect(url_for("rules.section", doc_id=doc_id, section_id=sec.id))
    return render_template("rules/section.html", doc=doc, sec=sec,
                           crumbs=doc.ancestors(sec.id),
                           prev=doc.section(sec.prev) if sec.prev else None,
                           next=doc.section(sec.next) if sec.next else None,
                           **_doc_context(doc))


def _doc_context(doc):
    svc = rules()
    return {
        "render": svc.renderer,
        "changes": history_mod.ChangeFinder(svc.corpus),
        "editions": svc.corpus.editions_of(doc.history_of or doc.id),
        "current_doc": svc.corpus.get(doc.history_of) if doc.is_history else doc,
    }


def _not_found(doc_id: str, section_id: str | None):
    svc = rules()
    suggestions = nearby.suggest(svc.corpus, svc.index, doc_id, section_id)
    if section_id is None or svc.corpus.get(doc_id) is None:
        message = f"There is no rules document called “{doc_id}”."
    else:
        message = f"There is no section “{section_id}” in {svc.corpus.get(doc_id).title}."
    if request.path.startswith("/api/"):
        raise ApiError(404, message)
    return render_template("error.html", status=404, title="No such section", message=message,
                           suggestions=suggestions), 404


@bp.get("/history")
def history_page():
    svc = rules()
    reports = history_mod.edition_reports(svc.corpus)
    return render_template("rules/history.html", reports=reports)


@bp.get("/reference")
def reference():
    svc = rules()
    return render_template("rules/reference.html", ref=quickref.build(svc.corpus), render=svc.renderer)
