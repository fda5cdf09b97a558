"""The dashboard's layout, for a screen at the table.

From 1366x768 up (a laptop, 1920x1080, a TV) the page is one screen that never scrolls as a
whole: the top bar, then two columns that scroll each on its own. The left one holds the
tracker, always in view (it scrolls inside itself when the fight is long), and under it the
panes (the turn, the log, the units). The right one holds the attack panel: its choices in a
grid, the commands right under them, then the result and the odds side by side, so the
choices, Resolve, the result and the odds are seen together. Below 1100 px wide or 600 px
high (a tablet, a small window) the columns stack and the page scrolls as usual.

Every label takes the width of its words (no clipping, in English or in Spanish).
"""

from __future__ import annotations

import re

__all__ = ["DASHBOARD_STYLE", "compact_css"]


def compact_css(text: str) -> str:
    """``text`` (CSS in ``<style>`` tags) as the page reads it, shorter: without comments,
    each run of whitespace one space, none around braces and semicolons (no gmkit rule
    holds a quoted string, where spaces would count)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"\s*([{};])\s*", r"\1", text).strip()


DASHBOARD_STYLE = """
<style>
.gmkit-dashboard {
  font-size: 15px; box-sizing: border-box; height: calc(100vh - 4px); max-width: 3000px;
  display: flex; flex-direction: column; overflow: clip; padding: 4px 8px; margin: 0;
}
.gmkit-dashboard > * { flex: 0 0 auto; }
.gmkit-dashboard .gmkit-topbar { align-items: center; gap: 0.8em; flex-wrap: wrap; }
.gmkit-dashboard .gmkit-topbar { flex-wrap: nowrap; }
.gmkit-dashboard .gmkit-topbar h1 { font-size: 1.3em; margin: 0 0.4em 0 0; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; }
.gmkit-dashboard .gmkit-topbar > .widget-html { flex: 0 1 auto; min-width: 0; overflow: hidden; }
.gmkit-dashboard .gmkit-topbar > .widget-html .widget-html-content { overflow: hidden; }
.gmkit-dashboard .gmkit-topbar > .widget-dropdown,
.gmkit-dashboard .gmkit-topbar > .widget-toggle-buttons { flex: 0 0 auto; }
.gmkit-dashboard .gmkit-grid {
  flex: 1 1 auto; min-height: 0;
  display: grid; grid-template-columns: minmax(26em, 40%) minmax(0, 1fr);
  gap: 12px; align-items: stretch;
}
.gmkit-dashboard .gmkit-column { min-width: 0; min-height: 0; overflow-y: auto; }
/* in a column that scrolls, a box keeps its height: it never shrinks to fit */
.gmkit-dashboard .gmkit-column .widget-vbox > *, .gmkit-dashboard .gmkit-column > * {
  flex-shrink: 0; }
/* clipped, not hidden: a box that clips can never be scrolled (a field focused, a click)
   and take the top bar or the tracker's header off the screen */
.gmkit-dashboard .gmkit-left { display: flex; flex-direction: column; overflow: clip; }
/* the tracker takes the height of its rows first, the panes what is left (never less than
   12em); only a fight too long for that scrolls, and then only its rows: the header, Next and
   Undo stay put. Nothing the panes hold (a long log, the turn's forms) shrinks the tracker. */
.gmkit-dashboard .gmkit-left > .gmkit-tracker {
  flex: 0 1 auto; min-height: 0; max-height: calc(100% - 12em); display: flex;
  flex-direction: column; overflow: clip; padding: 4px 6px; }
.gmkit-dashboard .gmkit-left > .gmkit-tracker > * { flex: 0 0 auto; }
.gmkit-dashboard .gmkit-left > .gmkit-tracker > .gmkit-rows {
  flex: 0 1 auto; min-height: 0; max-height: none !important; overflow-x: hidden !important;
  overflow-y: auto !important; }
.gmkit-dashboard .gmkit-left > .gmkit-panes { flex: 1 1 0; min-height: 12em; overflow: clip; }
/* once the fight has begun (Start off): no Start, no Roll initiative (unless it is on), no
   typed initiative dice; Previous and Next as wide as their words */
