"""The ``gmkit`` command: serve the apps through Voila, open the prep notebook in JupyterLab,
write the demo, copy the notebooks, import and export.

    gmkit table [CAMPAIGN] [--port 8866] [--no-browser]
    gmkit players [CAMPAIGN] [--encounter NAME] [--port 8867] [--no-browser]
    gmkit lab [CAMPAIGN] [--dir DIR] [--port 8888] [--no-browser] [--allow-root]
    gmkit notebooks DIR [--force]      (the prep and tour notebooks, for a pip install)
    gmkit demo PATH                    (.gmk/.sqlite: a campaign file; .yaml/.json: a document)
    gmkit import CAMPAIGN ROSTER_FILE [--title T] [--game G]
    gmkit export CAMPAIGN ROSTER PATH        (PATH's suffix: .json, .yaml or .csv)
    gmkit export CAMPAIGN --all PATH         (the whole campaign as JSON, encounters included)
    gmkit export CAMPAIGN --encounter NAME PATH

CAMPAIGN is a SQLite campaign file (``.gmk``); a YAML/JSON campaign document given to ``table``
is imported into a new campaign file beside it (or in a temporary folder when its folder is
not writable), and the command says which; ``lab`` creates an empty campaign file where there
is none (as ``prep.campaign`` does), and says so. The file reaches the app through
``GMKIT_CAMPAIGN``, outside the folder Voila serves, so it is never downloadable. A server is
announced ("serving URL") only once it answers; a port in use is an error (exit status 2), said
before anything is written. See gmkit._launch.

Why over 400 lines: one function per subcommand (``table``, ``players``, ``lab``, ``demo``,
``import``, ``export``, ``copy``) and the parser that names them all with their help.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sqlite3
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from gmkit._launch import (
    LAB_NOTEBOOK,
    PLAYERS_KERNELS,
    TABLE_KERNELS,
    access_url,
    check_port,
    players_access,
    running_as_root,
    serve_lab,
    serve_voila,
    table_access,
)
from gmkit._launch import voila_command as voila_command  # the bench serves notebooks with it
from gmkit._user_state import last_table, remember_table

# Only what every command needs is imported here (the standard library, and gmkit's campaign
# file and launch modules, which import nothing heavy): sheets (pydantic, pandas), the demo and
# the servers' own modules (nbformat, tornado) are imported by the commands that use them, so
# `gmkit --help` or `gmkit export` never waits for what it does not use.
from gmkit.campaign import (
    CAMPAIGN_VARIABLE,
    ENCOUNTER_VARIABLE,
    SQLITE_SUFFIXES,
    create_demo_store,
    export_json,
    is_sqlite_file,
    load_campaign,
    read_roster_file,
    resolve_campaign,
    shown_location,
)
from gmkit.errors import GmkitError
from gmkit.store import CampaignStore, is_database_url

DEFAULT_PORT = 8866
PLAYERS_PORT = 8867
LAB_PORT = 8888
TABLE_IP = LAB_IP = "127.0.0.1"  # the GM's own machine only
PLAYERS_IP = "0.0.0.0"  # the players' devices on the local network


def notebook_path(name: str) -> Path:
    """A dashboard notebook: packaged in the wheel, or the repository's notebooks/ folder."""
    packaged = Path(str(resources.files("gmkit").joinpath("_notebooks", name)))
    if packaged.exists():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / "notebooks" / name
    if checkout.exists():
        return checkout
    raise GmkitError(f"notebook {name!r} is not installed with gmkit")


def lan_address() -> str | None:
    """This machine's address on the local network, as the players' devices reach it (read
    from the host name, else from the network interfaces; nothing is sent anywhere)."""
    candidates: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(str(info[4][0]))
    except OSError:
        pass
    candidates += _interface_addresses()
    found = [address for address in candidates if not address.startswith(("127.", "0."))]
    return found[0] if found else None


def _interface_addresses() -> list[str]:
    """IPv4 addresses of the network interfaces (Linux: the SIOCGIFADDR ioctl)."""
    try:
        import fcntl
        import struct
    except ImportError:  # not a Unix
        return []
    found = []
    for _index, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                request = struct.pack("256s", name.encode()[:15])
                answer = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
            except OSError:
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _table(args: argparse.Namespace) -> int:
    check_port(args.port, TABLE_IP)  # a port taken: said before a demo campaign is written
    resolved = resolve_campaign(args.campaign)
    print(f"gmkit table: {resolved.note}", flush=True)
    print(f"gmkit table: {_campaign_said(resolved.path)}", flush=True)
    try:  # only a convenience for `gmkit players` alone: in the user's own state folder
        remember_table(resolved.path)
    except (OSError, GmkitError) as error:
        print(f"gmkit table: not remembered for `gmkit players` alone ({error})", flush=True)
    print(f"gmkit table: players follow with: gmkit players {resolved.shown}", flush=True)

    access = table_access(args.port)

    def announce() -> None:
        url = access_url(f"http://127.0.0.1:{args.port}", access)
        print(f"gmkit table: serving {url}", flush=True)
        print("gmkit table: the link holds the table's key; keep it to yourself", flush=True)

    print(f"gmkit table: starting Voila on port {args.port} ...", flush=True)
    return serve_voila(
        notebook_path("table.ipynb"),
        {CAMPAIGN_VARIABLE: str(resolved.path)},
        port=args.port,
        ip=TABLE_IP,
        open_browser=not args.no_browser,
        announce=announce,
        access=access,
        kernels=TABLE_KERNELS,
    )


