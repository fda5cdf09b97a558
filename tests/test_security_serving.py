"""Issue 13, item 1: who reaches the servers. Each test is an attack, probed as another user
of the machine (no token), a web page through DNS rebinding (``Host: rebind.example``) or
another site (``Origin``), or a scanner on the LAN (the players' view's paths); before gmkit
guarded its servers every one of them was answered (see the report of issue 13)."""

from __future__ import annotations

import os
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest
from serving_probe import KernelClient, kernel_id_of
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from gmkit._cli import lan_address
from gmkit._launch import access_url, open_in_browser, players_access, table_access
from gmkit._serving.guard import Access, host_allowed, host_name, page_language

pytestmark = pytest.mark.server
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the 302 itself is the answer looked at


NO_REDIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())
HIDDEN = "Demagogue Ostrava"  # the table's hidden combatant (the demo's Dark Heresy fight)


def fetch(url: str, **headers: str) -> tuple[int, str, dict[str, str]]:
    """Status, body and headers of a GET (an error status is an answer too)."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with DIRECT.open(request, timeout=60) as response:
            return response.status, response.read().decode(errors="replace"), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace"), dict(error.headers)


def channels(server_origin: str, base: str, kernel_id: str) -> str:
    return f"ws{server_origin[4:]}{base}api/kernels/{kernel_id}/channels"


def websocket_status(url: str, **headers: str) -> int:
    """101 when the websocket opens, else the HTTP status the server refused it with."""
    origin = headers.pop("Origin", None)
    try:
        with connect(url, origin=origin, additional_headers=headers, proxy=None, open_timeout=30):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


# --- the GM's table: a token per launch -------------------------------------------------------


def test_the_table_prints_a_url_with_a_new_random_token(table_server):
    server, page = table_server
    found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{48})", server.url)
    assert found, server.url
    assert "application/vnd.jupyter.widget-view+json" in page  # with the token: the GM's page
    assert table_access(8866).token != table_access(8866).token  # new at each launch


def test_another_local_user_without_the_token_gets_no_page_no_widget_state(table_server):
    server, _ = table_server
    for path in ("", "?token=0123", "voila/static/voila.js", "voila/api/themes/x", "favicon.ico"):
        status, body, _ = fetch(f"{server.origin}/{path}")
        assert status == 403, (path, status)
        assert HIDDEN not in body
        assert "widget" not in body
        assert "table is locked" in body


def test_without_the_token_a_kernel_is_neither_listed_nor_reached(table_server):
    """The attack: the kernel of the GM's page (its id read from anywhere) is asked for its
    state and its websocket opened, to read every widget and click Next."""
    server, page = table_server
    kernel = kernel_id_of(page)
    status, body, _ = fetch(f"{server.origin}/api/kernels/{kernel}")
    assert status == 403
    assert kernel not in body
    assert websocket_status(channels(server.origin, "/", kernel)) == 403
    assert websocket_status(channels(server.origin, "/", kernel) + "?token=0123") == 403
    # with the token (the GM's page does it with its cookie) the same kernel answers
    token = server.url.partition("token=")[2]
    with_token = channels(server.origin, "/", kernel) + f"?token={token}"
    with KernelClient(with_token) as client:
        assert client.kernel_info_seconds() < 60  # answered


def test_the_token_in_the_url_sets_a_strict_httponly_cookie_the_page_follows_with(table_server):
    server, _ = table_server
    status, _, headers = fetch(server.at("voila/static/voila.js"))
    assert status == 200
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    value = cookie.split(";")[0]
    token = server.url.partition("token=")[2]
    name, _, held = value.partition("=")
    port = int(server.origin.rpartition(":")[2])
    assert held == Access(token=token, cookie=f"gmkit-table-{port}").cookie_value()
    assert token not in cookie  # a value derived for this port, never the key itself
    assert fetch(f"{server.origin}/voila/static/voila.js", Cookie=value)[0] == 200
    assert fetch(f"{server.origin}/voila/static/voila.js", Cookie=f"{name}={token}")[0] == 403
    assert fetch(f"{server.origin}/", Authorization=f"token {token}")[0] == 200


def test_a_navigation_with_the_key_is_sent_on_without_it(table_server):
    """The address bar (and the history) drops ``?token=`` once the cookie is set."""
    server, _ = table_server
    request = urllib.request.Request(server.url, headers={"Sec-Fetch-Mode": "navigate"})
    with pytest.raises(urllib.error.HTTPError) as answered:
        NO_REDIRECT.open(request, timeout=60)
    assert answered.value.code == 302
    assert answered.value.headers["Location"] == "/"
    assert "HttpOnly" in answered.value.headers["Set-Cookie"]


def test_another_local_page_cannot_lean_on_the_gms_cookie(table_server):
    """A page on another port of 127.0.0.1 (the same site for a browser) makes the GM's
    browser ask for the table with its cookie: refused, and no kernel is started for it."""
    server, _ = table_server
    token = server.url.partition("token=")[2]
    port = int(server.origin.rpartition(":")[2])
    cookie = (
        f"gmkit-table-{port}=" + Access(token=token, cookie=f"gmkit-table-{port}").cookie_value()
    )
    kernels = f"{server.origin}/api/kernels"
    before = fetch(kernels, Authorization=f"token {token}")[1]
    for site in ("same-site", "cross-site"):
        status, body, _ = fetch(f"{server.origin}/", Cookie=cookie, **{"Sec-Fetch-Site": site})
        assert status == 403, site
        assert HIDDEN not in body
    assert fetch(kernels, Authorization=f"token {token}")[1] == before
    assert (
        fetch(
            f"{server.origin}/voila/static/voila.js",
            Cookie=cookie,
            **{"Sec-Fetch-Site": "same-origin"},
        )[0]
        == 200
    )


def test_no_log_line_holds_the_key_even_of_a_refused_request(table_server):
    server, _ = table_server
    token = server.url.partition("token=")[2]
    port = server.origin.rpartition(":")[2]
    assert fetch(server.url, Host=f"rebind.example:{port}")[0] == 403  # refused, key in hand
    assert fetch(f"{server.origin}/nowhere?token={token}")[0] in (403, 404)  # no such page
    assert fetch(f"{server.origin}/?token=0123&x=1")[0] == 403
    log = server.output()
    assert "403 GET /" in log  # the refusals are logged...
    holding = [line for line in log.splitlines() if token in line]
    assert holding == [f"gmkit table: serving {server.url}"]  # ...without the key: only the
    # GM's own link, printed once to the GM's terminal, holds it


def test_a_rebound_host_is_refused_even_with_the_token(table_server):
    """DNS rebinding: a web page of rebind.example whose name now resolves to 127.0.0.1 sends
    its requests here with ``Host: rebind.example``."""
    server, _ = table_server
    port = server.origin.rpartition(":")[2]
    for host in ("rebind.example", f"rebind.example:{port}", f"192.168.1.20:{port}"):
        status, body, _ = fetch(server.url, Host=host)
        assert status == 403, host
        assert HIDDEN not in body
        assert "Not served at this address" in body
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert fetch(server.at("voila/static/voila.js"), Host=host)[0] == 200, host


def test_a_websocket_from_another_site_is_refused(table_server):
    server, page = table_server
    kernel = kernel_id_of(page)
    token = server.url.partition("token=")[2]
    url = channels(server.origin, "/", kernel) + f"?token={token}"
    assert websocket_status(url, Origin="http://evil.example") == 403
    assert websocket_status(url, Origin="null") == 403
    assert websocket_status(url, Origin=server.origin) == 101


def test_the_refusal_speaks_spanish_to_a_spanish_browser(table_server):
    server, _ = table_server
    status, body, _ = fetch(f"{server.origin}/", **{"Accept-Language": "es-ES,es;q=0.9"})
    assert status == 403
    assert "La mesa del DJ está cerrada" in body
    assert "locked" not in body


def test_the_token_is_on_no_command_line_and_in_no_kernel(table_server):
    """``ps`` shows every local user each process's command line; the environment of a
    process only its own user. The kernels do not inherit the token either."""
    server, _ = table_server
    token = server.url.partition("token=")[2]
    group = [psutil.Process(server.process.pid), *psutil.Process(server.process.pid).children(True)]
    assert len(group) >= 3  # gmkit, Voila, a kernel at least
    for process in group:
        assert token not in " ".join(process.cmdline())
    kernels = [p for p in group if "ipykernel_launcher" in " ".join(p.cmdline())]
    assert kernels
    for kernel in kernels:
        environment = Path(f"/proc/{kernel.pid}/environ").read_bytes()
        assert token.encode() not in environment
        assert b"GMKIT_SERVING" not in environment


# --- the players' view: its own random path, only the projection ------------------------------


def fresh_page(server) -> str:
    """A players' page loaded now. The session's first page was never connected (fetched, its
    script not run), so the server rightly culls its kernel 10 minutes on: a test that needs a
    live kernel loads its own page."""
    status, page, _ = fetch(server.url)
    assert status == 200
    return page


def test_players_serve_only_under_their_random_path(players_server):
    server, page = players_server
    found = re.fullmatch(r"http://127\.0\.0\.1:\d+/([a-z2-9]{10})/", server.url)
    assert found, server.url
    assert "application/vnd.jupyter.widget-view+json" in page
    for path in ("", "voila/static/voila.js", "api/kernels", "players.ipynb", "tree"):
        status, body, _ = fetch(f"{server.origin}/{path}")
        assert status == 404, (path, status)
        assert "widget" not in body
    assert players_access().path != players_access().path


def test_players_serve_nothing_but_the_projection(players_server):
    """No listing of kernels, no tree, no other notebook, no file of the notebooks' folder."""
    server, _ = players_server
    kernel = kernel_id_of(fresh_page(server))
    for path in (
        "api/kernels",
        "api/sessions",
        "api/contents",
        "voila/tree",
        "voila/render/table.ipynb",
        "table.ipynb",
        "voila/files/table.ipynb",
        "voila/files/players.ipynb",
        "voila/files/acolytes.csv",
        "voila/api/contents",
    ):
        status, body, _ = fetch(server.at(path))
        assert status in (403, 404, 405), (path, status)
        assert kernel not in body, path
        assert "open_campaign" not in body, path
    assert fetch(server.at(f"api/kernels/{kernel}"))[0] == 200  # its own kernel, by its id