.gmkit-dashboard .gmkit-tracker .jupyter-button.gmkit-start:disabled,
.gmkit-dashboard .gmkit-tracker:has(.gmkit-start:disabled) .jupyter-button.gmkit-roll:disabled,
.gmkit-dashboard .gmkit-tracker:has(.gmkit-start:disabled):has(.gmkit-roll:disabled)
  .gmkit-dice-values { display: none; }
.gmkit-dashboard .gmkit-tracker .gmkit-toolbar { gap: 0 4px; }
.gmkit-dashboard .gmkit-tracker .gmkit-toolbar > .jupyter-button { margin: 2px 0; }
.gmkit-dashboard .gmkit-tracker .jupyter-button.gmkit-previous,
.gmkit-dashboard .gmkit-tracker .jupyter-button.gmkit-next { width: auto; min-width: 6.5em; }
/* ... and Undo, Redo on the same line: Undo takes what is left, its words clipped (the whole
   text is its tooltip) */
.gmkit-dashboard .gmkit-tracker .jupyter-button.gmkit-undo { flex: 1 1 8em; max-width: none; }
.gmkit-dashboard .gmkit-tracker .jupyter-button.gmkit-redo {
  flex: 0 1 auto; width: auto; max-width: 9em; }
.gmkit-dashboard .gmkit-panes { display: flex; flex-direction: column; }
.gmkit-dashboard .gmkit-pane-buttons { flex: 0 0 auto; margin: 4px 0; }
.gmkit-dashboard .gmkit-pane-body { flex: 1 1 auto; min-height: 0; overflow-y: auto; }
/* the turn pane: the actions' buttons small and close together; folded away while the
   actions' controls are open (they list the same actions), so Do it is in view */
.gmkit-dashboard .gmkit-turn-panel .gmkit-quick-actions { gap: 3px 4px; margin: 2px 0; }
.gmkit-dashboard .gmkit-turn-panel .gmkit-quick-actions > * { margin: 0; }
.gmkit-dashboard .gmkit-turn-panel .gmkit-quick-actions .jupyter-button {
  height: auto; line-height: 1.35; padding: 2px 8px; font-size: 0.9em; }
.gmkit-dashboard .gmkit-turn-panel.gmkit-actions-open .gmkit-quick-actions { display: none; }
.gmkit-dashboard .gmkit-action-controls .widget-text input[type="number"] {
  width: 4.5em; flex: 0 0 4.5em; }
.gmkit-dashboard .widget-html, .gmkit-dashboard .widget-label { font-size: inherit; }
.gmkit-dashboard .gmkit-attack .widget-html-content, .gmkit-dashboard .gmkit-sheet-slot,
.gmkit-dashboard .gmkit-players { color: var(--gmkit-fg); }
.gmkit-dashboard .gmkit-sheet table th { color: var(--gmkit-muted); font-weight: 500; }
.gmkit-dashboard .lm-TabBar-tab, .gmkit-dashboard .p-TabBar-tab {
  background: var(--gmkit-panel); color: var(--gmkit-fg); font-size: 1em; min-width: 7em;
}
.gmkit-dashboard .lm-TabBar-tab.lm-mod-current { background: var(--gmkit-accent);
  color: var(--gmkit-accent-fg); }
