"""What gmkit remembers for its user between commands, in that user's own state folder.

Today one thing: the campaign file ``gmkit table`` served last, so a bare ``gmkit players``
follows it. It used to sit in the shared temporary folder, where another local user could read
it (it says where the campaign is), redirect the write through a link (overwriting another file
of the GM's) or plant a pointer of their own (making the players' server serve another
campaign). Now:

- the folder is ``$GMKIT_STATE_DIR``, else ``$XDG_STATE_HOME/gmkit``, else
  ``~/.local/state/gmkit`` (on Windows ``%LOCALAPPDATA%\\gmkit``), made owner-only (0700); one
  that is a link, or another user's, is refused, and one the user made open to others is
  closed again;
- the file is written owner-only (0600) to a new name and renamed into place: a link planted
  where it goes is replaced, never followed;
- it is read without following a link, and only if it is the user's own and no one else may
  write it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from gmkit.errors import GmkitError

LAST_TABLE = "last-table-campaign.txt"
"""The file in the state folder naming the campaign ``gmkit table`` served last."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows, where links need privileges anyway
_POSIX = hasattr(os, "geteuid")


def state_folder() -> Path:
    """The user's gmkit state folder (not made here)."""
    given = os.environ.get("GMKIT_STATE_DIR")
    if given:
        return Path(given).expanduser()
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "gmkit"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "gmkit"


def own_folder() -> Path:
    """The state folder, made if needed, checked to be the user's own and closed to others;
    a GmkitError naming it when it is a link or someone else's."""
    folder = state_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    found = os.lstat(folder)
    if stat.S_ISLNK(found.st_mode) or not stat.S_ISDIR(found.st_mode):
        raise GmkitError(f"{folder}: gmkit's state folder is a link or not a folder; remove it")
    if _POSIX:
        if found.st_uid != os.geteuid():
            raise GmkitError(f"{folder}: gmkit's state folder belongs to another user")
        if found.st_mode & 0o077:
            os.chmod(folder, 0o700)  # ours, but open to others: closed again
    return folder


def remember_table(campaign: Path | str) -> Path:
    """Write ``campaign`` as the one the table served last; the file written."""
    folder = own_folder()
    target = folder / LAST_TABLE
    fresh = folder / f".{LAST_TABLE}.{os.getpid()}.new"
    with contextlib.suppress(FileNotFoundError):  # a crash's leftover
        fresh.unlink()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
    descriptor = os.open(fresh, flags, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as written:
        written.write(str(campaign))
    os.replace(fresh, target)  # a link planted at ``target`` is replaced, not followed
    return target


def last_table() -> str | None:
    """The campaign the table served last (a file's path, a database's address), if the user's
    own pointer names one."""
    target = state_folder() / LAST_TABLE
    try:
        descriptor = os.open(target, os.O_RDONLY | _NOFOLLOW)
    except OSError:  # none yet, or a link (refused by O_NOFOLLOW)
        return None
    with os.fdopen(descriptor, encoding="utf-8") as read:
        found = os.fstat(read.fileno())
        if _POSIX and (found.st_uid != os.geteuid() or found.st_mode & 0o022):
            return None  # not written by this user alone: not trusted
        text = read.read(4096).strip()
    return text or None
