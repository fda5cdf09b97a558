// Keyboard shortcuts of the table (gmkit.widgets.shortcuts.Shortcuts): document-level keys
// -> named actions sent to Python. One listener per widget model, however many times it is
// displayed (it lives in initialize, not render), removed when the widget is closed. A plain
// key is ignored while the focus is in a text box, a select or an editable element; a Ctrl
// (or Cmd) combination is not. Auto-repeat is ignored: holding N passes one turn.

function typing(target) {
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
}

function chord(event) {
  const parts = [];
  if (event.ctrlKey || event.metaKey) parts.push("ctrl");
  if (event.shiftKey) parts.push("shift");
  parts.push((event.key || "").toLowerCase());
  return parts.join("+");
}

function initialize({ model, signal }) {
  const onKey = (event) => {
    if (event.repeat || event.altKey || event.defaultPrevented) return;
    const name = chord(event);
    const action = (model.get("bindings") || {})[name];
    if (!action) return;
    const ctrl = event.ctrlKey || event.metaKey;
    if (!ctrl && typing(event.target)) return;
    event.preventDefault();
    model.send({ action });
  };
  document.addEventListener("keydown", onKey, signal ? { signal } : undefined);
  return () => document.removeEventListener("keydown", onKey);
}

function render({ el }) {
  el.classList.add("gmkit-shortcuts");
  el.style.display = "none";
}

export default { initialize, render };