.gmkit-dashboard .widget-tab-contents, .gmkit-dashboard .lm-TabPanel-stackedPanel {
  background: var(--gmkit-bg); border-color: #3a4150; }
.gmkit-dashboard .gmkit-slot-title { font-size: 1.1em; font-weight: 600; margin: 0.3em 0; }

/* a defender's player asked for the reaction (above the attack panel) */
.gmkit-dashboard .gmkit-asking { border: 2px solid var(--gmkit-accent); border-radius: 4px;
  padding: 0 0.5em; margin-bottom: 0.3em; align-items: center; font-size: 1.05em; }

/* the attack panel */
.gmkit-dashboard .gmkit-choices {
  display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr) minmax(0, 1fr);
  gap: 2px 12px;
}
.gmkit-dashboard .gmkit-choices > .widget-inline-hbox { width: auto; min-width: 0; margin: 2px 0; }
.gmkit-dashboard .gmkit-choices select, .gmkit-dashboard .gmkit-choices input { min-width: 0; }
.gmkit-dashboard .gmkit-folds { display: flex; flex-flow: row wrap; gap: 0 2em; }
.gmkit-dashboard .gmkit-folds > .widget-vbox { flex: 0 1 auto; min-width: 0; max-width: 100%; }
.gmkit-dashboard .gmkit-folds > .widget-vbox:has(.gmkit-fold-grid) { flex-basis: 100%; }
.gmkit-dashboard .gmkit-fold-grid .widget-checkbox { width: auto; }
.gmkit-dashboard .gmkit-commands { flex-wrap: wrap; align-items: center; gap: 4px 8px;
  margin: 4px 0; }
.gmkit-dashboard .gmkit-commands > .jupyter-button { width: auto; min-width: 7em;
  font-weight: 600; }
.gmkit-dashboard .gmkit-commands .widget-checkbox { width: auto; }
.gmkit-dashboard .gmkit-commands .widget-toggle-buttons .jupyter-button { width: auto; }
.gmkit-dashboard .gmkit-outcome-grid {
  display: grid; grid-template-columns: minmax(0, 1.45fr) minmax(0, 1fr); gap: 12px;
  align-items: start;
}
.gmkit-dashboard .gmkit-result-column, .gmkit-dashboard .gmkit-odds-column { min-width: 0; }
/* nothing in the result or the odds is wider than its half: long words break, a chart
   shrinks, a wide table scrolls inside its half */
.gmkit-dashboard .gmkit-result-column *, .gmkit-dashboard .gmkit-odds-column * {
  min-width: 0; max-width: 100%; box-sizing: border-box; }
.gmkit-dashboard .gmkit-result-column .widget-html-content,
.gmkit-dashboard .gmkit-odds-column .widget-html-content {
  overflow-x: auto; overflow-wrap: break-word; white-space: normal; }
.gmkit-dashboard .gmkit-odds-column svg { height: auto; }
.gmkit-dashboard .gmkit-steps td, .gmkit-dashboard .gmkit-steps th { padding: 2px 6px; }
.gmkit-dashboard .gmkit-summary { font-size: 1.15em; margin: 0.2em 0 0.4em 0; }
.gmkit-dashboard .gmkit-steps { font-size: 0.88em; }
.gmkit-dashboard .widget-inline-hbox .widget-label { max-width: none; }

/* below a laptop's screen: the columns stack and the page scrolls */
@media (max-width: 1100px), (max-height: 600px) {
  .gmkit-dashboard { height: auto; overflow: visible; }
  .gmkit-dashboard .gmkit-grid { grid-template-columns: minmax(0, 1fr); }
  .gmkit-dashboard .gmkit-column, .gmkit-dashboard .gmkit-left,
  .gmkit-dashboard .gmkit-left > .gmkit-tracker, .gmkit-dashboard .gmkit-pane-body {
    overflow: visible; max-height: none; }
  .gmkit-dashboard .gmkit-choices { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .gmkit-dashboard .gmkit-outcome-grid { grid-template-columns: minmax(0, 1fr); }
}
/* a laptop's short screen (768 px high): the tracker compact (smaller type, lower rows), so
   every row of a ten-combatant fight fits over the turn's forms */
@media (min-width: 1101px) and (min-height: 601px) and (max-height: 820px) {
  .gmkit-dashboard .gmkit-left > .gmkit-tracker {
    font-size: 16px; --jp-widgets-inline-height: 24px; }
  .gmkit-dashboard .gmkit-tracker.gmkit-dark .widget-html.gmkit-header { font-size: 1.25em; }
}
@media (min-width: 1800px) { .gmkit-dashboard { font-size: 19px; } }
@media (min-width: 2600px) { .gmkit-dashboard { font-size: 24px; } }
</style>
"""
