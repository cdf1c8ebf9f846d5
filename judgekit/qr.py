"""QR codes as SVG, for links people scan at the venue (the check-in link; the seat
lookup's poster builds on it).

Made with segno (BSD licence, pure Python, no image library needed): SVG is sharp at any
size, prints well, and is served as an image from our own address, so the pages' content
security policy (`img-src 'self'`) allows it. Pure: text in, SVG text out.
"""
from __future__ import annotations

import io

import segno


def svg(text: str, *, title: str = "QR code", scale: int = 8, border: int = 3) -> str:
    """A standalone SVG document (black on white, error correction level M) encoding
    `text`, sized by its viewBox (the page sets its size): serve it as image/svg+xml."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=scale, border=border, dark="#000", light="#fff", xmldecl=False,
              title=title, svgclass="qr", lineclass=None, omitsize=True)
    return out.getvalue().decode("utf-8")


def placeholder(text: str) -> str:
    """A grey square with a short text, where a QR code will be (no link to encode yet)."""
    from html import escape
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 240" class="qr qr-none">'
            f'<title>{escape(text)}</title><rect width="240" height="240" fill="#eee"/>'
            '<text x="120" y="126" text-anchor="middle" font-family="sans-serif" font-size="18" fill="#555">'
            f'{escape(text)}</text></svg>')