def test_players_answer_a_lan_address_but_not_a_rebound_name(players_server):
    server, _ = players_server
    port = server.origin.rpartition(":")[2]
    for host in ("rebind.example", f"rebind.example:{port}"):
        assert fetch(server.url, Host=host)[0] == 403, host
    for host in (f"192.168.1.20:{port}", f"10.0.0.7:{port}", f"localhost:{port}"):
        assert fetch(server.at("voila/static/voila.js"), Host=host)[0] == 200, host
    assert fetch(server.url, Host=f"{socket.gethostname()}:{port}")[0] == 200
    lan = lan_address()
    if lan:  # the URL it prints for the LAN, reached through that address
        printed = re.search(r"on the local network: (\S+)", server.output())
        assert printed, server.output()
        assert printed.group(1) == server.url.replace("127.0.0.1", lan)
        status, body, _ = fetch(printed.group(1))
        assert status == 200
        assert "application/vnd.jupyter.widget-view+json" in body


def test_a_players_websocket_from_another_site_is_refused(players_server):
    server, _ = players_server
    kernel = kernel_id_of(fresh_page(server))
    path = server.url.partition(server.origin)[2]
    url = channels(server.origin, path, kernel)
    assert websocket_status(url, Origin="http://evil.example") == 403
    assert websocket_status(url, Origin=server.origin) == 101