def _light(
    args: argparse.Namespace,
    path: Path | str,
    encounter: str,
    access: Any,
    announce: Callable[[], None],
) -> int:
    """``gmkit players --light``: the phones served by one process, no kernel each."""
    from gmkit._phones._room import Room
    from gmkit._phones._server import serve_phones

    room = Room(CampaignStore(path, readonly=True), encounter)
    print(f"gmkit players: starting the phones' server on port {args.port} (no kernel each) ...")
    return serve_phones(room, port=args.port, ip=PLAYERS_IP, access=access, announce=announce)


def _campaign_said(location: Path | str) -> str:
    """``campaign file PATH``, or ``campaign in PostgreSQL ADDRESS`` (no password)."""
    if is_database_url(location):
        return f"campaign in PostgreSQL {shown_location(location)}"
    return f"campaign file {location}"


def _tell_the_seats(campaign: Path | str, url: str) -> None:
    """Write where the players' page is into the campaign's seats file, so the GM's table
    makes each player's seat link from it (a folder gmkit may not write: said, not fatal)."""
    from gmkit.seats import SeatsFile  # only the players' launch needs it

    try:
        with SeatsFile.of_campaign(campaign) as seats:
            seats.set_players_url(url)
    except (OSError, sqlite3.Error) as error:
        print(f"gmkit players: the seats' links cannot be written ({error})", flush=True)


def _players(args: argparse.Namespace) -> int:
    check_port(args.port, PLAYERS_IP)
    given = args.campaign
    if not given:
        last = last_table() or ""
        if not last or not (is_database_url(last) or Path(last).exists()):
            raise GmkitError(
                "name the campaign file the table serves (gmkit table prints it: "
                "'gmkit table: campaign file PATH')"
            )
        given = last
        shown = shown_location(last)
        print(f"gmkit players: following the campaign gmkit table served last: {shown}")
    if is_database_url(given):
        return _players_of(args, given)
    path = Path(given).expanduser().resolve()
    if not path.exists():
        raise GmkitError(f"{path}: no such campaign file")
    if not is_sqlite_file(path):
        raise GmkitError(
            f"{path}: the player view follows a campaign file (.gmk), not a document; "
            "serve it with gmkit table first, which prints the file to give here"
        )
    return _players_of(args, path)


def _players_of(args: argparse.Namespace, path: Path | str) -> int:
    """Serve the players' page of the campaign at ``path`` (a file, or a database's address)."""
    with CampaignStore(path, readonly=True) as store:
        names = [info.name for info in store.encounters()]
        beside = store.path  # where its seats are kept: beside the file, or this machine's
    shown = shown_location(path)
    if not names:
        raise GmkitError(f"{shown}: the campaign has no encounter to follow yet")
    encounter = args.encounter or names[0]
    if encounter not in names:
        listed = ", ".join(repr(name) for name in names)
        raise GmkitError(f"no encounter {encounter!r} in {shown}; it has {listed}")
    print(f"gmkit players: {_campaign_said(path)}", flush=True)
    print(f"gmkit players: encounter {encounter}", flush=True)

    access = players_access()

    def announce() -> None:
        url = access_url(f"http://127.0.0.1:{args.port}", access)
        print(f"gmkit players: serving {url}", flush=True)
        lan = lan_address()
        if lan:
            url = access_url(f"http://{lan}:{args.port}", access)
            print(f"gmkit players: on the local network: {url}", flush=True)
        else:
            print("gmkit players: no local network address found; players use this machine's")
        _tell_the_seats(beside, url)

    if args.light:
        return _light(args, path, encounter, access, announce)
    print(f"gmkit players: starting Voila on port {args.port} ...", flush=True)
    return serve_voila(
        notebook_path("players.ipynb"),
        {CAMPAIGN_VARIABLE: str(path), ENCOUNTER_VARIABLE: encounter},
        port=args.port,
        ip=PLAYERS_IP,
        open_browser=not args.no_browser,
        announce=announce,
        access=access,
        kernels=PLAYERS_KERNELS,
    )


