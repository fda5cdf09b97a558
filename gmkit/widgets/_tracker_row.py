"""One combatant's row of the initiative tracker (:mod:`gmkit.widgets._tracker`).

The row is an ``HBox`` laid out as a grid by :mod:`gmkit.widgets._tracker_style`: the initiative
box (initiative games), one ``HTML`` for the text (acted mark, name, side, wounds; the budget and
markers on a second line), the Sheet and Remove buttons and, only while the combatant bears
conditions, a box of condition chips (each a button that removes its condition). Layouts and
styles are the tracker's, shared by every row. Who acts now, the selected row and the row asked
to be removed are CSS classes toggled on the row (:meth:`TrackerRow.flag`), so a turn change
sends a class change to the rows whose mark changed, and no text.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

import ipywidgets as widgets

from gmkit.messages import Message
from gmkit.widgets._i18n import t, words

Chip = tuple[str, str, str]
"""A condition chip: the condition's id, its label ("Stunned · 1 rd"), the button's tooltip."""

FLAGS = ("gmkit-current", "gmkit-acting", "gmkit-done", "gmkit-selected", "gmkit-asking")
"""The classes a row's marks toggle: the current actor (initiative games), who acts now (the
current actor or the side in play's members), who has acted (the encounter's ``acted``), the
selected row, the row asked to be removed."""


class TrackerRow(widgets.HBox):
    """One combatant's line (see the module docstring).

    ``css_class`` (``gmkit-r7``) and ``side_class`` (``gmkit-s1``) never change; the marks of
    :data:`FLAGS` come and go with :meth:`flag`."""

    def __init__(
        self,
        ident: str,
        *,
        css_class: str,
        side_class: str,
        shared: Mapping[str, widgets.Widget],
        on_select: Callable[[str], object],
        on_remove: Callable[[str], object],
        on_initiative: Callable[[str, str], object] | None = None,
        on_uncondition: Callable[[str, str], object] | None = None,
    ) -> None:
        self.ident = ident
        self.css_class = css_class
        self.side_class = side_class
        self._shared = shared
        self._on_uncondition = on_uncondition
        self.html = widgets.HTML(layout=shared["html_layout"], style=shared["html_style"])
        self.select_button = widgets.Button(
            description=t("sheet"), layout=shared["button_layout"], style=shared["button_style"]
        )
        self.select_button.add_class("gmkit-sheet")
        self.remove_button = widgets.Button(
            description="✕",
            tooltip=t("remove"),
            layout=shared["button_layout"],
            style=shared["button_style"],
        )
        self.remove_button.add_class("gmkit-remove")
        self.select_button.on_click(lambda _button: on_select(ident))
        self.remove_button.on_click(lambda _button: on_remove(ident))
        self.initiative_box: widgets.Text | None = None
        self._syncing = False
        if on_initiative is not None:
            box = widgets.Text(
                continuous_update=False,  # sent on Enter (or leaving the box)
                placeholder="–",
                layout=shared["init_layout"],
                style=shared["text_style"],
            )
            box.add_class("gmkit-init-box")
            box.observe(
                lambda change: self._syncing or on_initiative(ident, str(change["new"])),
                names="value",
            )
            self.initiative_box = box
        self.chips: widgets.HBox | None = None  # made for the first condition
        self._chips_shown: tuple[Chip, ...] = ()
        super().__init__(children=self._parts(), layout=shared["row_layout"])
        self._dom_classes: tuple[str, ...] = ("gmkit-row", css_class, side_class)

    def _parts(self) -> list[widgets.Widget]:
        parts: list[widgets.Widget] = [self.initiative_box] if self.initiative_box else []
        parts += [self.html, self.select_button, self.remove_button]
        if self.chips is not None and self.chips.children:
            parts.append(self.chips)
        return parts

    # --- what the row shows ------------------------------------------------------------------

    def flag(self, flags: frozenset[str]) -> None:
        """Carry exactly the marks ``flags`` (of :data:`FLAGS`); nothing is sent if unchanged."""
        wanted = (
            "gmkit-row",
            self.css_class,
            self.side_class,
            *(flag for flag in FLAGS if flag in flags),
        )
        if tuple(self._dom_classes) != wanted:
            self._dom_classes = wanted

    @property
    def flags(self) -> frozenset[str]:
        return frozenset(self._dom_classes) & frozenset(FLAGS)

    def show(self, text: str) -> bool:
        """Show ``text`` (only if it differs: one message); True if it changed."""
        if self.html.value == text:
            return False
        self.html.value = text
        return True

    def show_initiative(self, score: int | None) -> None:
        """Put the encounter's score in the initiative box (what the GM typed is replaced)."""
        if self.initiative_box is None:
            return
        shown = "" if score is None else str(score)
        if self.initiative_box.value != shown:
            self._syncing = True
            try:
                self.initiative_box.value = shown
            finally:
                self._syncing = False

    def show_conditions(self, chips: tuple[Chip, ...]) -> None:
        """One chip button per condition (made again only when the conditions shown change)."""
        if chips == self._chips_shown:
            return
        self._chips_shown = chips
        if self.chips is None:
            self.chips = widgets.HBox(layout=self._shared["html_layout"])
            self.chips.add_class("gmkit-chips")
        for old in self.chips.children:
            old.close()
        self.chips.children = tuple(self._chip(*chip) for chip in chips)
        parts = self._parts()
        if tuple(parts) != tuple(super().children):
            self.children = parts

    def _chip(self, name: str, label: str, tip: str) -> widgets.Button:
        chip = widgets.Button(
            description=f"{label} ✕",
            tooltip=tip,
            layout=self._shared["button_layout"],
            style=self._shared["button_style"],
        )
        for css in ("gmkit-badge", "gmkit-condition", "gmkit-chip"):
            chip.add_class(css)
        if self._on_uncondition is not None:
            chip.on_click(lambda _button, n=name: self._uncondition(n))
        return chip

    def _uncondition(self, name: str) -> None:
        if self._on_uncondition is not None:
            self._on_uncondition(self.ident, name)

    @property
    def chip_buttons(self) -> dict[str, widgets.Button]:
        """The condition chips shown, by condition id."""
        if self.chips is None:
            return {}
        buttons = tuple(self.chips.children)
        return {chip[0]: button for chip, button in zip(self._chips_shown, buttons, strict=True)}

    def relabel(self) -> None:
        self.select_button.description = t("sheet")
        self.remove_button.tooltip = t("remove")
        self._chips_shown = ()  # made again in the new language by the next render

    def close(self) -> None:
        parts = [self.html, self.select_button, self.remove_button]
        if self.initiative_box is not None:
            parts.append(self.initiative_box)
        if self.chips is not None:
            parts += [*self.chips.children, self.chips]
        for part in parts:
            part.close()
        super().close()


