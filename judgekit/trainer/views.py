"""Web views of the trainer area (thin: parse, call the domain, render)."""
from flask import Blueprint

bp = Blueprint("trainer", __name__)
