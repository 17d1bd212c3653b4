// The ragmetrics widget kit: what every ragmetrics widget does the same way.
// ragmetrics/widgets/base.py puts this file in front of each widget's own ES module (no
// build step, no import), so every widget, present and future, gets the same rules:
// - a root that keeps its keys: JupyterLab's command mode must not take the arrow keys
//   of a slider, a list or a dropdown (`data-lm-suppress-shortcuts`);
// - one polite live region per widget root, fed by the `announcement` trait (Python
//   says what changed; the browser only shows it);
// - DOM updates that never take the focused element out of the document, so focus
//   survives every redraw;
// - elements built from text only: titles and ids are untrusted, so they only ever go
//   through textContent and setAttribute.
// Colours come from theme.css (JupyterLab's theme variables, with fallbacks).
// It also holds the pieces that more than one widget needs, written once: the labelled
// range (rmRange), buttons that stay focusable when they do not apply (rmButton,
// rmDisable), the reorderable ranked list (rmRankList: RankingBoard and the
// precision-recall explorer), sending to Python (rmSend, rmSendValue, rmRequester), the
// time stamps the browser tests read (rmMark), and the event wiring that render returns
// the undoing of (rmListen, rmOnResize).
// Names: every name here starts with rm or RM_, so that a widget's own module-level
// functions (drawList, drawPlot, ...) never clash with the kit's.

const RM_SVG_NS = "http://www.w3.org/2000/svg";
let rmCount = 0;

/** A page-unique id (several widgets, and several copies of this kit, share a page). */
function rmId(prefix) {
  rmCount += 1;
  return `${prefix}-${rmCount}-${Math.random().toString(36).slice(2, 8)}`;
}

// Elements a learner can focus. Each is marked so that JupyterLab and Notebook 7 leave
// its keys alone (see rmKeepKeys): Notebook 7 runs its shortcuts before the page sees the
// key, so marking the root alone is not enough when the focused element matches one.
const RM_FOCUSABLE = new Set(["button", "input", "select", "textarea"]);

