"""prep.ipynb in a real JupyterLab, in a real browser: run all, the widgets render, and their
buttons work when clicked (tracker: Roll initiative, Start, Next; panel: Resolve, Apply, Undo)."""

from __future__ import annotations

import pytest
from dashboard_page import steady
from lab_page import SHOWN, kernel_ready, play_the_widgets, run_all_cells

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_prep_runs_all_in_jupyterlab_and_its_widgets_render(lab_server, chromium, artifacts):
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{lab_server.url}lab/tree/prep.ipynb", timeout=120_000)
        page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
        kernel_ready(page)
        run_all_cells(page)
        tracker = page.locator(".jp-OutputArea .gmkit-tracker")
        try:
            tracker.first.wait_for(timeout=120_000)
        except Exception:
            page.screenshot(path=str(artifacts / "prep-lab-failed.png"))
            raise
        attack = page.locator(".jp-OutputArea .widget-dropdown select")
        attack.first.wait_for(timeout=60_000)
        assert "Sergeant Varro Tull" in tracker.first.inner_text()
        assert "Magos Vorn" in tracker.first.inner_text()  # hidden, shown to the GM
        tables = page.locator(".jp-OutputArea table")
        assert tables.count() >= 7  # the frames, the odds pivot, the plot
        plot = page.locator(".jp-OutputArea .gmkit-odds-plot .gmkit-state")
        assert plot.count() >= 3  # the odds plot's bars drawn
        errors = page.locator(".jp-OutputArea-output[data-mime-type*='error']")
        assert errors.count() == 0
        page.screenshot(path=str(artifacts / "prep-lab.png"))
        notebook = page.locator(".jp-WindowedPanel-outer").first
        for step in range(1, 6):  # the notebook cell by cell, as the GM reads it
            notebook.evaluate("(el, s) => { el.scrollTop = s * el.clientHeight * 0.9; }", step)
            # the cells scrolled into view drawn: the position and the outputs shown hold
            steady(page, f"scrolled to screen {step}", lambda: notebook.evaluate(SHOWN))
            page.screenshot(path=str(artifacts / f"prep-lab-{step}.png"))
        scope = page.locator(".jp-NotebookPanel:visible").first

        def shot(name: str) -> None:
            page.screenshot(path=str(artifacts / f"prep-lab-click-{name}.png"))

        play_the_widgets(page, scope, shot)
    finally:
        page.close()
