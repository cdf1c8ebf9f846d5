"""Web views of the tournament area (thin: parse, call the domain, render)."""
from flask import Blueprint

bp = Blueprint("tournament", __name__)