/** An element with attributes and children; "text" sets textContent, never HTML. */
function rmEl(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  if (RM_FOCUSABLE.has(tag) || "tabindex" in props) node.setAttribute("data-lm-suppress-shortcuts", "true");
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key === "draggable") node.draggable = Boolean(value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/** An SVG element with attributes. */
function rmSvgEl(tag, attrs = {}) {
  const node = document.createElementNS(RM_SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// The keys a control acts on by itself (a select's arrows, a button's Enter and Space).
const RM_OWN_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End",
                             "PageUp", "PageDown", "Enter", " "]);

/**
 * Keep the host page's shortcuts away from the keys a widget uses. JupyterLab skips its
 * shortcuts for targets inside an element marked `data-lm-suppress-shortcuts`, except
 * when the focused element itself matches a shortcut's selector (a focused <select> is
 * ":focus:not(:read-write)", so command mode took its arrow keys). So the focusable
 * elements are marked too (rmEl), and the keys a control acts on are also stopped at the
 * root, after the control has seen them (its default action still runs).
 */
function rmKeepKeys(el) {
  el.setAttribute("data-lm-suppress-shortcuts", "true");
  el.addEventListener("keydown", (event) => {
    if (RM_OWN_KEYS.has(event.key) && !event.ctrlKey && !event.metaKey) event.stopPropagation();
  });
}

/** Mark `el` as a widget root: theme, keys kept from the host, an optional name. */
function rmRoot(el, { classes = [], label = null } = {}) {
  el.classList.add("rm-widget", ...classes);
  rmKeepKeys(el);
  if (label) {
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", label);
  }
}

/** Mark `el` as a control inside a widget root (keys kept, no live region of its own). */
function rmControl(el, classes = []) {
  el.classList.add("rm-control", ...classes);
  rmKeepKeys(el);
}

/** Say `text` in `region`; the same text twice is said twice (cleared, then set). */
function rmAnnounce(region, text) {
  if (text && region.textContent === text) {
    region.textContent = "";
    setTimeout(() => { region.textContent = text; }, 60);
  } else {
    region.textContent = text;
  }
  region.dataset.announcedAt = String(performance.now());
}

/**
 * The widget's polite live region, kept in sync with the model's `announcement` trait.
 * Returns {region, dispose}. The text present at render is shown but not announced
 * (screen readers announce changes of a live region, not its first content).
 */
function rmLiveRegion(model, { hidden = false, classes = [] } = {}) {
  const region = rmEl("p", {
    class: ["rm-status", hidden ? "rm-visually-hidden" : "", ...classes].join(" ").trim(),
    role: "status", "aria-live": "polite", "aria-atomic": "true",
  });
  region.textContent = model.get("announcement") || "";
  const update = () => rmAnnounce(region, model.get("announcement") || "");
  model.on("change:announcement", update);
  return { region, dispose: () => model.off("change:announcement", update) };
}

/**
 * Put `nodes` in this order as the children of `parent`, without ever taking the
 * focused node (or the node holding focus) out of the document: the others are moved
 * around it. A node that is removed and re-inserted loses focus; one left in place keeps
 * it, and a screen reader stays where it was. Focus is put back if it was lost anyway.
 */
function rmReorder(parent, nodes) {
  const current = Array.from(parent.children);
  if (current.length === nodes.length && current.every((node, i) => node === nodes[i])) return;
  const active = document.activeElement;
  const pinned = nodes.find((node) => node === active || node.contains(active));
  if (!pinned) {
    nodes.forEach((node) => parent.appendChild(node));
    return;
  }
  const at = nodes.indexOf(pinned);
  for (let i = 0; i < at; i++) {
    if (nodes[i].nextElementSibling !== (i + 1 < at ? nodes[i + 1] : pinned)) {
      parent.insertBefore(nodes[i], pinned);
    }
  }
  for (let i = at + 1; i < nodes.length; i++) {
    if (nodes[i - 1].nextElementSibling !== nodes[i]) {
      parent.insertBefore(nodes[i], nodes[i - 1].nextElementSibling);
    }
  }
  for (const node of Array.from(parent.children)) if (!nodes.includes(node)) node.remove();
  if (active && active.isConnected && document.activeElement !== active) {
    active.focus({ preventScroll: true });
  }
  pinned.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

/**
 * A labelled range input: <label> name, the slider, and the value as text.
 * Arrow keys, Home and End step the value explicitly (and are kept from the host page).
 * Returns {field, input, readout, set(value, min, max)}; onChange(value) is called with
 * the new integer value when the learner moves it: on every step of a drag when
 * `continuous`, else when the pointer lets go (keys always step at once).
 */
function rmRange({ label, min, max, value, valueText = (v) => String(v), onChange,
                   continuous = true, classes = {} }) {
  const id = rmId("rm-range");
  const input = rmEl("input", {
    type: "range", id, min: String(min), max: String(max), step: "1", value: String(value),
    class: ["rm-range", classes.input || ""].join(" ").trim(),
  });
  const name = rmEl("label", { for: id, class: ["rm-range-name", classes.name || ""].join(" ").trim(), text: label });
  const readout = rmEl("span", { class: ["rm-range-value", classes.readout || ""].join(" ").trim(), "aria-hidden": "true" });
  const field = rmEl("div", { class: ["rm-range-field", classes.field || ""].join(" ").trim() }, name, input, readout);
  function set(v, lo = Number(input.min), hi = Number(input.max)) {
    input.min = String(lo);
    input.max = String(hi);
    input.value = String(v);
    readout.textContent = valueText(v);
    input.setAttribute("aria-valuetext", valueText(v));
  }
  input.addEventListener("input", () => {
    readout.textContent = valueText(Number(input.value));
    if (continuous) onChange(Number(input.value));
  });
  if (!continuous) input.addEventListener("change", () => onChange(Number(input.value)));
  input.addEventListener("keydown", (event) => {
    const v = Number(input.value);
    const to = { ArrowLeft: v - 1, ArrowDown: v - 1, ArrowRight: v + 1, ArrowUp: v + 1,
                 Home: Number(input.min), End: Number(input.max) }[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    const lo = Number(input.min), hi = Number(input.max);
    const next = Math.min(Math.max(lo, to), hi);
    if (next !== v) {
      input.value = String(next);
      onChange(next);
    }
  });
  set(value, min, max);
  return { field, input, readout, set };
}

/** SVG marker shapes (the same as matplotlib's "o", "s", "^", "D", "v"), centred at x, y. */
function rmMarker(shape, x, y, r, attrs = {}) {
  const pts = {
    "^": [[0, -r], [r, r * 0.8], [-r, r * 0.8]],
    "v": [[0, r], [r, -r * 0.8], [-r, -r * 0.8]],
    "D": [[0, -r], [r, 0], [0, r], [-r, 0]],
    "s": [[-r * 0.85, -r * 0.85], [r * 0.85, -r * 0.85], [r * 0.85, r * 0.85], [-r * 0.85, r * 0.85]],
  }[shape];
  if (!pts) return rmSvgEl("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: String(r * 0.9), ...attrs });
  return rmSvgEl("polygon", {
    points: pts.map(([dx, dy]) => `${(x + dx).toFixed(1)},${(y + dy).toFixed(1)}`).join(" "),
    ...attrs,
  });
}

/** A small legend sample of a series: its colour, dash and marker (decorative). */
function rmSeriesSample(style) {
  const svg = rmSvgEl("svg", { width: "26", height: "10", viewBox: "0 0 26 10", class: "rm-sample", "aria-hidden": "true", focusable: "false" });
  svg.append(
    rmSvgEl("line", { x1: "1", y1: "5", x2: "25", y2: "5", stroke: style.color, "stroke-width": "2", "stroke-dasharray": style.dash || "none" }),
    rmMarker(style.marker, 13, 5, 3.2, { fill: style.color, stroke: "none" }),
  );
  return svg;
}

/** SVG text (10 px, the text colour) at x, y; `anchor` is its text-anchor. */
function rmSvgText(text, x, y, anchor = "start") {
  const node = rmSvgEl("text", {
    x, y, "font-size": "10", fill: "currentColor", "text-anchor": anchor,
  });
  node.textContent = text;
  return node;
}

// -- talking to Python, and the timestamps the browser tests read ---------------------------

/**
 * Stamp `el` with the time of an event: `data-<name>` (dataset[name]), now or `at`. The
 * browser tests read these stamps to time a redraw (e.g. movedAt -> listDrawnAt).
 */
function rmMark(el, name, at = performance.now()) {
  el.dataset[name] = String(at);
}

/**
 * Send `changes` ({trait: value}) to Python in one message, in the order given. With
 * `root` and `stamp`, first stamp the root (rmMark) with the time it was sent.
 */
function rmSend(model, changes, { root = null, stamp = null } = {}) {
  if (root && stamp) rmMark(root, stamp);
  for (const [key, value] of Object.entries(changes)) model.set(key, value);
  model.save_changes();
}

/** Send one trait's new value (as rmSend), unless the model holds it already; true if sent. */
function rmSendValue(model, name, value, options = {}) {
  if (value === model.get(name)) return false;
  rmSend(model, { [name]: value }, options);
  return true;
}

/**
 * A sender of requests: a button press that Python acts on (a reset, a toggle), sent as a
 * dict trait. `request(trait, value)` sends {...value, [counter]: n}, n counting the
 * requests, so that the same request twice is still a change that Python sees. Options as
 * rmSend's (the stamp).
 */
function rmRequester(model, { counter = "click", root = null, stamp = null } = {}) {
  let count = 0;
  return (trait, value = {}) => {
    count += 1;
    rmSend(model, { [trait]: { ...value, [counter]: count } }, { root, stamp });
  };
}

/**
 * Call each [event, handler] of `events` on the model's events (e.g. "change:order");
 * returns the function that undoes it (what render returns): the handlers are taken off,
 * then each of `cleanups` is called.
 */
function rmListen(model, events, ...cleanups) {
  events.forEach(([name, handler]) => model.on(name, handler));
  return () => {
    events.forEach(([name, handler]) => model.off(name, handler));
    cleanups.forEach((cleanup) => cleanup());
  };
}

/** Call `onResize` whenever `el` changes size; returns the function that stops it. */
function rmOnResize(el, onResize) {
  if (typeof ResizeObserver !== "function") return () => {};
  const observer = new ResizeObserver(() => onResize());
  observer.observe(el);
  return () => observer.disconnect();
}

// -- buttons, number tables and the ranked list -------------------------------------------

/**
 * A button: `text` shown, `label` its accessible name, `title` its tooltip (none unless
 * given), "rm-btn" and `classes` its class. A press calls onPress(event), unless the
 * button is aria-disabled (rmDisable). `contained`: the click goes no further (a button
 * inside an item that a click acts on).
 */
function rmButton({ text = "", label = null, title = null, classes = "", contained = false },
                  onPress) {
  const button = rmEl("button", {
    type: "button", class: `rm-btn ${classes}`.trim(), "aria-label": label, title, text,
  });
  button.addEventListener("click", (event) => {
    if (contained) event.stopPropagation();
    if (button.getAttribute("aria-disabled") !== "true") onPress(event);
  });
  return button;
}

/**
 * Mark a button as not applying now (`off`: aria-disabled) or as applying again. Never
 * `disabled`: a disabled button leaves the tab order and drops the focus it had.
 */
function rmDisable(button, off) {
  if (off) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}

/**
 * The rows of a table of named numbers (the metrics), each made once by makeRow(key), which
 * returns {row, name, cell}, and kept, so that a screen reader stays on its row. Returns
 * update(values, names): each value ({key: number}) written with 4 decimals in its cell,
 * and its name (names[key]) in its name element; a new key gets a new row, at the end.
 */
function rmNumberRows(table, makeRow) {
  const rows = new Map(); // key -> {row, name, cell}
  return (values, names) => {
    for (const [key, value] of Object.entries(values)) {
      if (!rows.has(key)) {
        const made = makeRow(key);
        table.append(made.row);
        rows.set(key, made);
      }
      const { name, cell } = rows.get(key);
      name.textContent = names[key];
      cell.textContent = Number(value).toFixed(4);
    }
  };
}

/**
 * A ranked list that the learner reorders: the model's `order` trait (ids, best first),
 * drawn as an <ol> of items. Each item is one focusable <li> (data-item = its id), made
 * once and kept: draw() reorders the items around the focused one (rmReorder), so the
 * focused item or button never leaves the page.
 *
 * A move sets `moved` (the id) and `order` in one message, stamping root's movedAt.
 * Keys on an item: Up and Down go to the item before or after it, Alt+Up and Alt+Down move
 * it; with `ends`, Home and End go to the first and the last item; with `onActivate`,
 * Enter, Space and a click on the item call onActivate(id). Each item has its buttons
 * "Move <id> up", "Move <id> down" (and "Move <id> to top" with `toTop`); one that does
 * not apply (the first item's "up") is aria-disabled. With `draggable`, an item dropped on
 * another takes its place.
 *
 * Options
 * - prefix: the class names are `${prefix}-list`, -item, -rank, -id, -actions and -btn
 *   (the move buttons), and -dragging and -over while an item is dragged;
 * - label and describedBy: the list's accessible name and the id of its help text;
 * - build(item): the children of a new item's <li>, in order, from item = {docId, li,
 *   rank, id, actions, top, up, down} (its rank number, id text and move buttons; add
 *   what update needs to item itself).
 *
 * Returns {element, items, draw}: the <ol>, the items by id, and draw(update), which
 * puts the items in the model's order (new ones made, gone ones dropped), numbers them,
 * calls update(item, i, n) on the item at position i of n, and stamps root's listDrawnAt.
 */
function rmRankList(model, root, { prefix, label = "Ranked chunks", describedBy = null, build,
                                   toTop = false, ends = false, onActivate = null,
                                   draggable = false }) {
  const element = rmEl("ol", {
    class: `${prefix}-list`, "aria-label": label, "aria-describedby": describedBy,
  });
  const items = new Map(); // id -> item
  let dragged = null; // the id being dragged

  function moveTo(docId, to) {
    const order = [...model.get("order")];
    const from = order.indexOf(docId);
    if (from < 0 || to < 0 || to >= order.length || from === to) return;
    order.splice(from, 1);
    order.splice(to, 0, docId);
    rmSend(model, { moved: docId, order }, { root, stamp: "movedAt" });
  }

  function moveBy(docId, step) {
    moveTo(docId, model.get("order").indexOf(docId) + step);
  }

  function focusAt(index) {
    const order = model.get("order");
    items.get(order[Math.min(Math.max(index, 0), order.length - 1)])?.li.focus();
  }

  function onKey(event, li, docId) {
    if (event.target !== li) return; // keys on the buttons are the buttons' own
    const index = model.get("order").indexOf(docId);
    const plain = !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
    const key = event.key;
    let handled = true;
    if (event.altKey && key === "ArrowUp") moveBy(docId, -1);
    else if (event.altKey && key === "ArrowDown") moveBy(docId, 1);
    else if (plain && key === "ArrowUp") focusAt(index - 1);
    else if (plain && key === "ArrowDown") focusAt(index + 1);
    else if (plain && ends && key === "Home") focusAt(0);
    else if (plain && ends && key === "End") focusAt(model.get("order").length - 1);
    else if (plain && onActivate && (key === "Enter" || key === " ")) onActivate(docId);
    else handled = false;
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  function allowDrag(li, docId) {
    li.addEventListener("dragstart", (event) => {
      dragged = docId;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", docId);
      li.classList.add(`${prefix}-dragging`);
    });
    li.addEventListener("dragend", () => {
      dragged = null;
      li.classList.remove(`${prefix}-dragging`);
    });
    li.addEventListener("dragover", (event) => {
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      li.classList.add(`${prefix}-over`);
    });
    li.addEventListener("dragleave", () => li.classList.remove(`${prefix}-over`));
    li.addEventListener("drop", (event) => {
      event.preventDefault();
      li.classList.remove(`${prefix}-over`);
      const from = dragged ?? event.dataTransfer.getData("text/plain");
      moveTo(from, model.get("order").indexOf(docId));
    });
  }

  function makeItem(docId) {
    const li = rmEl("li", {
      class: `${prefix}-item`, "data-item": docId, tabindex: "0", draggable: draggable || null,
    });
    const move = (symbol, where, onPress) => rmButton({
      text: symbol, label: `Move ${docId} ${where}`, title: `Move ${docId} ${where}`,
      classes: `${prefix}-btn`, contained: true,
    }, onPress);
    const top = toTop ? move("⤒", "to top", () => moveTo(docId, 0)) : null;
    const up = move("▲", "up", () => moveBy(docId, -1));
    const down = move("▼", "down", () => moveBy(docId, 1));
    const item = {
      docId, li, top, up, down,
      rank: rmEl("span", { class: `${prefix}-rank` }),
      id: rmEl("span", { class: `${prefix}-id`, text: docId }),
      actions: rmEl("span", { class: `${prefix}-actions` }, ...[top, up, down].filter(Boolean)),
    };
    li.append(...build(item));
    if (onActivate) li.addEventListener("click", () => onActivate(docId));
    li.addEventListener("keydown", (event) => onKey(event, li, docId));
    if (draggable) allowDrag(li, docId);
    return item;
  }

  function draw(update) {
    const order = model.get("order");
    for (const docId of [...items.keys()]) if (!order.includes(docId)) items.delete(docId);
    order.forEach((docId, i) => {
      if (!items.has(docId)) items.set(docId, makeItem(docId));
      const item = items.get(docId);
      item.rank.textContent = `${i + 1}.`;
      if (item.top) rmDisable(item.top, i === 0);
      rmDisable(item.up, i === 0);
      rmDisable(item.down, i === order.length - 1);
      update(item, i, order.length);
    });
    rmReorder(element, order.map((docId) => items.get(docId).li));
    rmMark(root, "listDrawnAt");
  }

  return { element, items, draw };
}
