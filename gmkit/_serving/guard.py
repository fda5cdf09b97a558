"""The door of gmkit's Voila servers: which requests reach Voila at all.

Every handler Voila serves (pages, kernels' websockets and REST, static files, themes) is
wrapped by :func:`guarded`, whose ``prepare`` refuses, before the handler runs:

- a ``Host`` header that is not this machine under a local name (DNS rebinding: a web page
  of ``rebind.example`` whose name now points at 127.0.0.1). The GM's table answers only
  loopback addresses and ``localhost``; the players' view (on the LAN) any IP address, and
  ``localhost`` and this machine's own name: a name an attacker's DNS controls never.
- an ``Origin`` (websockets, POSTs) that is not the page's own site, ``null`` included.
- when the server has a token (``gmkit table``): a request without it, as ``?token=`` in the
  URL (which then sets an HttpOnly, SameSite=Strict cookie, as Jupyter Server does, so the
  page's websocket and assets follow, and a browser's navigation is sent again to the address
  without the key: it leaves the address bar and the history), ``Authorization: token ...``
  or that cookie. The cookie holds a value derived from the token for this server's port
  (:meth:`Access.cookie_value`), never the token: cookies ignore ports, so another server on
  this machine receives it. A request that leans on the cookie alone from another site's page
  (``Sec-Fetch-Site``: another port of this machine is the same site) is refused: a page
  elsewhere cannot make the GM's browser start the table's kernels.
- a key in the URL is taken out of the request first, so no log line holds it.

A refusal is a 403 page in the reader's language (Accept-Language), naming no path, kernel
or widget state. The guard's settings come from the environment variable ``GMKIT_SERVING``
(JSON, see :class:`Access`), read once and removed, so the token is neither on the command
line (which ``ps`` shows every local user) nor inherited by the kernels.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import json
import os
import socket
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal
from urllib.parse import parse_qsl, urlencode

import tornado.web
from tornado.httputil import HTTPServerRequest

from gmkit.messages import Message, render

SERVING_VARIABLE = "GMKIT_SERVING"
LOCAL_NAMES = ("localhost",)


@dataclass(frozen=True)
class Access:
    """Who may reach a server: ``token`` ("" for none), ``lan`` (any IP address and this
    machine's name as Host, else loopback only), ``cookie`` (the token cookie's name: one per
    port, as cookies ignore ports), ``path`` (the server's base path, "" for "/")."""

    token: str = ""
    lan: bool = False
    cookie: str = "gmkit-key"
    path: str = ""

    def cookie_value(self) -> str:
        """What the table's cookie holds: a value derived from the token for this server and
        its port (the cookie's name), never the token itself. Cookies ignore ports: another
        server on this machine's loopback receives it, and learns no key it could put in a
        URL or a header."""
        derived = hmac.new(self.token.encode(), f"gmkit-cookie:{self.cookie}".encode(), "sha256")
        return derived.hexdigest()

    def to_json(self) -> str:
        fields = {"token": self.token, "lan": self.lan, "cookie": self.cookie, "path": self.path}
        return json.dumps(fields)

    @classmethod
    def from_environment(cls) -> Access:
        """The settings ``GMKIT_SERVING`` holds (removed from the environment), or the
        defaults (no token, loopback only) when it is unset."""
        text = os.environ.pop(SERVING_VARIABLE, "")
        if not text:
            return cls()
        data = json.loads(text)
        return cls(str(data["token"]), bool(data["lan"]), str(data["cookie"]), str(data["path"]))


def host_name(host_header: str) -> str:
    """The name or address of a ``Host`` header, without its port or IPv6 brackets."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def host_allowed(host_header: str, *, lan: bool) -> bool:
    """Whether a request's ``Host`` names this machine: a loopback address or ``localhost``;
    with ``lan`` also any IP address (no DNS name, so nothing to rebind) and this machine's
    own host name."""
    name = host_name(host_header)
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        names = set(LOCAL_NAMES)
        if lan:
            own = socket.gethostname().lower()
            names |= {own, f"{own}.local", own.partition(".")[0] + ".local"}
        return name in names
    return lan or address.is_loopback


def origin_allowed(request: HTTPServerRequest) -> bool:
    """Whether the request comes from no page (a script) or from a page of this very site."""
    origin = request.headers.get("Origin") or request.headers.get("Sec-Websocket-Origin")
    if origin is None:
        return True
    scheme, _, rest = origin.strip().lower().partition("://")
    return scheme in ("http", "https") and rest.rstrip("/") == request.host.lower()


Given = Literal["url", "header", "cookie", ""]
"""Where a request's key came from ("": nowhere)."""

OTHER_SITES = ("same-site", "cross-site")
"""``Sec-Fetch-Site`` values of a request another site's page made (another port of this
machine's loopback is the same site: cookies ignore ports)."""


def given_token(request: HTTPServerRequest, cookie: str) -> tuple[str, Given]:
    """The key a request carries, and where: in the URL (then a cookie is set), an
    ``Authorization`` header, or the cookie (a value derived from the key)."""
    in_url = request.query_arguments.get("token")
    if in_url:
        return in_url[-1].decode("utf-8", "replace"), "url"
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() in ("token", "bearer") and value:
        return value.strip(), "header"
    morsel = request.cookies.get(cookie)
    return (morsel.value, "cookie") if morsel is not None else ("", "")


def forget_token(request: HTTPServerRequest) -> None:
    """Take the token out of the request's query: Voila hands the query to the page's kernel
    (``QUERY_STRING``), which needs no key."""
    request.query_arguments.pop("token", None)
    request.arguments.pop("token", None)
    kept = [(name, value) for name, value in parse_qsl(request.query, True) if name != "token"]
    request.query = urlencode(kept)
    request.uri = request.path + (f"?{request.query}" if request.query else "")


def page_language(request: HTTPServerRequest) -> str:
    """``es`` when the browser prefers Spanish to English, else ``en``."""
    for part in request.headers.get("Accept-Language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith("es"):
            return "es"
        if tag.startswith("en"):
            return "en"
    return "en"


def message_page(title: Message, body: Message, language: str) -> str:
    """A small self-contained HTML page: a title and a sentence, nothing loaded from anywhere."""
    heading, text = html.escape(render(title, language)), html.escape(render(body, language))
    return (
        f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{heading}</title></head>"
        '<body style="font-family: sans-serif; margin: 3em auto; max-width: 36em; '
        'padding: 0 1em; background: #111; color: #eee">'
        f'<h1 class="gmkit-refused">{heading}</h1><p>{text}</p></body></html>\n'
    )


class Guard:
    """The checks of one server, applied by every handler :func:`guarded` makes."""

    def __init__(self, access: Access) -> None:
        self.access = access

    def refusal(self, handler: tornado.web.RequestHandler) -> tuple[Message, Message] | None:
        """Why ``handler``'s request is refused (a page's title and text), or None; a token
        given in the URL sets the cookie that lets the page's own requests follow."""
        request = handler.request
        token, given = given_token(request, self.access.cookie)
        if given == "url":
            forget_token(request)  # from here on (a log line, a refusal) the URL holds no key
        if not host_allowed(request.host, lan=self.access.lan) or not origin_allowed(request):
            return Message("serving.refused.title"), Message("serving.refused.body")
        if not self.access.token:
            return None
        expected = self.access.cookie_value() if given == "cookie" else self.access.token
        if not given or not hmac.compare_digest(token.encode(), expected.encode()):
            return Message("serving.locked.title"), Message("serving.locked.body")
        if given == "cookie" and request.headers.get("Sec-Fetch-Site") in OTHER_SITES:
            # another page of this machine (another port is the same site) leaning on the
            # GM's cookie: it starts no kernel and reads nothing (the GM's link carries the key)
            return Message("serving.locked.title"), Message("serving.locked.body")
        if given == "url":
            path = self.access.path or "/"
            handler.set_cookie(
                self.access.cookie,
                self.access.cookie_value(),
                httponly=True,
                samesite="Strict",
                path=path,
            )
            navigating = request.headers.get("Sec-Fetch-Mode") == "navigate"
            if request.method == "GET" and navigating and "Upgrade" not in request.headers:
                handler.redirect(request.uri)  # the address bar drops the key; the cookie stays
                raise tornado.web.Finish()
        return None


def refuse(handler: tornado.web.RequestHandler, status: int, title: Message, body: Message) -> None:
    """End ``handler``'s request now with ``status`` and a page saying why."""
    handler.clear()
    handler.set_status(status)
    handler.set_header("Content-Type", "text/html; charset=utf-8")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(message_page(title, body, page_language(handler.request)))
    raise tornado.web.Finish()


class GuardMixin:
    """Put before a tornado handler class: its requests pass the guard first."""

    gmkit_guard: ClassVar[Guard]

    async def prepare(self) -> None:
        handler: Any = self
        reason = self.gmkit_guard.refusal(handler)
        if reason is not None:
            refuse(handler, 403, *reason)
        result: Awaitable[None] | None = super().prepare()  # type: ignore[misc]
        if result is not None:
            await result


def guarded(handler: type[Any], guard: Guard, *mixins: type[Any]) -> type[Any]:
    """``handler`` behind ``guard`` (and ``mixins``, before it)."""
    return type(handler.__name__, (*mixins, GuardMixin, handler), {"gmkit_guard": guard})
