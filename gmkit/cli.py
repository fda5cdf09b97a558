"""The ``gmkit`` command: serve the table dashboard through Voila, write the demo campaign.

    gmkit table [CAMPAIGN] [--port 8866] [--no-browser]
    gmkit demo PATH
    gmkit export CAMPAIGN ROSTER PATH      (PATH's suffix: .json, .yaml or .csv)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from gmkit.demo import demo_campaign
from gmkit.errors import GmkitError
from gmkit.sheets.io import write_roster
from gmkit.sheets.roster import Campaign

CAMPAIGN_VARIABLE = "GMKIT_CAMPAIGN"
DEFAULT_PORT = 8866


def notebook_path(name: str) -> Path:
    """A dashboard notebook: packaged in the wheel, or the repository's notebooks/ folder."""
    packaged = Path(str(resources.files("gmkit").joinpath("_notebooks", name)))
    if packaged.exists():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / "notebooks" / name
    if checkout.exists():
        return checkout
    raise GmkitError(f"notebook {name!r} is not installed with gmkit")


def voila_command(notebook: Path, port: int, *, open_browser: bool) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        f"--port={port}",
        "--strip_sources=True",
        "--theme=dark",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",  # a busy port is an error, not a silent other URL
    ]
    if not open_browser:
        command.append("--no-browser")
    return command


def _campaign_file(given: str | None) -> Path:
    """The campaign the dashboard reads: the one given (checked now), or a fresh demo copy.

    The file lives outside the folder Voila serves, so it is never downloadable.
    """
    if given:
        path = Path(given).expanduser().resolve()
        Campaign.load(path)  # refuse a bad file here, with its error, not inside the page
        return path
    folder = Path(tempfile.mkdtemp(prefix="gmkit-"))
    return demo_campaign().save(folder / "demo-campaign.yaml")


def _table(args: argparse.Namespace) -> int:
    campaign = _campaign_file(args.campaign)
    notebook = notebook_path("table.ipynb")
    environment = {**os.environ, CAMPAIGN_VARIABLE: str(campaign)}
    print(f"gmkit table: campaign {campaign}", flush=True)
    print(f"gmkit table: serving http://127.0.0.1:{args.port}/", flush=True)
    command = voila_command(notebook, args.port, open_browser=not args.no_browser)
    try:
        return subprocess.call(command, env=environment, cwd=notebook.parent)
    except KeyboardInterrupt:
        return 0


def _demo(args: argparse.Namespace) -> int:
    path = demo_campaign().save(Path(args.path))
    print(f"gmkit demo: wrote {path}")
    return 0


def _export(args: argparse.Namespace) -> int:
    campaign = Campaign.load(args.campaign)
    try:
        roster = campaign.roster(args.roster)
    except KeyError:
        titles = ", ".join(repr(r.title) for r in campaign.rosters)
        raise GmkitError(f"no roster {args.roster!r} in {args.campaign}; it has {titles}") from None
    path = write_roster(args.path, roster.sheets)
    print(f"gmkit export: wrote {len(roster.sheets)} characters to {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gmkit", description="A Game Master's workbench.")
    commands = parser.add_subparsers(dest="command", required=True)

    table = commands.add_parser("table", help="serve the GM's table dashboard through Voila")
    table.add_argument("campaign", nargs="?", help="campaign file (default: the demo campaign)")
    table.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to serve on")
    table.add_argument("--no-browser", action="store_true", help="do not open a browser")
    table.set_defaults(run=_table)

    demo = commands.add_parser("demo", help="write the demo campaign to a file")
    demo.add_argument("path", help="where to write it (.yaml or .json)")
    demo.set_defaults(run=_demo)

    export = commands.add_parser("export", help="export one roster of a campaign")
    export.add_argument("campaign", help="campaign file")
    export.add_argument("roster", help="the roster's title")
    export.add_argument("path", help="output file: .json, .yaml or .csv")
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