def _lab(args: argparse.Namespace) -> int:
    folder = (
        Path(args.dir).expanduser().resolve() if args.dir else notebook_path(LAB_NOTEBOOK).parent
    )
    if not (folder / LAB_NOTEBOOK).exists():
        raise GmkitError(
            f"{folder}: no {LAB_NOTEBOOK} here; copy the notebooks first: gmkit notebooks {folder}"
        )
    check_port(args.port, LAB_IP)
    resolved = resolve_campaign(args.campaign, create=True)  # as prep.campaign(path) would
    print(f"gmkit lab: {resolved.note}", flush=True)
    print(f"gmkit lab: {_campaign_said(resolved.path)}", flush=True)
    print(f"gmkit lab: notebooks in {folder}", flush=True)
    allow_root = args.allow_root or running_as_root()
    if allow_root and not args.allow_root:
        print("gmkit lab: running as root: JupyterLab started with --allow-root", flush=True)

    def announce(url: str) -> None:
        print(f"gmkit lab: serving {url}", flush=True)

    print(f"gmkit lab: starting JupyterLab on port {args.port} ...", flush=True)
    return serve_lab(
        folder,
        {CAMPAIGN_VARIABLE: str(resolved.path)},
        port=args.port,
        open_browser=not args.no_browser,
        announce=announce,
        allow_root=allow_root,
    )


def copied_notebooks() -> list[Path]:
    """The notebooks ``gmkit notebooks`` copies: prep, the roster it reads, and the tours (not
    the apps' own)."""
    folder = notebook_path(LAB_NOTEBOOK).parent
    return [
        folder / LAB_NOTEBOOK,
        *sorted(folder.glob("*.csv")),
        *sorted(folder.glob("tour_*.ipynb")),
    ]


