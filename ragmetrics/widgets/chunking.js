// ChunkingExplorer front end (an anywidget ES module after the shared kit, kit.js).
// It draws the state that Python holds and reports the learner's moves back:
// - a drag of a chunk's bar, or Left/Right/Page Up/Page Down/Home/End on it, sets `cuts`
//   (the token each chunk starts at);
// - the size and overlap sliders set `size` and `overlap` (Python makes even windows);
// - the k slider sets `k`;
// - the "Reset" button sets `reset_request` ({click}: Python puts back the starting
//   chunking and k).
// It never computes a metric or a judgment: the chunk cards, the metrics and what the
// live region says come from the `view` and `announcement` traits. While a bar is
// dragged it only redraws the geometry (where each chunk starts and ends) at once.
//
// Text is text: the document is split into spans at token and evidence boundaries, each
// filled with textContent. Focus: each bar is one element, made once per chunking and
// kept; a move puts the other nodes around the focused bar (never the bar itself), so
// the bar keeps focus while it moves.
//
// render only wires: buildExplorer makes the elements once and holds the local state
// (the explorer: {model, root, the parts, cuts, bars, drag}); the functions below draw it
// and send the learner's moves.

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmc"], label: "Chunking explorer" });
  const explorer = buildExplorer(model, root);
  const onSize = () => drawSizes(explorer);
  const onOverlap = () => { drawSizes(explorer); paint(explorer); };
  const onK = () => explorer.kRange.set(model.get("k"), 1, 10);
  const stop = rmListen(model, [
    ["change:cuts", () => onCuts(explorer)], ["change:size", onSize], ["change:overlap", onOverlap],
    ["change:k", onK], ["change:view", () => drawView(explorer)],
  ], explorer.live.dispose);
  rebuild(explorer);
  drawView(explorer);
  return stop;
}

// -- the elements, made once -----------------------------------------------------------

