#!/usr/bin/env python3
"""Draw judgekit's app icons as PNG files (standard library only: zlib + struct).

A cream drop with a check mark on the app's dark red, anti-aliased from signed distances:

    python tools/make_icons.py            # writes judgekit/static/icons/*.png

- icon-192.png, icon-512.png: rounded square, transparent corners (manifest, "any");
- icon-maskable-512.png: full-bleed square, drawing inside the 80 % safe circle;
- apple-touch-icon.png (180): opaque square (iOS adds its own rounding).
"""
from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "judgekit" / "static" / "icons"

RED = (0x7a, 0x1f, 0x1f)
CREAM = (0xfb, 0xee, 0xe6)

# the drop: a circle and the two tangents from its tip (unit square, y down)
TIP = (0.5, 0.13)
CENTER = (0.5, 0.60)
RADIUS = 0.26
CHECK = [(0.385, 0.605), (0.465, 0.69), (0.625, 0.505)]
CHECK_HALF_WIDTH = 0.034


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


def _seg_dist(p, a, b) -> float:
    ab, ap = _sub(b, a), _sub(p, a)
    t = max(0.0, min(1.0, _dot(ap, ab) / _dot(ab, ab)))
    return math.hypot(ap[0] - t * ab[0], ap[1] - t * ab[1])


def _tangent_points():
    dx, dy = _sub(CENTER, TIP)
    d = math.hypot(dx, dy)
    alpha = math.asin(RADIUS / d)            # half-angle of the cone at the tip
    length = math.sqrt(d * d - RADIUS * RADIUS)
    base = math.atan2(dy, dx)
    return [(TIP[0] + length * math.cos(base + s * alpha), TIP[1] + length * math.sin(base + s * alpha))
            for s in (-1, 1)]


TANGENTS = _tangent_points()


def _in_triangle(p, a, b, c) -> bool:
    def side(u, v, w):
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    s1, s2, s3 = side(a, b, p), side(b, c, p), side(c, a, p)
    return (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0)


def drop_sdf(p) -> float:
    """Signed distance to the drop's outline (negative inside)."""
    t1, t2 = TANGENTS
    rel = _sub(p, CENTER)
    dist_c = math.hypot(*rel)
    # the arc is the part of the circle below the tangent points
    on_arc = rel[1] >= (t1[1] - CENTER[1]) - 1e-9
    d = min(_seg_dist(p, TIP, t1), _seg_dist(p, TIP, t2),
            abs(dist_c - RADIUS) if on_arc else float("inf"))
    inside = dist_c <= RADIUS or _in_triangle(p, TIP, t1, t2)
    return -d if inside else d


def check_sdf(p) -> float:
    return min(_seg_dist(p, a, b) for a, b in zip(CHECK, CHECK[1:])) - CHECK_HALF_WIDTH


def rounded_square_sdf(p, radius: float) -> float:
    qx = abs(p[0] - 0.5) - (0.5 - radius)
    qy = abs(p[1] - 0.5) - (0.5 - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def coverage(sdf_units: float, size: int) -> float:
    """Anti-aliased coverage of a pixel whose centre is `sdf_units` from the edge."""
    return max(0.0, min(1.0, 0.5 - sdf_units * size))


def render(size: int, corner: float | None, scale: float) -> bytes:
    """RGBA rows with a filter byte each. `corner`: rounding radius, None for full bleed."""
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            u, v = (x + 0.5) / size, (y + 0.5) / size
            bg = 1.0 if corner is None else coverage(rounded_square_sdf((u, v), corner), size)
            # the drawing, shrunk around the centre by `scale`
            q = (0.5 + (u - 0.5) / scale, 0.5 + (v - 0.5) / scale)
            drop = coverage(drop_sdf(q) * scale, size)
            tick = coverage(check_sdf(q) * scale, size) * drop
            color = [RED[i] * (1 - drop) + CREAM[i] * drop for i in range(3)]
            color = [color[i] * (1 - tick) + RED[i] * tick for i in range(3)]
            rows += bytes(round(c) for c in color) + bytes([round(255 * bg)])
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)   # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rgba_rows, 9)) + chunk(b"IEND", b""))


ICONS = {
    "icon-192.png": (192, 0.2, 1.0),
    "icon-512.png": (512, 0.2, 1.0),
    "icon-maskable-512.png": (512, None, 0.78),
    "apple-touch-icon.png": (180, None, 0.9),
}


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (size, corner, scale) in ICONS.items():
        path = out / name
        path.write_bytes(png(size, render(size, corner, scale)))
        print(f"{path} ({size}x{size})")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
