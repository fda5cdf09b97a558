"""The D6 games' tours (Necromunda, WFB 6e) in a real JupyterLab, in a real browser: Run All
Cells, the tracker and the attack panel render, no cell errs; a full-page screenshot of each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dashboard_page import steady
from lab_page import SHOWN, kernel_ready, play_the_widgets, run_all_cells

pytestmark = [pytest.mark.browser, pytest.mark.server]

# Each tour: its file, what its tracker names, and what its pages of tables show.
TOURS = {
    "necromunda": ("tour_necromunda.ipynb", ("Little Jeb", "Scavvy 3"), "Scavvy 1"),
    "wfb6": ("tour_wfb6.ipynb", ("Knights of the Realm", "Shaman Snikkit"), "Father Anselm"),
}

# Each tour: who shoots once their side's shooting phase comes round, at what distance.
SHOOTERS = {
    "necromunda": (("Scavvy 1", "The Sump Scavvies"), "8"),
    "wfb6": (("Skulkers", "Night Goblins"), "30"),
}


@pytest.mark.parametrize("game", sorted(TOURS))
def test_the_tour_runs_all_in_jupyterlab_and_its_widgets_render(
    lab_server: Any, chromium: Any, artifacts: Path, game: str
) -> None:
    name, tracked, tabled = TOURS[game]
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    try:
        # a workspace of its own, reset: only this notebook open, and it has the focus
        url = f"{lab_server.url}lab/workspaces/tour-{game}/tree/{name}?reset"
        page.goto(url, timeout=120_000)
        page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
        kernel_ready(page)
        run_all_cells(page)
        tracker = page.locator(".jp-OutputArea .gmkit-tracker")
        try:
            tracker.first.wait_for(timeout=120_000)
            page.locator(".jp-OutputArea .widget-dropdown select").first.wait_for(timeout=60_000)
            kernel_ready(page)
        except Exception:
            page.screenshot(path=str(artifacts / f"tour-{game}-lab-failed.png"), full_page=True)
            raise
        shown = tracker.first.inner_text()
        for combatant in tracked:  # the hidden one too: the tracker is the GM's
            assert combatant in shown
        tables = page.locator(".jp-OutputArea table.dataframe")
        assert tables.count() >= 6  # catalog, bestiary, rosters, overview, odds, log
        notebook = page.locator(".jp-Notebook").inner_text()
        assert tabled in notebook
        assert "Cannot resolve yet" not in notebook  # the panel's attack is complete: its odds
        assert page.locator(".jp-OutputArea .gmkit-odds-plot").count() == 1
        errors = page.locator(".jp-OutputArea-output[data-mime-type*='error']")
        assert errors.count() == 0
        # JupyterLab scrolls its notebook inside a panel one window high: the window is made
        # as tall as the notebook, the notebook scrolled to its top, for the whole of it.
        no_news = page.get_by_role("button", name="No", exact=True)
        if no_news.count():  # JupyterLab's question about its news: answered, out of the way
            no_news.first.click()
        outer = page.locator(".jp-NotebookPanel .jp-WindowedPanel-outer").first
        last = page.locator(".jp-Notebook .jp-Cell").last
        for _ in range(4):  # the widgets grow once laid out: measured again until it holds
            outer.evaluate("node => { node.scrollTop = 0; }")
            bottom = last.evaluate("node => node.getBoundingClientRect().bottom")
            height = min(int(bottom) + 60, 32_000)
            if height == page.viewport_size["height"]:
                break
            page.set_viewport_size({"width": 1400, "height": height})
            # the cells the taller window shows drawn: what the panel shows holds
            steady(page, f"{game}: the window {height} px tall", lambda: outer.evaluate(SHOWN))
        page.screenshot(path=str(artifacts / f"tour-{game}-lab.png"), full_page=True)
        page.set_viewport_size({"width": 1400, "height": 1000})

        def shot(name: str) -> None:
            page.screenshot(path=str(artifacts / f"tour-{game}-lab-click-{name}.png"))

        shooter, distance = SHOOTERS[game]
        panel = page.locator(".jp-NotebookPanel:visible").first
        play_the_widgets(page, panel, shot, shooter=shooter, distance=distance)
    finally:
        page.close()
