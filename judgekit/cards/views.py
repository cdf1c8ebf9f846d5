"""Card pages: `/cards` (find a card by name, the card groups), `/cards/<id>` (text, facts,
rulings with their sources, groups, where the guidelines and the trainer use it),
`/cards/<name>` (redirects to the card's id), `/cards/groups/<group id>`.

Thin: the catalog (`judgekit.cards.catalog`) has the data, `markup` renders it.
"""
from __future__ import annotations

import threading

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from judgekit.cards import markup
from judgekit.cards.catalog import ATTRIBUTION_RULINGS, ATTRIBUTION_TEXT
from judgekit.cards.mentions import linked_html
from judgekit.cards.service import CardsService
from judgekit.views import rules

bp = Blueprint("cards", __name__)
_lock = threading.Lock()


def cards() -> CardsService:
    """The app's cards service (made on first use: the card files are read when needed)."""
    svc = current_app.extensions.get("cards")
    if svc is None:
        with _lock:
            svc = current_app.extensions.get("cards")
            if svc is None:
                svc = current_app.extensions["cards"] = CardsService(
                    current_app.config["CONTENT_DIR"], rules().corpus)
    return svc


def _card_link(catalog):
    def link(card_id: int, name: str) -> str | None:
        return url_for("cards.card", address=str(card_id)) if catalog.get(card_id) else None
    return link


@bp.app_template_filter("card_links")
def card_links(text: str, skip=()) -> Markup:
    """Template filter: plain text with every card it names linked to the card's page
    (`skip`: players' names, never cards). Without the card files, the text as it is."""
    try:
        catalog = cards().catalog
    except (OSError, ValueError):
        current_app.logger.warning("card files missing: card names are not linked")
        return Markup.escape(text)
    return Markup(linked_html(text or "", catalog, skip))


def _shown(text: str, limit: int = 80) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[:limit] + "…"


@bp.get("/cards")
@bp.get("/cards/")
def index():
    svc = cards()
    catalog = svc.catalog
    name = request.args.get("name", "")
    if name.strip():
        card, near = svc.lookup(name)
        if card is not None:
            return redirect(url_for("cards.card", address=str(card.id)))
        return _not_found(name, near)
    groups = sorted(catalog.groups.values(), key=lambda g: g.name.lower())
    return render_template("cards/index.html", catalog=catalog, groups=groups,
                           attribution=(ATTRIBUTION_TEXT, ATTRIBUTION_RULINGS))


@bp.get("/cards/groups/<group_id>")
def group(group_id: str):
    catalog = cards().catalog
    g = catalog.groups.get(group_id.upper())
    if g is None:
        return render_template("error.html", status=404, title="No such card group",
                               message=f"There is no card group “{_shown(group_id)}”."), 404
    if g.id != group_id:
        return redirect(url_for("cards.group", group_id=g.id))
    link = _card_link(catalog)
    members = [(catalog.get(cid), prefix) for cid, prefix in g.members if catalog.get(cid)]
    return render_template("cards/group.html", g=g, members=members, catalog=catalog,
                           rulings=catalog.group_rulings(g), html=lambda t: markup.to_html(t, link),
                           attribution=(ATTRIBUTION_TEXT, ATTRIBUTION_RULINGS))


@bp.get("/cards/<path:address>")
def card(address: str):
    svc = cards()
    found, near = svc.lookup(address)
    if found is None:
        return _not_found(address, near)
    if address != str(found.id):   # a name, or an id written another way: the canonical address
        return redirect(url_for("cards.card", address=str(found.id)))
    catalog = svc.catalog
    link = _card_link(catalog)
    return render_template(
        "cards/card.html", card=found, facts=found.facts, rulings=catalog.rulings(found),
        versions=catalog.versions(found), mentions=svc.mentions(found), catalog=catalog,
        html=lambda t: markup.to_html(t, link), mark=markup.discipline_mark,
        group_sizes={g.id: len(g.members) for g, _ in found.groups},
        attribution=(ATTRIBUTION_TEXT, ATTRIBUTION_RULINGS))


def _not_found(address: str, near):
    shown = _shown(address)
    message = (f"There is no card with the id {shown}." if address.strip().isdigit()
               else f"There is no card called “{shown}”.")
    return render_template("cards/not_found.html", status=404, title="No such card",
                           message=message, near=near), 404
