"""Driving a notebook in a real JupyterLab page (Playwright): shared by the lab browser tests."""

from __future__ import annotations

import time
from typing import Any

import pytest


def kernel_ready(page: Any, timeout: float = 120) -> None:
    """Wait for the notebook's kernel to be idle; choose the Python kernel when JupyterLab
    asks which (it does so now and then for a notebook opened by URL)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        choose = page.locator(".jp-Dialog button", has_text="Select")
        if choose.count() and choose.first.is_visible():
            choose.first.click()
        status = page.locator(".jp-StatusBar-TextItem", has_text="Idle")
        if status.count() and not page.locator(".jp-Dialog").count():
            return
        page.wait_for_timeout(250)
    pytest.fail("the notebook's kernel never became idle")


def run_all_cells(page: Any) -> None:
    """Run > Run All Cells, as the GM does."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
