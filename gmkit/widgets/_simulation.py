"""The simulation panel: fight the prepared encounter many times, see who is likely to win.

A fights count, a seed, a "Simulate" button, a progress bar fed by
:func:`gmkit.simulate.simulate`'s progress callback and a count of the fights done fed by its
``fights_done`` callback (a million fights run a chunk at a time); the report shows as an
HTML table (each side's chance to win, a draw at the round limit, the expected rounds, each
combatant's chance to be taken out, the policy and what was simplified). ``run(fights=None)``
is what the button calls, and what a test or a notebook calls. The panel holds no rule: it
reads the encounter when it runs, and says when the encounter changed since the report shown.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.simulate import SimulationReport, simulate
from gmkit.widgets._i18n import LANGUAGE, t, words
from gmkit.widgets._style import THEME_CLASS, style_widget

__all__ = ["SimulationWidget"]


def _t(key: str) -> str:
    return t(f"simulation.{key}")


class SimulationWidget(widgets.VBox):
    """``SimulationWidget(encounter)``: a Simulate button, the fights count, a progress bar,
    the fights done (``widget.done``) and the last report (``widget.report``)."""

    STEP = 0.005
    """The least change of the progress bar sent to the page (a million fights report a few
    thousand steps)."""

    def __init__(
        self, encounter: Encounter, *, fights: int = 10_000, seed: int = 1, **kwargs: Any
    ) -> None:
        self.encounter = encounter
        self.report: SimulationReport | None = None
        self.fights = widgets.BoundedIntText(
            value=fights, min=1, max=1_000_000, layout=widgets.Layout(width="14em")
        )
        self.seed = widgets.IntText(value=seed, layout=widgets.Layout(width="11em"))
        self.button = widgets.Button(icon="play")
        self.button.on_click(lambda _button: self.run())
        self.progress = widgets.FloatProgress(
            value=0.0, min=0.0, max=1.0, layout=widgets.Layout(width="16em")
        )
        self.done = widgets.HTML()
        self.done.add_class("gmkit-simulation-done")
        self._counted: tuple[int, int] | None = None
        self.status = widgets.HTML()
        self.table = widgets.HTML()
        self.table.add_class("gmkit-simulation-report")
        row = widgets.HBox(
            [self.fights, self.seed, self.button, self.progress, self.done],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(children=[style_widget(), row, self.status, self.table], **kwargs)
        self.add_class(THEME_CLASS)
        self.add_class("gmkit-simulation")
        self._stale = False
        self._unsubscribe: Callable[[], None] | None = encounter.subscribe(self._on_change)
        LANGUAGE.observe(self._on_language, names="value")
        self._relabel()
        self._show_status()

    # --- the user's action ------------------------------------------------------------------

    def run(self, fights: int | None = None) -> SimulationReport | None:
        """Simulate the encounter ``fights`` times (default: the field's) with the seed typed;
        shows and returns the report, or None if refused (the reason is shown)."""
        if fights is not None:
            self.fights.value = fights
        self.button.disabled = True
        self.progress.value = 0.0
        self.progress.bar_style = ""
        self._counted = None
        self.done.value = ""
        self.status.value = f"<span class='gmkit-message'>{html.escape(_t('running'))}</span>"
        try:
            report = simulate(
                self.encounter,
                int(self.fights.value),
                seed=int(self.seed.value),
                progress=self._on_progress,
                fights_done=self._on_fights_done,
            )
        except GmkitError as error:
            self.progress.bar_style = "danger"
            self.status.value = f"<span class='gmkit-error'>{html.escape(str(error))}</span>"
            return None
        finally:
            self.button.disabled = False
        self.report = report
        self._stale = False
        self.progress.value = 1.0
        self.progress.bar_style = "success"
        self.table.value = report.to_html()
        self._show_status()
        return report

    def close(self) -> None:
        if self._unsubscribe is None:
            return
        self._unsubscribe()
        self._unsubscribe = None
        LANGUAGE.unobserve(self._on_language, names="value")
        for part in self.children[1].children:
            part.close()
        for part in self.children:
            part.close()
        super().close()

    # --- helpers ----------------------------------------------------------------------------

    def _on_progress(self, fraction: float) -> None:
        value = min(max(float(fraction), 0.0), 1.0)
        if value - self.progress.value >= self.STEP or value in (0.0, 1.0):
            self.progress.value = value

    def _on_fights_done(self, done: int, total: int) -> None:
        self._counted = (done, total)
        self._show_done()

    def _show_done(self) -> None:
        if self._counted is None:
            self.done.value = ""
            return
        done, total = self._counted
        text = words(Message("widgets.simulation.progress", done=done, total=total))
        self.done.value = f"<span class='gmkit-muted'>{html.escape(text)}</span>"

    def _on_change(self, _encounter: Encounter) -> None:
        if self.report is not None:
            self._stale = True
            self._show_status()

    def _show_status(self) -> None:
        if self._stale:
            self.status.value = f"<span class='gmkit-warn'>{html.escape(_t('stale'))}</span>"
        elif self.report is None:
            self.status.value = f"<span class='gmkit-muted'>{html.escape(_t('ready'))}</span>"
        else:
            self.status.value = ""

    def _on_language(self, _change: object) -> None:
        self._relabel()
        self._show_status()
        self._show_done()

    def _relabel(self) -> None:
        self.button.description = _t("simulate")
        self.fights.description = _t("fights")
        self.seed.description = _t("seed")
        for field in (self.fights, self.seed):
            field.style.description_width = "initial"
