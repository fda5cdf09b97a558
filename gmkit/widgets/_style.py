"""The look of gmkit's table widgets: one dark theme for a TV at the table, readable on a laptop.

``STYLE`` is the CSS as one ``<style>`` block; :func:`style_widget` returns an HTML widget
carrying it, which a panel puts first among its children (several copies on one page are
harmless: the rules are the same). Everything is scoped under ``.gmkit-dark`` so nothing
outside gmkit's panels changes.
"""

from __future__ import annotations

import ipywidgets as widgets

__all__ = ["STYLE", "THEME_CLASS", "style_widget"]

THEME_CLASS = "gmkit-dark"
"""The CSS class a panel's outer box carries to take the theme."""

STYLE = """
<style>
.gmkit-dark {
  --gmkit-bg: #15171c;
  --gmkit-panel: #1f232b;
  --gmkit-fg: #eceff4;
  --gmkit-muted: #9aa3b2;
  --gmkit-accent: #ffd23f;
  --gmkit-accent-fg: #111111;
  --gmkit-danger: #ff6b6b;
  --gmkit-warn: #ffb347;
  --gmkit-ok: #7bd88f;
  background: var(--gmkit-bg);
  color: var(--gmkit-fg);
  padding: 8px;
  border-radius: 6px;
  font-size: 15px;
  line-height: 1.35;
}
.gmkit-dark .widget-html-content, .gmkit-dark .widget-label { color: var(--gmkit-fg); }
.gmkit-dark .jupyter-button {
  background: var(--gmkit-panel);
  color: var(--gmkit-fg);
  border: 1px solid #3a4150;
  font-size: 1em;
}
.gmkit-dark .jupyter-button:hover { border-color: var(--gmkit-accent); }
.gmkit-dark .jupyter-button.mod-active {
  background: var(--gmkit-accent);
  color: var(--gmkit-accent-fg);
}
.gmkit-dark .jupyter-button:disabled { opacity: 0.45; }
.gmkit-dark input, .gmkit-dark select {
  background: var(--gmkit-panel) !important;
  color: var(--gmkit-fg) !important;
  border: 1px solid #3a4150 !important;
}

/* tracker: large type, one line per combatant */
.gmkit-tracker { font-size: 18px; }
.gmkit-tracker .widget-html.gmkit-header { font-size: 1.5em; font-weight: 600; }
.gmkit-tracker .gmkit-header .gmkit-now { color: var(--gmkit-accent); }
.gmkit-row {
  border-left: 6px solid transparent;
  border-radius: 4px;
  margin: 1px 0;
  align-items: center;
}
.gmkit-tracker .widget-html { font-size: inherit; }  /* ipywidgets fixes 13px otherwise */
.gmkit-tracker .widget-html > .widget-html-content { line-height: 1.4; }
.gmkit-line.gmkit-hidden { opacity: 0.7; font-style: italic; }
/* the budget shows for whoever acts now (its row's gmkit-current class); reactions once spent */
.gmkit-tracker .gmkit-row .gmkit-budget, .gmkit-tracker .gmkit-row .gmkit-reactions {
  display: none;
}
.gmkit-tracker .gmkit-row .gmkit-reactions.gmkit-spent { display: inline-block; }
.gmkit-cell { display: inline-block; margin-right: 0.8em; vertical-align: middle; }
.gmkit-init { min-width: 2.5em; text-align: right; font-variant-numeric: tabular-nums; }
.gmkit-name { min-width: 10em; font-weight: 600; }
.gmkit-side { min-width: 8em; color: var(--gmkit-muted); }
.gmkit-wounds { min-width: 7em; font-variant-numeric: tabular-nums; }
.gmkit-wounds.gmkit-down { color: var(--gmkit-danger); }
.gmkit-budget, .gmkit-reactions { color: var(--gmkit-ok); }
.gmkit-badge {
  display: inline-block;
  padding: 0 0.45em;
  margin: 0 0.2em;
  border: 1px solid var(--gmkit-muted);
  border-radius: 0.8em;
  font-size: 0.85em;
  font-weight: 500;
}
.gmkit-badge.gmkit-marker { border-color: var(--gmkit-warn); color: var(--gmkit-warn); }
.gmkit-badge.gmkit-secret { border-style: dashed; }
.gmkit-reminders { border-left: 4px solid var(--gmkit-warn); padding-left: 0.6em; }
.gmkit-reminders ul { margin: 0.2em 0; padding-left: 1.2em; }
.gmkit-message { color: var(--gmkit-muted); }
.gmkit-error { color: var(--gmkit-danger); font-weight: 600; }

/* dice tray */
.gmkit-dice-history { max-height: 22em; overflow-y: auto; }
.gmkit-dice-history .gmkit-total { font-size: 1.4em; font-weight: 700; color: var(--gmkit-accent); }
.gmkit-dice-history .gmkit-odds { color: var(--gmkit-muted); }
.gmkit-caret { background: var(--gmkit-danger); color: #000; }

/* combat log */
.gmkit-log table { border-collapse: collapse; width: 100%; font-size: 0.95em; }
.gmkit-log th { text-align: left; border-bottom: 2px solid #3a4150; padding: 2px 8px; }
.gmkit-log td { padding: 2px 8px; border-bottom: 1px solid #2a2f3a; vertical-align: top; }
.gmkit-log tr.gmkit-physical td.gmkit-rolls { color: var(--gmkit-warn); font-weight: 600; }
.gmkit-log tr.gmkit-gm td { font-style: italic; }
</style>
"""


def style_widget() -> widgets.HTML:
    """A new HTML widget carrying :data:`STYLE` (put it among a panel's children)."""
    return widgets.HTML(STYLE, layout=widgets.Layout(display="none"))
