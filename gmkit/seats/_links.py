"""A seat's link and its QR code: the players' page with the seat's key, for a phone to open.

The link is the players' page (``gmkit players`` writes where it serves into the seats file)
with ``?seat=<key>``; the QR code is drawn here as SVG (segno, pure Python: no network, no
image file), for the GM's screen.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit, urlunsplit

import segno

SEAT_PARAMETER = "seat"


def seat_link(players_url: str, key: str) -> str:
    """The players' page at ``players_url`` opened on the seat of ``key``."""
    parts = urlsplit(players_url)
    query = "&".join(p for p in (parts.query, urlencode({SEAT_PARAMETER: key})) if p)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, ""))


def qr_svg(text: str, *, scale: int = 3) -> str:
    """``text`` as a QR code, an inline SVG (dark on light, with its quiet zone)."""
    return str(segno.make(text, error="m").svg_inline(scale=scale, dark="#000", light="#fff"))


__all__ = ["SEAT_PARAMETER", "qr_svg", "seat_link"]