def _notebooks(args: argparse.Namespace) -> int:
    target = Path(args.dir).expanduser()
    sources = copied_notebooks()
    existing = [target / source.name for source in sources if (target / source.name).exists()]
    if existing and not args.force:
        names = ", ".join(str(path) for path in existing)
        verb, them = ("exists", "it") if len(existing) == 1 else ("exist", "them")
        raise GmkitError(f"{names} {verb} already; give --force to write over {them}")
    target.mkdir(parents=True, exist_ok=True)
    for source in sources:
        shutil.copyfile(source, target / source.name)
        print(f"gmkit notebooks: wrote {target / source.name}")
    print(f"gmkit notebooks: open them with: gmkit lab --dir {target}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from gmkit.demo import demo_campaign

    target = Path(args.path)
    if target.suffix.lower() in SQLITE_SUFFIXES:
        path = create_demo_store(target)
        print(f"gmkit demo: wrote the demo campaign file {path} (one prepared fight per game)")
        return 0
    path = demo_campaign().save(target)
    print(f"gmkit demo: wrote {path}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from gmkit.sheets._roster import Campaign, Roster

    sheets, title, game, summary = read_roster_file(args.roster_file, game=args.game)
    roster = Roster(args.title or title, game, tuple(sheets), summary)
    target = Path(args.campaign)
    if is_sqlite_file(target):
        with CampaignStore(target, create=True) as store:
            replaced = roster.title in {r.title for r in store.rosters()}
            store.save_roster(roster)
    else:  # a YAML/JSON campaign document
        campaign = Campaign.load(target) if target.exists() else Campaign(target.stem, ())
        replaced = roster.title in {r.title for r in campaign.rosters}
        rosters = [r for r in campaign.rosters if r.title != roster.title]
        position = next(
            (n for n, r in enumerate(campaign.rosters) if r.title == roster.title), len(rosters)
        )
        rosters.insert(position, roster)
        Campaign(campaign.name, tuple(rosters)).save(target)
    verb = "replaced" if replaced else "added"
    print(f"gmkit import: {verb} the roster {roster.title!r} ({len(sheets)} {game}) in {target}")
    return 0


def _copy(args: argparse.Namespace) -> int:
    from gmkit._store_copy import copy_location

    written = copy_location(args.source, args.target, overwrite=args.overwrite)
    print(f"gmkit copy: {shown_location(args.source)} copied to {shown_location(written)}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from gmkit.sheets._io import write_roster

    source = Path(args.campaign)
    if args.players and (args.all or args.encounter):
        raise GmkitError("export: --players is for a roster (an event log is the GM's)")
    if args.all or args.encounter:
        if len(args.rest) != 1:
            raise GmkitError("export: give one output PATH after the campaign")
        (path,) = args.rest
        if not is_sqlite_file(source):
            if args.encounter:
                raise GmkitError(f"{source}: a campaign document holds no encounters")
            data = load_campaign(source).to_dict()
        else:
            with CampaignStore(source, readonly=True) as store:
                if args.encounter:
                    data = store.export_encounter(store.encounter_id(args.encounter))
                else:
                    data = store.export_campaign()
        written = export_json(path, data)
        what = f"the encounter {args.encounter!r}" if args.encounter else "the campaign"
        print(f"gmkit export: wrote {what} to {written}")
        return 0
    if len(args.rest) != 2:
        raise GmkitError("export: give the ROSTER title and the output PATH (or --all/--encounter)")
    title, path = args.rest
    campaign = load_campaign(source)
    try:
        roster = campaign.roster(title)
    except KeyError:
        titles = ", ".join(repr(r.title) for r in campaign.rosters)
        raise GmkitError(f"no roster {title!r} in {source}; it has {titles}") from None
    written = write_roster(path, roster.sheets, players_only=args.players)
    print(f"gmkit export: wrote {len(roster.sheets)} characters to {written}")
    return 0


def port_number(text: str) -> int:
    """--port: a TCP port, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (1 to 65535)")
    return port


def _serving(command: argparse.ArgumentParser, port: int) -> None:
    """The options of a command that serves a page: ``--port`` and ``--no-browser``."""
    command.add_argument("--port", type=port_number, default=port, help="port to serve on")
    command.add_argument("--no-browser", action="store_true", help="do not open a browser")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gmkit", description="A Game Master's workbench.")
    commands = parser.add_subparsers(dest="command", required=True)

    table = commands.add_parser("table", help="serve the GM's table dashboard through Voila")
    table.add_argument(
        "campaign",
        nargs="?",
        help="campaign file (.gmk), or a YAML/JSON campaign document to import "
        "(default: a new copy of the demo campaign)",
    )
    _serving(table, DEFAULT_PORT)
    table.set_defaults(run=_table)

    players = commands.add_parser(
        "players", help="serve the players' view on the local network through Voila"
    )
    players.add_argument(
        "campaign", nargs="?", help="campaign file (default: the one gmkit table served last)"
    )
    players.add_argument("--encounter", help="the encounter to follow (default: the first)")
    players.add_argument(
        "--light",
        action="store_true",
        help="the phones and seats served by one process, no kernel each (no Voila)",
    )
    _serving(players, PLAYERS_PORT)
    players.set_defaults(run=_players)

    lab = commands.add_parser("lab", help="open the prep notebook in JupyterLab")
    lab.add_argument(
        "campaign",
        nargs="?",
        help="campaign file (.gmk; created empty if missing) or YAML/JSON document, as for "
        "table (default: a new copy of the demo campaign)",
    )
    lab.add_argument(
        "--allow-root",
        action="store_true",
        help="let JupyterLab run as root (gmkit gives it anyway when run as root, and says so)",
    )
    lab.add_argument(
        "--dir",
        help="the folder of notebooks to open, as gmkit notebooks DIR wrote it "
        "(default: gmkit's own notebooks)",
    )
    _serving(lab, LAB_PORT)
    lab.set_defaults(run=_lab)

    notebooks = commands.add_parser(
        "notebooks", help="copy the prep and tour notebooks into a folder"
    )
    notebooks.add_argument("dir", help="the folder (created if missing)")
    notebooks.add_argument(
        "--force", action="store_true", help="write over notebooks already in the folder"
    )
    notebooks.set_defaults(run=_notebooks)

    demo = commands.add_parser("demo", help="write the demo campaign to a file")
    demo.add_argument(
        "path", help="where: .gmk/.sqlite (a campaign file) or .yaml/.json (a document)"
    )
    demo.set_defaults(run=_demo)

    imports = commands.add_parser("import", help="import a roster file into a campaign")
    imports.add_argument("campaign", help="campaign file (.gmk; created if missing) or document")
    imports.add_argument("roster_file", help="roster: .csv, .yaml or .json")
    imports.add_argument("--title", help="the roster's title (default: the file's)")
    imports.add_argument("--game", help="the game, for characters that do not name it")
    imports.set_defaults(run=_import)

    copy = commands.add_parser(
        "copy",
        help="copy a campaign between a file and PostgreSQL (postgresql://host/db#campaign)",
    )
    copy.add_argument("source", help="campaign file (.gmk) or postgresql://... address")
    copy.add_argument("target", help="a new campaign file, or an empty campaign in PostgreSQL")
    copy.add_argument("--overwrite", action="store_true", help="replace a target file")
    copy.set_defaults(run=_copy)

    export = commands.add_parser(
        "export", help="export a roster, an encounter or the whole campaign"
    )
    export.add_argument("campaign", help="campaign file or document")
    export.add_argument("rest", nargs="+", metavar="ROSTER PATH | PATH")
    export.add_argument("--all", action="store_true", help="the whole campaign, as JSON")
    export.add_argument("--encounter", help="one encounter's event log, as JSON")
    export.add_argument(
        "--players", action="store_true", help="a roster without the GM's fields (notes...)"
    )
    export.set_defaults(run=_export)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except GmkitError as error:
        print(f"gmkit {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