function buildExplorer(model, root) {
  const text = model.get("text");
  const tokens = model.get("tokens");
  const nTokens = tokens.length;
  const helpId = rmId("rmc-help");
  const sent = { root, stamp: "sentAt" };
  const request = rmRequester(model, sent);

  const title = rmEl("p", { class: "rmc-title", text: model.get("title") || "Document" });
  const question = rmEl("p", { class: "rmc-question" },
    rmEl("span", { class: "rmc-question-label", text: "Question: " }),
    rmEl("span", { class: "rmc-question-text", text: model.get("question") }));
  const live = rmLiveRegion(model, { classes: ["rmc-status"] });
  const size = rmRange({
    label: "chunk size", min: 1, max: nTokens, value: model.get("size"),
    valueText: (v) => `${v} tokens`, continuous: false, classes: { input: "rmc-size" },
    onChange: (v) => {
      if (v === model.get("size")) return;
      // Both in one message: an overlap must stay below the size.
      rmSend(model, model.get("overlap") >= v ? { overlap: v - 1, size: v } : { size: v }, sent);
    },
  });
  const overlap = rmRange({
    label: "overlap", min: 0, max: Math.max(model.get("size") - 1, 0), value: model.get("overlap"),
    valueText: (v) => `${v} tokens`, continuous: false, classes: { input: "rmc-overlap" },
    onChange: (v) => rmSendValue(model, "overlap", v, sent),
  });
  const kRange = rmRange({
    label: "chunks retrieved", min: 1, max: 10, value: model.get("k"),
    valueText: (v) => `k = ${v}`, continuous: false, classes: { input: "rmc-k" },
    onChange: (v) => rmSendValue(model, "k", v, sent),
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

  const resetButton = rmButton({
    text: "Reset", classes: "rmc-reset", label: "Reset the explorer to its starting chunking",
    title: "Back to the starting chunks and k",
  }, () => request("reset_request"));
  const controls = rmEl("div", { class: "rmc-controls" },
    resetButton, size.field, overlap.field, kRange.field);
  const left = rmEl("div", { class: "rmc-left" }, title, question, controls, live.region, help, textBox);
  const right = rmEl("div", { class: "rmc-right" }, metricsBox, cards, others);
  root.append(rmEl("div", { class: "rmc-grid" }, left, right));

  const { segments, firstSegment } = splitDocument(text, tokens, model.get("evidence"));
  return {
    model, root, text, tokens, nTokens, live, size, overlap, kRange, textBox, cards, others,
    segments, firstSegment,
    // The space before a token goes before the bar that starts it: the bar sits on the word.
    startMark: rmEl("span", { class: "rmc-start", "aria-hidden": "true", text: "1" }),
    drawNumbers: rmNumberRows(metricsBox, metricRow),
    cuts: [...model.get("cuts")],
    bars: [], // bars[i] starts chunk i + 1 (chunk 0 has the static start mark)
    drag: null, // {i, moved} while a bar is dragged
  };
}

/**
 * The document as spans, split at token and evidence boundaries (built once): segments
 * [{node, a, b, token, cls}] in order, and firstSegment[token], the index of a token's
 * first segment.
 */
function splitDocument(text, tokens, evidence) {
  const nTokens = tokens.length;
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
  return { segments, firstSegment };
}

/** A metric's row in the metrics table: its name and its value. */
function metricRow(key) {
  const name = rmEl("th", { scope: "row", class: "rmc-metric-name" });
  const cell = rmEl("td", { class: "rmc-value", "data-metric": key });
  return { row: rmEl("tr", {}, name, cell), name, cell };
}

// -- the chunking: local cuts, bars --------------------------------------------------------

/** The tokens cut i may move between: after the cut before it, before the cut after it. */
function limits({ cuts, nTokens }, i) {
  const lo = cuts[i - 1] + 1;
  const hi = i + 1 < cuts.length ? cuts[i + 1] - 1 : nTokens - 1;
  return [lo, hi];
}

function word({ text, tokens }, token) {
  const [s, e] = tokens[token];
  return text.slice(s, e);
}

function describeBar(explorer, bar, i) {
  const { cuts, nTokens } = explorer;
  const [lo, hi] = limits(explorer, i);
  bar.setAttribute("aria-valuemin", String(lo + 1));
  bar.setAttribute("aria-valuemax", String(hi + 1));
  bar.setAttribute("aria-valuenow", String(cuts[i] + 1));
  const text = `token ${cuts[i] + 1} of ${nTokens}: ${word(explorer, cuts[i])}`;
  bar.setAttribute("aria-valuetext", text);
}

/** The bar that starts chunk i + 1: a slider, moved by keys or dragged. */
function makeBar(explorer, i) {
  const bar = rmEl("span", {
    class: "rmc-cut", role: "slider", tabindex: "0", "aria-orientation": "horizontal",
    "aria-label": `Start of chunk ${i + 1}`, "data-chunk": String(i + 1),
  });
  bar.append(rmEl("span", { class: "rmc-cut-label", "aria-hidden": "true", text: String(i + 1) }));
  bar.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const cut = explorer.cuts[i];
    const [lo, hi] = limits(explorer, i);
    const to = { ArrowLeft: cut - 1, ArrowDown: cut - 1, ArrowRight: cut + 1,
                 ArrowUp: cut + 1, PageDown: cut - 10, PageUp: cut + 10,
                 Home: lo, End: hi }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    if (moveCut(explorer, i, to, event.timeStamp)) commit(explorer, event.timeStamp);
  });
  bar.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    bar.focus({ preventScroll: true });
    bar.setPointerCapture(event.pointerId);
    explorer.drag = { i, moved: false };
    bar.classList.add("rmc-dragging");
  });
  bar.addEventListener("pointermove", (event) => {
    const { drag } = explorer;
    if (!drag || drag.i !== i) return;
    const token = tokenAt(explorer.textBox, event.clientX, event.clientY);
    if (token !== null && moveCut(explorer, i, token, event.timeStamp)) drag.moved = true;
  });
  const end = (event) => {
    const { drag } = explorer;
    if (!drag || drag.i !== i) return;
    explorer.drag = null;
    bar.classList.remove("rmc-dragging");
    if (bar.hasPointerCapture(event.pointerId)) bar.releasePointerCapture(event.pointerId);
    if (drag.moved) commit(explorer, event.timeStamp);
  };
  bar.addEventListener("pointerup", end);
  bar.addEventListener("pointercancel", end);
  return bar;
}

