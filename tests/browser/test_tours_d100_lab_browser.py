"""The d100 tours in a real JupyterLab, in a real browser: each opens, runs all its cells, and
shows its tables, the seed's worked example, the odds plot and the two widgets, with no error
output. A screenshot of the whole notebook goes to test-artifacts/ (tour-<game>-lab.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dashboard_page import steady
from lab_page import SHOWN, kernel_ready, play_the_widgets, run_all_cells

pytestmark = [pytest.mark.browser, pytest.mark.server]

# Per tour: a line of its worked example, and a combatant the tracker lists.
TOURS = {
    "dark_heresy": ("10 damage - AP 5 - TB 3 = 2", "Drax"),
    "deathwatch": ("3 degrees of success: 4 hits", "Ork mob"),
    "wfrp2": ("Hit location: right arm (53 reversed: 35)", "Ungor 1"),
}
PANEL = ".jp-NotebookPanel:visible"  # the tour's own tab (other tests' tabs stay hidden)


def no_news(page: Any) -> None:
    """Answer JupyterLab's question about news (a toast over the notebook): no."""
    toast = page.locator(".Toastify__toast", has_text="Jupyter news")
    if toast.count() and toast.first.is_visible():
        toast.first.get_by_role("button", name="No", exact=True).click()
        toast.first.wait_for(state="detached", timeout=10_000)


def whole_notebook(page: Any, path: str) -> None:
    """A screenshot of the whole notebook: the window made as tall as the notebook's content
    (JupyterLab scrolls inside its panel, so a full-page shot alone shows one screen)."""
    no_news(page)
    scroller = page.locator(f"{PANEL} .jp-WindowedPanel-outer").first
    height = scroller.evaluate("node => node.scrollHeight")
    page.set_viewport_size({"width": 1400, "height": min(int(height) + 250, 16000)})
    # the cells below the first screen drawn: what the panel shows holds
    steady(page, "the window as tall as the notebook", lambda: scroller.evaluate(SHOWN))
    scroller.evaluate("node => node.scrollTo(0, 0)")
    steady(page, "the notebook at its top", lambda: scroller.evaluate(SHOWN), lambda at: at[0] == 0)
    page.screenshot(path=path, full_page=True)


@pytest.mark.parametrize("game", sorted(TOURS))
def test_tour_runs_all_in_jupyterlab(
    game: str, lab_server: Any, chromium: Any, artifacts: Path
) -> None:
    example, combatant = TOURS[game]
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    try:
        # a workspace of its own, reset: only this tour open, whatever the server showed before
        url = f"{lab_server.url}lab/workspaces/tour-{game}/tree/tour_{game}.ipynb?reset"
        page.goto(url, timeout=120_000)
        panel = page.locator(PANEL).first
        panel.locator(".jp-Cell").first.wait_for(timeout=120_000)
        kernel_ready(page)
        run_all_cells(page)
        tracker = panel.locator(".jp-OutputArea .gmkit-tracker")
        try:
            tracker.first.wait_for(timeout=180_000)
            panel.locator(".jp-OutputArea .widget-dropdown select").first.wait_for(timeout=60_000)
        except Exception:
            page.screenshot(path=str(artifacts / f"tour-{game}-lab-failed.png"))
            raise
        kernel_ready(page)
        assert combatant in tracker.first.inner_text()
        outputs = panel.locator(".jp-OutputArea-output")
        assert outputs.filter(has_text=example).count() == 1  # the worked example's steps
        assert panel.locator(".jp-OutputArea table.dataframe").count() >= 8  # pandas' tables
        assert panel.locator(".jp-OutputArea .gmkit-odds-plot").count() == 1
        errors = panel.locator(".jp-OutputArea-output[data-mime-type*='error']")
        assert errors.count() == 0
        whole_notebook(page, str(artifacts / f"tour-{game}-lab.png"))
        page.set_viewport_size({"width": 1400, "height": 1000})

        def shot(name: str) -> None:
            page.screenshot(path=str(artifacts / f"tour-{game}-lab-click-{name}.png"))

        play_the_widgets(page, panel, shot)
    finally:
        page.close()
