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
