"""The scorekeeper's pages behind the PIN: record the game, scan and fix a hand, history, furiten, panel."""

from __future__ import annotations

from flask import Blueprint, render_template

from web.auth import csrf_token, keeper_required

bp = Blueprint("keeper", __name__, url_prefix="/keeper")


def _page(template: str):
    return render_template(template, csrf=csrf_token())


@bp.get("")
@keeper_required
def home():
    return _page("keeper.html")


@bp.get("/history")
@keeper_required
def history():
    return _page("history.html")


@bp.get("/furiten")
@keeper_required
def furiten():
    return _page("furiten.html")


@bp.get("/panel")
@keeper_required
def panel():
    return _page("panel.html")
