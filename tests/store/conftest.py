"""Fixtures for the campaign-file tests: real files, real processes, always cleaned up."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

WORKERS = Path(__file__).with_name("workers.py")

Spawn = Callable[..., subprocess.Popen[str]]


@pytest.fixture(scope="session")
def workers() -> ModuleType:
    """tests/store/workers.py as a module (its payloads and digests)."""
    spec = importlib.util.spec_from_file_location("gmkit_store_workers", WORKERS)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def spawn() -> Iterator[Spawn]:
    """Start ``python workers.py <role> ...``; every process still alive at teardown is killed."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: object, stderr: int | None = subprocess.PIPE) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, str(WORKERS), *(str(arg) for arg in args)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate()


@pytest.fixture(scope="session")
def filled_template(tmp_path_factory: pytest.TempPathFactory, workers: ModuleType) -> Path:
    """A closed campaign file: the demo rosters and an encounter of 40 events."""
    from gmkit.demo import demo_campaign
    from gmkit.store import CampaignStore

    path = tmp_path_factory.mktemp("template") / "campaign.gmk"
    with CampaignStore(path, create=True) as store:
        store.save_campaign(demo_campaign())
        encounter = store.create_encounter("sump ambush", "necromunda")
        for seq in range(1, 41):
            store.append_event(encounter, workers.payload_for(seq), seq=seq)
    assert [item.name for item in path.parent.iterdir()] == ["campaign.gmk"]  # checkpointed
    return path


@pytest.fixture
def filled_campaign(tmp_path: Path, filled_template: Path) -> Path:
    """A fresh copy of ``filled_template`` for one test."""
    path = tmp_path / "campaign.gmk"
    shutil.copyfile(filled_template, path)
    return path
