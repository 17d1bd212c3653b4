// ChunkingExplorer front end (an anywidget ES module after the shared kit, kit.js).
// It draws the state that Python holds and reports the learner's moves back:
// - a drag of a chunk's bar, or Left/Right/Page Up/Page Down/Home/End on it, sets `cuts`
//   (the token each chunk starts at);
// - the size and overlap sliders set `size` and `overlap` (Python makes even windows);
// - the k slider sets `k`.
// It never computes a metric or a judgment: the chunk cards, the metrics and what the
// live region says come from the `view` and `announcement` traits. While a bar is
// dragged it only redraws the geometry (where each chunk starts and ends) at once.
//
// Text is text: the document is split into spans at token and evidence boundaries, each
// filled with textContent. Focus: each bar is one element, made once per chunking and
// kept; a move puts the other nodes around the focused bar (never the bar itself), so
// the bar keeps focus while it moves.

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmc"], label: "Chunking explorer" });

  const text = model.get("text");
  const tokens = model.get("tokens");
  const nTokens = tokens.length;
  const helpId = rmId("rmc-help");

  const title = rmEl("p", { class: "rmc-title", text: model.get("title") || "Document" });
  const question = rmEl("p", { class: "rmc-question" },
    rmEl("span", { class: "rmc-question-label", text: "Question: " }),
    rmEl("span", { class: "rmc-question-text", text: model.get("question") }));
  const live = rmLiveRegion(model, { classes: ["rmc-status"] });
  const size = rmRange({
    label: "chunk size", min: 1, max: nTokens, value: model.get("size"),
    valueText: (v) => `${v} tokens`, continuous: false, onChange: setSize,
    classes: { input: "rmc-size" },
  });
  const overlap = rmRange({
    label: "overlap", min: 0, max: Math.max(model.get("size") - 1, 0), value: model.get("overlap"),
    valueText: (v) => `${v} tokens`, continuous: false, onChange: setOverlap,
    classes: { input: "rmc-overlap" },
  });
  const kRange = rmRange({
    label: "chunks retrieved", min: 1, max: 10, value: model.get("k"),
    valueText: (v) => `k = ${v}`, continuous: false, onChange: setK,
    classes: { input: "rmc-k" },
  });
  const help = rmEl("p", {
    id: helpId, class: "rm-help rmc-help",
    text: "Evidence is underlined in bold; chunks alternate tints, overlaps are striped. "
      + "Each numbered bar starts a chunk: drag it, or Tab to it and press Left or Right "
      + "(one token), Page Up or Page Down (ten), Home or End.",
  });
  const textBox = rmEl("div", {
    class: "rmc-text", role: "group", "aria-label": `Document: ${model.get("title") || "text"}`,
    "aria-describedby": helpId,
  });
  const cards = rmEl("ol", { class: "rmc-chunks", "aria-label": "Chunks that hold evidence or are retrieved" });
  const others = rmEl("p", { class: "rmc-others" });
  const metricsBox = rmEl("table", { class: "rmc-metrics", "aria-label": "Metrics of the retrieved chunks" });

  const controls = rmEl("div", { class: "rmc-controls" }, size.field, overlap.field, kRange.field);
  const left = rmEl("div", { class: "rmc-left" }, title, question, controls, live.region, help, textBox);
  const right = rmEl("div", { class: "rmc-right" }, metricsBox, cards, others);
  root.append(rmEl("div", { class: "rmc-grid" }, left, right));

  // -- the document, split at token and evidence boundaries (built once) ---------------

  const evidence = model.get("evidence");
  const cutsAt = new Set([0, text.length]);
  for (const [s, e] of tokens) { cutsAt.add(s); cutsAt.add(e); }
  for (const [s, e] of evidence) { cutsAt.add(s); cutsAt.add(e); }
  const points = [...cutsAt].filter((x) => x >= 0 && x <= text.length).sort((a, b) => a - b);
  const segments = []; // {node, a, b, token}
  const firstSegment = new Array(nTokens).fill(-1); // token -> index of its first segment
  let t = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i], b = points[i + 1];
    while (t < nTokens && tokens[t][1] <= a) t++;
    // A segment in token t, or the space before it (it belongs with the next token).
    const token = Math.min(t, nTokens - 1);
    const inEvidence = evidence.some(([s, e]) => s <= a && b <= e);
    const node = rmEl("span", {
      class: inEvidence ? "rmc-seg rmc-evidence" : "rmc-seg", "data-token": String(token), text: text.slice(a, b),
    });
    if (t < nTokens && tokens[t][0] <= a && firstSegment[t] < 0) firstSegment[t] = segments.length;
    segments.push({ node, a, b, token, cls: "" });
  }
  // The space before a token goes before the bar that starts it: the bar sits on the word.
  const startMark = rmEl("span", { class: "rmc-start", "aria-hidden": "true", text: "1" });

  // -- the chunking: local cuts, bars ----------------------------------------------------

  let cuts = [...model.get("cuts")];
  let bars = []; // bars[i] starts chunk i + 1 (chunk 0 has the static start mark)
  let drag = null;

  function mark(name, at = performance.now()) {
    root.dataset[name] = String(at);
  }

  function limits(i) {
    const lo = cuts[i - 1] + 1;
    const hi = i + 1 < cuts.length ? cuts[i + 1] - 1 : nTokens - 1;
    return [lo, hi];
  }

  function word(token) {
    const [s, e] = tokens[token];
    return text.slice(s, e);
  }

  function describeBar(bar, i) {
    const [lo, hi] = limits(i);
    bar.setAttribute("aria-valuemin", String(lo + 1));
    bar.setAttribute("aria-valuemax", String(hi + 1));
    bar.setAttribute("aria-valuenow", String(cuts[i] + 1));
    bar.setAttribute("aria-valuetext", `token ${cuts[i] + 1} of ${nTokens}: ${word(cuts[i])}`);
  }

  function makeBar(i) {
    const bar = rmEl("span", {
      class: "rmc-cut", role: "slider", tabindex: "0", "aria-orientation": "horizontal",
      "aria-label": `Start of chunk ${i + 1}`, "data-chunk": String(i + 1),
    });
    bar.append(rmEl("span", { class: "rmc-cut-label", "aria-hidden": "true", text: String(i + 1) }));
    bar.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const [lo, hi] = limits(i);
      const to = { ArrowLeft: cuts[i] - 1, ArrowDown: cuts[i] - 1, ArrowRight: cuts[i] + 1,
                   ArrowUp: cuts[i] + 1, PageDown: cuts[i] - 10, PageUp: cuts[i] + 10,
                   Home: lo, End: hi }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      event.stopPropagation();
      if (moveCut(i, to, event.timeStamp)) commit(event.timeStamp);
    });
    bar.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      bar.focus({ preventScroll: true });
      bar.setPointerCapture(event.pointerId);
      drag = { i, moved: false };
      bar.classList.add("rmc-dragging");
    });
    bar.addEventListener("pointermove", (event) => {
      if (!drag || drag.i !== i) return;
      const token = tokenAt(event.clientX, event.clientY);
      if (token !== null && moveCut(i, token, event.timeStamp)) drag.moved = true;
    });
    const end = (event) => {
      if (!drag || drag.i !== i) return;
      const moved = drag.moved;
      drag = null;
      bar.classList.remove("rmc-dragging");
      if (bar.hasPointerCapture(event.pointerId)) bar.releasePointerCapture(event.pointerId);
      if (moved) commit(event.timeStamp);
    };
    bar.addEventListener("pointerup", end);
    bar.addEventListener("pointercancel", end);
    return bar;
  }

  /** The token under a point of the page (a space counts as the token after it). */
  function tokenAt(x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      if (node.classList?.contains("rmc-seg") && textBox.contains(node)) return Number(node.dataset.token);
    }
    return null;
  }

  /** Put `bar` right before `target` without moving the bar: the others move around it. */
  function place(bar, target) {
    if (bar.nextSibling === target) return;
    if (document.activeElement !== bar) {
      textBox.insertBefore(bar, target);
      return;
    }
    const order = Array.from(textBox.childNodes);
    const from = order.indexOf(bar), to = order.indexOf(target);
    if (to > from) bar.before(...order.slice(from + 1, to));
    else bar.after(...order.slice(to, from));
  }

  function targetOf(token) {
    // The bar goes before the token's first segment, after the space that precedes it.
    return segments[firstSegment[token]].node;
  }

  function layout() {
    // Every node in document order; bars before the tokens they start.
    if (!textBox.firstChild) {
      textBox.append(startMark, ...segments.map((s) => s.node));
    }
    for (let i = 1; i < cuts.length; i++) place(bars[i], targetOf(cuts[i]));
  }

  function paint() {
    // Which chunks hold each segment: the geometry only, from the cuts and the overlap.
    const o = model.get("overlap");
    const spans = cuts.map((c, i) => {
      const end = i + 1 < cuts.length ? Math.min(cuts[i + 1] + o, nTokens) : nTokens;
      return [tokens[c][0], tokens[end - 1][1]];
    });
    let first = 0;
    for (const seg of segments) {
      while (first < spans.length && spans[first][1] <= seg.a) first++;
      let count = 0, owner = -1;
      for (let j = first; j < spans.length && spans[j][0] < seg.b; j++) {
        if (spans[j][0] <= seg.a && seg.b <= spans[j][1]) {
          count++;
          if (owner < 0) owner = j;
        }
      }
      const cls = count === 0 ? "rmc-gap" : count > 1 ? "rmc-overlap" : owner % 2 ? "rmc-odd" : "rmc-even";
      if (seg.cls !== cls) {
        if (seg.cls) seg.node.classList.remove(seg.cls);
        seg.node.classList.add(cls);
        seg.cls = cls;
      }
    }
    bars.forEach((bar, i) => { if (i > 0) describeBar(bar, i); });
  }

  function rebuild() {
    for (const bar of bars) bar?.remove();
    bars = cuts.map((_, i) => (i === 0 ? null : makeBar(i)));
    layout();
    paint();
  }

  /** Move cut i to `token` on the page at once; true if it moved. */
  function moveCut(i, token, at) {
    const [lo, hi] = limits(i);
    const to = Math.min(Math.max(token, lo), hi);
    if (to === cuts[i]) return false;
    cuts[i] = to;
    place(bars[i], targetOf(to));
    paint();
    mark("movedAt", at);
    // After the browser has laid the page out again: the redraw a learner sees.
    requestAnimationFrame(() => mark("drawnAt"));
    return true;
  }

  function commit(at) {
    mark("sentAt", at);
    model.set("cuts", [...cuts]);
    model.save_changes();
  }

  function setSize(v) {
    if (v === model.get("size")) return;
    mark("sentAt");
    if (model.get("overlap") >= v) model.set("overlap", v - 1); // both in one message
    model.set("size", v);
    model.save_changes();
  }

  function setOverlap(v) {
    if (v === model.get("overlap")) return;
    mark("sentAt");
    model.set("overlap", v);
    model.save_changes();
  }

  function setK(v) {
    if (v === model.get("k")) return;
    mark("sentAt");
    model.set("k", v);
    model.save_changes();
  }

  // -- the numbers from Python -----------------------------------------------------------

  const metricCells = new Map(); // key -> {label, cell}

  function drawView() {
    const view = model.get("view");
    if (!view || !view.metrics) return;
    for (const [key, value] of Object.entries(view.metrics)) {
      if (!metricCells.has(key)) {
        const label = rmEl("th", { scope: "row", class: "rmc-metric-name" });
        const cell = rmEl("td", { class: "rmc-value", "data-metric": key });
        metricsBox.append(rmEl("tr", {}, label, cell));
        metricCells.set(key, { label, cell });
      }
      const { label, cell } = metricCells.get(key);
      label.textContent = view.labels[key];
      cell.textContent = Number(value).toFixed(4);
    }
    const shown = view.chunks.filter((c) => c.overlaps.length || c.retrieved);
    cards.replaceChildren(...shown.map((c) => card(c, view)));
    const hidden = view.chunks.length - shown.length;
    others.textContent = hidden
      ? `${hidden} other chunk${hidden === 1 ? "" : "s"} of ${view.chunks.length}: no evidence, not retrieved.`
      : `${view.chunks.length} chunk${view.chunks.length === 1 ? "" : "s"} in all.`;
    mark("updatedAt");
  }

  function card(c, view) {
    const head = `${c.label}: tokens ${c.first_token + 1}–${c.last_token + 1}, rank ${c.rank}`
      + ` (${c.score} question word${c.score === 1 ? "" : "s"})${c.retrieved ? ", retrieved" : ""}`;
    const lines = [rmEl("span", { class: "rmc-card-head", text: head })];
    for (const o of c.overlaps) {
      lines.push(rmEl("span", {
        class: "rmc-card-line",
        text: `evidence span ${o.span}: ${o.shared} characters shared, `
          + `${(100 * o.of_span).toFixed(0)}% of the span, ${(100 * o.of_chunk).toFixed(0)}% of the chunk`,
      }));
    }
    if (c.overlaps.length) {
      const yes = view.rules.filter((r) => c.relevant[r.rule]).map((r) => r.label);
      const no = view.rules.filter((r) => !c.relevant[r.rule]).map((r) => r.label);
      lines.push(rmEl("span", { class: "rmc-card-line rmc-yes", text: `relevant: ${yes.join("; ") || "under no rule"}` }));
      if (no.length) lines.push(rmEl("span", { class: "rmc-card-line", text: `not relevant: ${no.join("; ")}` }));
    } else {
      lines.push(rmEl("span", { class: "rmc-card-line", text: "no evidence: not relevant under any rule" }));
    }
    return rmEl("li", {
      class: `rmc-card${c.retrieved ? " rmc-retrieved" : ""}${c.relevant.any_overlap ? " rmc-relevant" : ""}`,
      "data-chunk": c.label,
    }, ...lines);
  }

  // -- wiring ----------------------------------------------------------------------------

  function onCuts() {
    const next = model.get("cuts");
    const same = next.length === cuts.length && next.every((c, i) => c === cuts[i]);
    if (same) return;
    const count = next.length !== cuts.length;
    cuts = [...next];
    if (count) rebuild();
    else { layout(); paint(); }
  }

  function onSize() {
    size.set(model.get("size"), 1, nTokens);
    overlap.set(model.get("overlap"), 0, Math.max(model.get("size") - 1, 0));
  }

  const events = [
    ["change:cuts", onCuts], ["change:size", onSize], ["change:overlap", () => { onSize(); paint(); }],
    ["change:k", () => kRange.set(model.get("k"), 1, 10)], ["change:view", drawView],
  ];
  events.forEach(([name, handler]) => model.on(name, handler));
  rebuild();
  drawView();
  return () => {
    events.forEach(([name, handler]) => model.off(name, handler));
    live.dispose();
  };
}

export default { render };
