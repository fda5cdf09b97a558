"""The table's pointer for a bare ``gmkit players`` lives in the user's own state folder
(issue 27, item 4): owner-only, written without following a link another user planted, read
only if it is the user's own; nothing of it in the shared temporary folder."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from gmkit._cli import main
from gmkit._user_state import LAST_TABLE, last_table, own_folder, remember_table, state_folder
from gmkit.campaign import create_demo_store
from gmkit.errors import GmkitError


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    made = tmp_path / "state" / "gmkit"
    monkeypatch.setenv("GMKIT_STATE_DIR", str(made))
    return made


@pytest.fixture
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_folder_follows_xdg_and_is_made_owner_only(tmp_path, monkeypatch):
    monkeypatch.delenv("GMKIT_STATE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert state_folder() == tmp_path / "xdg" / "gmkit"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_folder() == tmp_path / "home" / ".local" / "state" / "gmkit"
    made = own_folder()
    assert made.is_dir()
    assert mode(made) == 0o700


def test_remembered_and_read_back_owner_only(folder):
    campaign = Path("/srv/games/chapel.gmk")
    written = remember_table(campaign)
    assert written == folder / LAST_TABLE
    assert mode(folder) == 0o700
    assert mode(written) == 0o600
    assert last_table() == str(campaign)
    assert [p.name for p in folder.iterdir()] == [LAST_TABLE]  # no leftover


def test_a_planted_link_is_replaced_never_followed(folder, tmp_path):
    own_folder()
    victim = tmp_path / "other-campaign.gmk"
    victim.write_bytes(b"SQLite format 3\x00 the GM's other campaign")
    (folder / LAST_TABLE).symlink_to(victim)
    assert last_table() is None  # a link is not read
    remember_table(Path("/srv/chapel.gmk"))
    assert victim.read_bytes() == b"SQLite format 3\x00 the GM's other campaign"
    assert not (folder / LAST_TABLE).is_symlink()
    assert last_table() == "/srv/chapel.gmk"


def test_a_folder_open_to_others_is_closed_and_a_linked_one_refused(folder, tmp_path):
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    own_folder()
    assert mode(folder) == 0o700
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder.rmdir()
    folder.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(GmkitError, match="state folder is a link"):
        remember_table(Path("/srv/chapel.gmk"))
    assert list(elsewhere.iterdir()) == []


def test_a_pointer_others_may_write_is_not_trusted(folder):
    written = remember_table(Path("/srv/chapel.gmk"))
    written.chmod(0o666)
    assert last_table() is None


def test_players_alone_follows_the_users_pointer_not_a_file_in_the_temp_folder(
    folder, tmp_path, monkeypatch, capsys, free_port
):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    campaign = create_demo_store(tmp_path / "chapel.gmk")
    planted = create_demo_store(tmp_path / "planted.gmk")
    (tmp_path / "gmkit-last-table-campaign.txt").write_text(str(planted), encoding="utf-8")
    served: list[dict[str, object]] = []
    monkeypatch.setattr(
        "gmkit._cli.serve_voila", lambda notebook, env, **options: served.append(env) or 0
    )
    port = str(free_port)
    assert main(["players", "--no-browser", "--port", port]) == 2  # nothing remembered yet
    assert "gmkit table prints it" in capsys.readouterr().err
    assert main(["table", str(campaign), "--no-browser", "--port", port]) == 0
    assert (folder / LAST_TABLE).read_text(encoding="utf-8") == str(campaign.resolve())
    assert main(["players", "--no-browser", "--port", port]) == 0
    out = capsys.readouterr().out
    assert f"gmkit players: campaign file {campaign.resolve()}" in out
    assert str(planted) not in out
    assert [str(env["GMKIT_CAMPAIGN"]) for env in served] == [str(campaign.resolve())] * 2