class ConfirmBar(widgets.HBox):
    """ "Remove Cultist Ban? [Remove] [Keep]", shown under the row whose Remove was clicked
    (made the first time one is: four widget models on the rows' shared layouts)."""

    def __init__(
        self,
        shared: Mapping[str, widgets.Widget],
        on_confirm: Callable[[], object],
        on_keep: Callable[[], object],
    ) -> None:
        looks = {"layout": shared["button_layout"], "style": shared["button_style"]}
        self.text = widgets.HTML(layout=shared["html_layout"], style=shared["html_style"])
        self.confirm_button = widgets.Button(**looks)
        self.confirm_button.add_class("gmkit-confirm-remove")
        self.keep_button = widgets.Button(**looks)
        self.confirm_button.on_click(lambda _button: on_confirm())
        self.keep_button.on_click(lambda _button: on_keep())
        super().__init__(
            [self.text, self.confirm_button, self.keep_button], layout=shared["row_layout"]
        )
        self.add_class("gmkit-confirm")
        self.relabel()

    def ask(self, name: str) -> None:
        """Ask about the combatant called ``name``."""
        self.text.value = html.escape(words(Message("widgets.remove_ask", name=name)))

    def relabel(self) -> None:
        self.confirm_button.description = t("remove")
        self.keep_button.description = t("keep")

    def close(self) -> None:
        for part in (self.text, self.confirm_button, self.keep_button):
            part.close()
        super().close()


__all__ = ["FLAGS", "Chip", "ConfirmBar", "TrackerRow"]
