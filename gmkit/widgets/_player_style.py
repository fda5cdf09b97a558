"""The look of the players' page (:mod:`gmkit.widgets._player`): big type for a TV across the
table, and on a phone (up to 640 px wide) a card per combatant, so nothing is ever wider than
the screen: no sideways scroll, every combatant's wounds and conditions in sight.

Scoped under ``.gmkit-player``; the theme's colours are :mod:`gmkit.widgets._style`'s
(``STYLE``, put on the page before this). The table's cells carry their column's label
(``data-label``) so a card can show it beside the value.
"""

from __future__ import annotations

__all__ = ["PHONE_MAX_WIDTH", "PLAYER_STYLE"]

PHONE_MAX_WIDTH = 640
"""Up to this width (CSS px) the combatants show as cards, one under another."""

PLAYER_STYLE = (
    """
<style>
.gmkit-player { font-size: 20px; box-sizing: border-box; max-width: 100%; min-width: 0; }
.gmkit-player * { box-sizing: border-box; }
.gmkit-player .widget-html, .gmkit-player .widget-html > .widget-html-content {
  font-size: inherit; max-width: 100%; min-width: 0; }
.gmkit-player .widget-html > .widget-html-content { line-height: 1.4; white-space: normal; }
.gmkit-player .gmkit-player-bar { justify-content: space-between; align-items: center;
  flex-wrap: wrap; max-width: 100%; }
.gmkit-player .gmkit-player-title h2 { margin: 0.1em 0; font-size: 1.2em;
  overflow-wrap: anywhere; color: var(--gmkit-muted); }
.gmkit-player .gmkit-player-languages .widget-toggle-button { font-size: 0.7em; }
.gmkit-player h2.gmkit-player-header { margin: 0.2em 0 0.4em; font-size: 1.6em; line-height: 1.25; }
.gmkit-player .gmkit-player-part { display: inline-block; overflow-wrap: anywhere;
  max-width: 100%; }
.gmkit-player .gmkit-player-sep { color: var(--gmkit-muted); white-space: pre; }
.gmkit-player .gmkit-now { color: var(--gmkit-accent); font-weight: 700; }
.gmkit-player .gmkit-seat { max-width: 100%; box-sizing: border-box; }
.gmkit-player .gmkit-seat .widget-dropdown, .gmkit-player .gmkit-seat .widget-text {
  max-width: 100%; box-sizing: border-box; }
.gmkit-player .gmkit-your-turn { background: var(--gmkit-accent); color: #111; font-weight: 700;
  font-size: 1.25em; padding: 0.3em 0.5em; border-radius: 4px; margin: 0.2em 0; }
.gmkit-player .gmkit-seat-odds b { font-size: 1.2em; }
.gmkit-player .gmkit-seat-attack .widget-dropdown { width: auto; margin-right: 0; }
.gmkit-player .gmkit-seat-attack .widget-dropdown select { min-width: 0; }
.gmkit-player .gmkit-seat-attack .widget-text { min-width: 0; }
.gmkit-player .gmkit-seat-attack .widget-button { flex: 0 0 auto; margin-right: 0; }
.gmkit-player .gmkit-seat-react { border: 3px solid var(--gmkit-danger); border-radius: 6px;
  padding: 0.3em 0.5em; margin: 0.2em 0; max-width: 100%; box-sizing: border-box; }
.gmkit-player .gmkit-seat-hit { font-weight: 700; font-size: 1.2em; color: var(--gmkit-danger); }
.gmkit-player .gmkit-seat-react .widget-button { font-size: 1.1em; height: 2.4em; }
.gmkit-player tr.gmkit-acted td.gmkit-pc-name { opacity: 0.7; }
.gmkit-player .gmkit-acted-mark { color: var(--gmkit-muted); font-weight: 400; margin-left: 0.3em; }
.gmkit-player .gmkit-enemy-acts { color: var(--gmkit-danger); font-style: italic; }
.gmkit-player table { border-collapse: collapse; width: 100%; table-layout: fixed; }
.gmkit-player th:nth-child(1) { width: 34%; }  /* a sheet opened under a name stays there */
.gmkit-player th:nth-child(2) { width: 22%; }
.gmkit-player th:nth-child(3) { width: 14%; }
.gmkit-player th:nth-child(4) { width: 30%; }
.gmkit-player th { text-align: left; border-bottom: 2px solid #3a4150; padding: 4px 10px; }
.gmkit-player td { padding: 4px 10px; border-bottom: 1px solid #2a2f3a; vertical-align: top;
  overflow-wrap: anywhere; }
.gmkit-player td.gmkit-pc-name { font-weight: 600; }
.gmkit-player tr.gmkit-current td { background: var(--gmkit-accent); color: #111 !important;
  font-weight: 700; }
.gmkit-player tr.gmkit-current details { color: #333; }
.gmkit-player tr.gmkit-friend td.gmkit-pc-name { color: var(--gmkit-ok); }
.gmkit-player tr.gmkit-current.gmkit-friend td.gmkit-pc-name { color: #111; }
.gmkit-player .gmkit-down { color: var(--gmkit-danger); font-weight: 700; }
.gmkit-player tr.gmkit-current .gmkit-down { color: #8b0000; }
.gmkit-player details { font-size: 0.75em; color: var(--gmkit-muted); font-weight: 400; }
.gmkit-player .gmkit-player-log { font-size: 0.85em; }
.gmkit-player .gmkit-player-log h3 { margin: 0.6em 0 0.2em; }
.gmkit-player .gmkit-player-log ul { padding-left: 1.2em; margin: 0; }
.gmkit-player .gmkit-player-log li { margin: 0.15em 0; overflow-wrap: anywhere; }
@media (min-width: 1600px) {  /* a TV across the table */
  .gmkit-player { font-size: 26px; }
}
@media (max-width: """
    + str(PHONE_MAX_WIDTH)
    + """px) {  /* a phone: a card per combatant */
  .gmkit-player { font-size: 17px; padding: 6px; }
  .gmkit-player h2.gmkit-player-header { font-size: 1.5em; }
  .gmkit-player .gmkit-player-part { display: block; }
  .gmkit-player .gmkit-player-sep { display: none; }
  .gmkit-player table, .gmkit-player tbody, .gmkit-player tr, .gmkit-player td {
    display: block; width: 100%; }
  .gmkit-player tr.gmkit-player-heads { display: none; }
  .gmkit-player tr { display: flex; flex-wrap: wrap; align-items: baseline;
    border: 1px solid #3a4150; border-radius: 6px; margin: 0 0 6px; padding: 4px 0; }
  .gmkit-player td.gmkit-pc-name { flex: 1 1 auto; width: auto; }
  .gmkit-player td.gmkit-pc-side { flex: 0 1 auto; width: auto; text-align: right; }
  .gmkit-player tr.gmkit-current { background: var(--gmkit-accent); }
  .gmkit-player td { border-bottom: none; padding: 1px 10px; }
  .gmkit-player td.gmkit-pc-name { font-size: 1.1em; }
  .gmkit-player td.gmkit-pc-side { font-size: 0.8em; color: var(--gmkit-muted); }
  .gmkit-player td.gmkit-pc-wounds::before, .gmkit-player td.gmkit-pc-conditions::before {
    content: attr(data-label) ": "; color: var(--gmkit-muted); font-weight: 400; }
  .gmkit-player tr.gmkit-current td::before { color: #333 !important; }
}
</style>
"""
)
