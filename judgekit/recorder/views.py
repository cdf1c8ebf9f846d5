"""Web views of the recorder area (thin: parse, call the domain, render)."""
from flask import Blueprint

bp = Blueprint("recorder", __name__)
