// The table's dice, typed: a box per die (gmkit.widgets.dice_entry.DiceEntry).
//
// The boxes belong to the browser: what is typed stays in them, and the whole list is sent
// to Python ("values") whenever a box is left (Tab, Enter, space, a click elsewhere), so no
// entry is lost at any typing speed. Python sets the labels ("slots"), whether a spare box is
// offered for a die the rules may still ask for ("more") and the marks of refused values;
// it empties the boxes only with the "clear" message.

function faceOk(text, sides) {
  if (!sides) return true; // a spare box: its die is not known yet
  if (!/^[0-9]+$/.test(text)) return false;
  let value = parseInt(text, 10);
  if (value === 0 && (sides === 10 || sides === 100)) value = sides; // "0" and "00" read 10, 100
  return value >= 1 && value <= sides;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "gmkit-dice-entry";
  root.setAttribute("role", "group");
  const note = document.createElement("div");
  note.className = "gmkit-dice-note";
  note.style.whiteSpace = "pre-line"; // the plan's lines: needed now, then what may follow
  el.append(root, note);
  const boxes = [];

  const held = () => {
    const list = boxes.map((box) => box.input.value.trim());
    while (list.length && list[list.length - 1] === "") list.pop();
    return list;
  };

  function commit() {
    const list = held();
    const old = model.get("values") || [];
    if (list.length !== old.length || list.some((value, i) => value !== old[i])) {
      model.set("values", list);
      model.save_changes();
    }
  }

  function mark(box, index) {
    const slot = (model.get("slots") || [])[index];
    const text = box.input.value.trim();
    const refused = (model.get("marks") || {})[String(index)];
    const bad = (text !== "" && !faceOk(text, slot ? slot.sides : 0)) || Boolean(refused);
    box.wrap.classList.toggle("gmkit-die-bad", bad);
    box.input.setAttribute("aria-invalid", bad ? "true" : "false");
    box.input.title = bad ? refused || (model.get("texts") || {}).bad || "" : "";
  }

  function focusBox(index) {
    if (index < boxes.length) boxes[index].input.focus();
  }

  function addBox() {
    const index = boxes.length;
    const wrap = document.createElement("label");
    wrap.className = "gmkit-die";
    const label = document.createElement("span");
    label.className = "gmkit-die-label";
    const input = document.createElement("input");
    input.type = "text";
    input.inputMode = "numeric";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.className = "gmkit-die-input";
    wrap.append(label, input);
    root.appendChild(wrap);
    const box = { wrap, label, input };
    boxes.push(box);
    input.addEventListener("input", () => {
      if (/[\s,;]/.test(input.value)) spread(box, input.value); // "53 7" typed in one box
      else mark(box, boxes.indexOf(box));
    });
    input.addEventListener("change", commit);
    input.addEventListener("blur", () => {
      commit();
      layout(); // a spare box left empty goes once the rules ask for no more
    });
    input.addEventListener("keydown", (event) => {
      const here = boxes.indexOf(box);
      if (event.key === "Tab" && !event.shiftKey) {
        // the next box exists before the browser moves the focus (no value typed past it)
        if (input.value.trim() !== "") ensure(here + 2);
        commit();
      } else if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        if (input.value.trim() !== "") ensure(here + 2);
        commit();
        focusBox(here + 1);
      }
    });
    input.addEventListener("paste", (event) => {
      const text = (event.clipboardData || window.clipboardData).getData("text");
      if (!/[\s,;]/.test(text.trim())) return;
      event.preventDefault();
      spread(box, text);
    });
    return box;
  }

  function spread(box, text) {
    // several values at once (pasted, or typed with separators): one per box from this one
    const parts = text.split(/[\s,;]+/).filter((part) => part !== "");
    const here = boxes.indexOf(box);
    box.input.value = "";
    while (boxes.length < here + parts.length) addBox(); // a box for every value: none dropped
    parts.forEach((part, i) => {
      boxes[here + i].input.value = part;
    });
    ensure(here + parts.length + 1);
    commit();
    layout();
    focusBox(Math.min(here + parts.length, boxes.length - 1));
  }

  function ensure(count) {
    // boxes beyond the slots exist only while the rules may ask for more (or hold values)
    const slots = model.get("slots") || [];
    const wanted = model.get("more") ? count : Math.min(count, slots.length);
    while (boxes.length < wanted) addBox();
    layout();
  }

  function layout() {
    const slots = model.get("slots") || [];
    const texts = model.get("texts") || {};
    let filled = 0;
    boxes.forEach((box, i) => {
      if (box.input.value.trim() !== "") filled = i + 1;
    });
    const values = model.get("values") || [];
    let count = Math.max(slots.length, values.length, filled);
    if (model.get("more")) count = Math.max(count, filled + 1, slots.length + 1);
    while (boxes.length < count) addBox();
    // a spare box goes when it is empty and the rules ask for no more (what is typed stays)
    while (boxes.length > count) {
      const last = boxes[boxes.length - 1];
      if (last.input.value.trim() !== "") break;
      boxes.pop();
      last.wrap.remove();
    }
    boxes.forEach((box, i) => {
      const slot = slots[i];
      const spare = !slot && i >= values.length && box.input.value.trim() === "";
      box.label.textContent = slot ? slot.label : spare ? texts.next || "" : texts.unused || "";
      box.wrap.classList.toggle("gmkit-die-spare", !slot);
      box.wrap.dataset.index = String(i);
      box.input.setAttribute("aria-label", box.label.textContent);
      mark(box, i);
    });
    root.setAttribute("aria-label", texts.group || "");
    note.textContent = model.get("note") || "";
    note.hidden = !note.textContent;
  }

  function fromModel() {
    // values Python holds (enter, or another view of the same widget) into the boxes not in use
    const values = model.get("values") || [];
    ensure(values.length);
    boxes.forEach((box, i) => {
      if (document.activeElement !== box.input) box.input.value = values[i] ?? box.input.value;
    });
    layout();
  }

  function onMessage(message) {
    if (message && message.type === "clear") {
      boxes.forEach((box) => {
        box.input.value = "";
      });
      layout();
      if (model.get("values").length) {
        model.set("values", []);
        model.save_changes();
      }
      if (message.focus) focusBox(0);
    } else if (message && message.type === "focus") {
      const values = held();
      focusBox(Math.min(values.length, boxes.length - 1));
    }
  }

  const listeners = [
    ["change:values", fromModel],
    ...["slots", "more", "marks", "texts", "note"].map((name) => [`change:${name}`, layout]),
    ["msg:custom", onMessage],
  ];
  for (const [event, handler] of listeners) model.on(event, handler);
  fromModel();
  return () => {
    for (const [event, handler] of listeners) model.off(event, handler);
  };
}

export default { render };