/** The token under a point of the page (a space counts as the token after it). */
function tokenAt(textBox, x, y) {
  for (const node of document.elementsFromPoint(x, y)) {
    if (node.classList?.contains("rmc-seg") && textBox.contains(node)) return Number(node.dataset.token);
  }
  return null;
}

/** Put `bar` right before `target` without moving the bar: the others move around it. */
function place(textBox, bar, target) {
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

/** The node a bar starting `token` goes before: its first segment, after the space. */
function targetOf({ segments, firstSegment }, token) {
  return segments[firstSegment[token]].node;
}

/** Every node in document order; bars before the tokens they start. */
function layout(explorer) {
  const { textBox, startMark, segments, cuts, bars } = explorer;
  if (!textBox.firstChild) {
    textBox.append(startMark, ...segments.map((s) => s.node));
  }
  for (let i = 1; i < cuts.length; i++) place(textBox, bars[i], targetOf(explorer, cuts[i]));
}

/** Which chunks hold each segment: the geometry only, from the cuts and the overlap. */
function paint(explorer) {
  const { model, tokens, nTokens, segments, cuts, bars } = explorer;
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
  bars.forEach((bar, i) => { if (i > 0) describeBar(explorer, bar, i); });
}

/** New bars for the cuts (their number changed), laid out and painted. */
function rebuild(explorer) {
  for (const bar of explorer.bars) bar?.remove();
  explorer.bars = explorer.cuts.map((_, i) => (i === 0 ? null : makeBar(explorer, i)));
  layout(explorer);
  paint(explorer);
}

/** Move cut i to `token` on the page at once; true if it moved. */
function moveCut(explorer, i, token, at) {
  const { cuts, root } = explorer;
  const [lo, hi] = limits(explorer, i);
  const to = Math.min(Math.max(token, lo), hi);
  if (to === cuts[i]) return false;
  cuts[i] = to;
  place(explorer.textBox, explorer.bars[i], targetOf(explorer, to));
  paint(explorer);
  rmMark(root, "movedAt", at);
  // After the browser has laid the page out again: the redraw a learner sees.
  requestAnimationFrame(() => rmMark(root, "drawnAt"));
  return true;
}

/** Send the local cuts to Python (which recomputes the chunks and the metrics). */
function commit({ model, root, cuts }, at) {
  rmMark(root, "sentAt", at);
  rmSend(model, { cuts: [...cuts] });
}

// -- the numbers from Python ---------------------------------------------------------------

function drawView(explorer) {
  const { model, root, cards, others } = explorer;
  const view = model.get("view");
  if (!view || !view.metrics) return;
  explorer.drawNumbers(view.metrics, view.labels);
  const shown = view.chunks.filter((c) => c.overlaps.length || c.retrieved);
  cards.replaceChildren(...shown.map((c) => chunkCard(c, view)));
  const hidden = view.chunks.length - shown.length;
  others.textContent = hidden
    ? `${hidden} other chunk${hidden === 1 ? "" : "s"} of ${view.chunks.length}: no evidence, not retrieved.`
    : `${view.chunks.length} chunk${view.chunks.length === 1 ? "" : "s"} in all.`;
  rmMark(root, "updatedAt");
}

/** A chunk's card: its tokens and rank, its overlaps with the evidence, the judgments. */
function chunkCard(c, view) {
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

// -- what Python changed -------------------------------------------------------------------

/** New cuts from Python: the same number of chunks moves the bars, another makes new ones. */
function onCuts(explorer) {
  const next = explorer.model.get("cuts");
  const { cuts } = explorer;
  const same = next.length === cuts.length && next.every((c, i) => c === cuts[i]);
  if (same) return;
  const count = next.length !== cuts.length;
  explorer.cuts = [...next];
  if (count) rebuild(explorer);
  else { layout(explorer); paint(explorer); }
}

/** The size and overlap sliders, from the model (the overlap stays below the size). */
function drawSizes({ model, nTokens, size, overlap }) {
  size.set(model.get("size"), 1, nTokens);
  overlap.set(model.get("overlap"), 0, Math.max(model.get("size") - 1, 0));
}

export default { render };
