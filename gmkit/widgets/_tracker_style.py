"""The tracker's own CSS: its rows for a ~440 px column at 18 px (one line a combatant when it
fits, two at most), the marks that classes toggle (who acts now, the selected row, the row
asked to be removed), condition chips, the Undo/Redo labels clipped with an ellipsis.

The tracker carries it in its own HTML widget (:func:`tracker_style_widget`), whatever the page
has already; the theme's colours are :mod:`gmkit.widgets._style`'s variables.
"""

from __future__ import annotations

import ipywidgets as widgets

TRACKER_STYLE = """
<style>
.gmkit-tracker .gmkit-row {
  display: grid !important;
  grid-template-columns: auto minmax(0, 1fr) auto auto;
  column-gap: 4px;
  align-items: center;
  padding: 1px 2px;
}
.gmkit-tracker .gmkit-row > .gmkit-init-box {
  grid-column: 1; grid-row: 1; width: 2.6em; margin: 0;
}
.gmkit-tracker .gmkit-row > .gmkit-init-box input {
  text-align: right; font-size: 1em; font-variant-numeric: tabular-nums; padding: 0 2px;
}
.gmkit-tracker .gmkit-row > .widget-html {
  grid-column: 2; grid-row: 1; margin: 0; width: auto; min-width: 0;
}
.gmkit-tracker .gmkit-row .widget-html-content { min-width: 0; overflow: hidden; }
.gmkit-tracker .gmkit-row > .gmkit-sheet { grid-column: 3; grid-row: 1; }
.gmkit-tracker .gmkit-row > .gmkit-remove { grid-column: 4; grid-row: 1; }
.gmkit-tracker .gmkit-row > .gmkit-chips {
  grid-column: 2 / 5; grid-row: 2; flex-flow: row wrap; gap: 2px 4px; margin: 0 0 2px 0;
}
.gmkit-tracker .gmkit-row .jupyter-button {
  height: auto; line-height: 1.3; padding: 1px 6px; margin: 1px 0; font-size: 0.8em;
}
.gmkit-tracker .gmkit-row .jupyter-button.gmkit-remove { padding: 1px 5px; }
.gmkit-tracker .gmkit-row .gmkit-line1 { display: flex; align-items: baseline; gap: 0.35em; }
.gmkit-tracker .gmkit-row .gmkit-line2:empty { display: none; }
.gmkit-tracker .gmkit-row .gmkit-cell { margin-right: 0; min-width: 0; }
.gmkit-tracker .gmkit-row .gmkit-acted {
  flex: none; width: 1em; text-align: center; color: var(--gmkit-ok); font-weight: 700;
}
.gmkit-tracker .gmkit-row .gmkit-name {
  flex: 0 1 auto; min-width: 3em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
.gmkit-tracker .gmkit-row .gmkit-side {
  flex: 1 1 0; min-width: 0; max-width: 7em; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; font-size: 0.75em;
}
.gmkit-tracker .gmkit-row .gmkit-wounds { flex: none; min-width: 0; margin-left: auto; }
.gmkit-tracker .gmkit-row .gmkit-wounds .gmkit-label {
  font-size: 0.7em; color: var(--gmkit-muted);
}
.gmkit-tracker .gmkit-row .gmkit-line2 { font-size: 0.8em; line-height: 1.3; }
.gmkit-tracker .gmkit-row .gmkit-line2 .gmkit-cell { margin-right: 0.5em; }
.gmkit-tracker .gmkit-row.gmkit-s1 { border-left-color: #5fb3ff; }
.gmkit-tracker .gmkit-row.gmkit-s2 { border-left-color: #ff6b6b; }
.gmkit-tracker .gmkit-row.gmkit-s3 { border-left-color: #7bd88f; }
.gmkit-tracker .gmkit-row.gmkit-s4 { border-left-color: #c792ea; }
/* who acts now: the current actor, or the side in play's members */
.gmkit-tracker .gmkit-row.gmkit-acting { background: var(--gmkit-accent); font-weight: 700; }
.gmkit-tracker .gmkit-row.gmkit-acting .widget-html-content,
.gmkit-tracker .gmkit-row.gmkit-acting .widget-html-content span,
.gmkit-tracker .gmkit-row.gmkit-acting .gmkit-acted { color: var(--gmkit-accent-fg) !important; }
.gmkit-tracker .gmkit-row.gmkit-acting .gmkit-budget,
.gmkit-tracker .gmkit-row.gmkit-acting .gmkit-reactions { display: inline-block; }
.gmkit-tracker .gmkit-row.gmkit-current { border-left-color: #ffffff; }
/* who has acted: a tick, the row faded, so who is still to act stands out */
.gmkit-tracker .gmkit-row.gmkit-done .gmkit-acted::before { content: "✓"; }
.gmkit-tracker .gmkit-row.gmkit-done:not(.gmkit-acting) { opacity: 0.6; }
/* the sides games: the side in play framed, not one yellow block; its members who have acted
   in this phase faded; a member's budget shown once selected */
.gmkit-tracker.gmkit-sides .gmkit-row.gmkit-acting {
  background: #3b3416; border-left-color: var(--gmkit-accent); font-weight: 600;
}
.gmkit-tracker.gmkit-sides .gmkit-row.gmkit-acting .widget-html-content,
.gmkit-tracker.gmkit-sides .gmkit-row.gmkit-acting .widget-html-content span {
  color: var(--gmkit-fg) !important;
}
.gmkit-tracker.gmkit-sides .gmkit-row.gmkit-acting .widget-html-content span.gmkit-acted {
  color: var(--gmkit-ok) !important;
}
.gmkit-tracker.gmkit-sides .gmkit-row.gmkit-acting.gmkit-done { opacity: 0.55; }
.gmkit-tracker.gmkit-sides .gmkit-row.gmkit-acting .gmkit-budget { display: none; }
.gmkit-tracker.gmkit-sides .gmkit-row.gmkit-acting.gmkit-selected .gmkit-budget {
  display: inline-block;
}
.gmkit-tracker .gmkit-row.gmkit-selected { outline: 2px solid #5fb3ff; outline-offset: -2px; }
.gmkit-tracker .gmkit-row.gmkit-asking { outline: 2px solid var(--gmkit-danger); }
.gmkit-tracker .gmkit-confirm {
  align-items: center; gap: 6px; padding: 2px 6px; border-left: 6px solid var(--gmkit-danger);
}
.gmkit-tracker .gmkit-confirm .widget-html {
  flex: 1 1 auto; min-width: 0; font-weight: 700; color: var(--gmkit-danger);
}
.gmkit-tracker .gmkit-confirm .widget-html-content {
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
/* the header: round and whose turn on one line where the name allows */
.gmkit-tracker.gmkit-dark .widget-html.gmkit-header { font-size: 1.3em; }
.gmkit-tracker .gmkit-confirm .jupyter-button.gmkit-confirm-remove {
  background: var(--gmkit-danger); color: #111111;
}
/* condition chips: the name, the rounds left and a remove cross */
.gmkit-tracker .jupyter-button.gmkit-chip {
  border-radius: 0.8em; border-color: var(--gmkit-warn); color: var(--gmkit-fg);
  padding: 0 0.5em; white-space: nowrap;
}
.gmkit-tracker .gmkit-row.gmkit-acting .jupyter-button.gmkit-chip {
  background: var(--gmkit-panel); color: var(--gmkit-fg);
}
/* Undo / Redo: what they take back, a line of their own (Undo the wider), clipped */
.gmkit-tracker .jupyter-button.gmkit-undo, .gmkit-tracker .jupyter-button.gmkit-redo {
  min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: left;
}
.gmkit-tracker .jupyter-button.gmkit-undo { flex: 3 1 55%; max-width: 66%; }
.gmkit-tracker .jupyter-button.gmkit-redo { flex: 1 1 25%; max-width: 40%; }
</style>
"""


def tracker_style_widget() -> widgets.HTML:
    """A new HTML widget carrying :data:`TRACKER_STYLE` (among the tracker's children)."""
    return widgets.HTML(TRACKER_STYLE, layout=widgets.Layout(display="none"))


__all__ = ["TRACKER_STYLE", "tracker_style_widget"]
