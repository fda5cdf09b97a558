// Keyboard shortcuts of the table (gmkit.widgets.shortcuts.Shortcuts): document-level keys
// -> named actions sent to Python. One listener per widget model, however many times it is
// displayed (it lives in initialize, not render), removed when the widget is closed. A plain
// key is ignored while the focus is in a text box, a select or an editable element; a Ctrl
// (or Cmd) combination is not. Auto-repeat is ignored: holding N passes one turn.
//
// In a box: Esc leaves it (its value sent, as a click elsewhere would), so the keys work
// again; Enter in a box of a scope the bindings name ("enter") leaves it and asks for that
// action (the distance typed, Enter: resolved). These listen in the capture phase: the
// widgets' own text boxes stop their keys from reaching the document.
//
// Python may ask (a custom message {reveal: selector}) for an element to be scrolled into view
// within the boxes that scroll around it (the tracker's rows), never the page as a whole.

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

function reveal(el) {
  // each box that scrolls around el moved as little as shows it whole (its top, if too tall)
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    const overflow = getComputedStyle(box).overflowY;
    if (!(overflow === "auto" || overflow === "scroll")) continue;
    if (box.scrollHeight <= box.clientHeight) continue;
    const outer = box.getBoundingClientRect();
    const inner = el.getBoundingClientRect();
    const top = outer.top + box.clientTop;
    const bottom = top + box.clientHeight;
    if (inner.top < top) box.scrollTop -= top - inner.top;
    else if (inner.bottom > bottom) box.scrollTop += Math.min(inner.bottom - bottom, inner.top - top);
  }
}

function revealSoon(selector, tries = 30) {
  // the element may arrive a few frames after the message (a view being made), and the
  // widgets made with it (an action's inputs) may move it: shown once found, again 300 ms on
  requestAnimationFrame(() => {
    const found = [...document.querySelectorAll(selector)].filter((el) => el.offsetParent);
    if (!found.length) {
      if (tries > 0) revealSoon(selector, tries - 1);
      return;
    }
    found.forEach(reveal);
    if (tries >= 0) setTimeout(() => revealSoon(selector, -1), 300);
  });
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
  const inBox = (event) => {
    const target = event.target;
    if (event.repeat || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!typing(target)) return;
    if (event.key === "Escape") {
      event.preventDefault();
      target.blur(); // its value is sent as it leaves ("change")
      return;
    }
    if (event.key !== "Enter" || target.tagName.toLowerCase() === "textarea") return;
    const scopes = model.get("enter") || {};
    const scope = Object.keys(scopes).find((one) => target.closest(one));
    if (scope === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    target.blur(); // the value first, then the action
    model.send({ action: scopes[scope] });
  };
  const onMessage = (message) => {
    if (message && typeof message.reveal === "string") revealSoon(message.reveal);
  };
  const options = signal ? { signal } : undefined;
  document.addEventListener("keydown", onKey, options);
  document.addEventListener("keydown", inBox, { capture: true, ...(options || {}) });
  model.on("msg:custom", onMessage);
  return () => {
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("keydown", inBox, { capture: true });
    model.off("msg:custom", onMessage);
  };
}

function render({ el }) {
  el.classList.add("gmkit-shortcuts");
  el.style.display = "none";
}

export default { initialize, render };