# --- the pieces, without a server -------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "lan", "allowed"),
    [
        ("127.0.0.1:8866", False, True),
        ("localhost:8866", False, True),
        ("LOCALHOST.", False, True),
        ("[::1]:8866", False, True),
        ("127.8.9.1", False, True),
        ("rebind.example", False, False),
        ("rebind.example:8866", False, False),
        ("localhost.rebind.example", False, False),
        ("192.168.1.20:8866", False, False),
        ("", False, False),
        ("192.168.1.20:8867", True, True),
        ("[fe80::1]:8867", True, True),
        ("rebind.example:8867", True, False),
        (f"{socket.gethostname()}:8867", True, True),
    ],
)
def test_host_allowed(host, lan, allowed):
    assert host_allowed(host, lan=lan) is allowed


def test_host_name_strips_port_and_brackets():
    assert host_name("[::1]:80") == "::1"
    assert host_name("Example.COM:80") == "example.com"
    assert host_name("::1") == "::1"


def test_page_language_follows_the_browser():
    class Request:
        def __init__(self, value: str) -> None:
            self.headers = {"Accept-Language": value}

    assert page_language(Request("es-AR,es;q=0.9,en;q=0.8")) == "es"
    assert page_language(Request("en-GB,es;q=0.5")) == "en"
    assert page_language(Request("fr-FR")) == "en"


def test_access_travels_by_environment_and_is_removed(monkeypatch):
    access = Access(token="abc", lan=True, cookie="c", path="/p/")
    monkeypatch.setenv("GMKIT_SERVING", access.to_json())
    assert Access.from_environment() == access
    assert "GMKIT_SERVING" not in os.environ
    assert Access.from_environment() == Access()
    assert access_url("http://h:1", access, "x") == "http://h:1/p/x?token=abc"


def test_the_browser_opens_a_private_file_that_redirects_to_the_token_url(tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    open_in_browser("http://127.0.0.1:1/?token=abc&x=1", tmp_path)
    page = tmp_path / "open.html"
    assert oct(page.stat().st_mode & 0o777) == "0o600"
    assert 'content="0;url=http://127.0.0.1:1/?token=abc&amp;x=1"' in page.read_text()
    for _ in range(100):
        if opened:
            break
        import time

        time.sleep(0.01)
    assert opened == [page.as_uri()]  # the browser's command line holds no token


def test_a_flood_of_broken_messages_leaves_one_log_line_each_and_no_traceback(players_server):
    """Issue 27, item 6: a page sending what is not a message (a flood left 8,463 tracebacks
    in the players' server log). Each is said in one line, naming the error."""
    server, _ = players_server
    kernel = kernel_id_of(fresh_page(server))
    base = urllib.parse.urlsplit(server.url).path
    url = f"ws{server.origin[4:]}{base}api/kernels/{kernel}/channels"
    before = server.output().count("JSONDecodeError")
    for number in range(20):
        with connect(url, origin=server.origin, proxy=None, open_timeout=30) as socket_:
            socket_.send('{"header": {}, "broken": ' + "1" * number)
    deadline = time.monotonic() + 60
    while server.output().count("JSONDecodeError") < before + 20 and time.monotonic() < deadline:
        time.sleep(0.2)
    log = server.output()
    assert log.count("JSONDecodeError") >= before + 20
    assert "Traceback" not in log
    said = [line for line in log.splitlines() if "JSONDecodeError" in line]
    assert all(line.startswith("Uncaught exception GET ") for line in said), said[:3]
