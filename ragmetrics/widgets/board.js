// RankingBoard front end (an anywidget ES module after the shared kit, kit.js).
// It draws the state that Python holds and reports the learner's moves back:
// - a drop, a move button or Alt+Up/Down sets `order` and `moved` (Python validates the
//   order and recomputes the metrics);
// - chunks with facets (`facets`, id -> names; `facet_colours`, name -> {light, dark})
//   show each facet as a labelled chip with a coloured edge (the name always written);
// - a click on a chunk, its relevance button, Enter or Space sets `toggle_request`
//   ({doc_id, click}: Python cycles the grade);
// - the slider sets `k` (it ends at `k_max`, from Python: 10 past the end of the list);
// - the "Reset" button sets `reset_request` ({click}: Python puts back the starting state).
// It never computes a metric: every number comes from the `view` trait (with each
// metric's change since the last move, `view.changes`, and the plot's lanes and note),
// and what the live region says comes from the `announcement` trait.
//
// Focus: each chunk is one <li> made once and kept (the kit's rmRankList); a move
// reorders the items around the focused one, so the focused chunk or button is never
// taken out of the page. New metrics from the kernel only update the metric cells, the
// plot and the nDCG table: the list is not redrawn. Buttons that stop applying (the top
// chunk's "up") are aria-disabled, so they keep focus.
//
// Class names (users' CSS and the browser tests rely on them) are rmb-*; the list's are
// made by rmRankList from its prefix "rmb": rmb-list, rmb-item, rmb-rank, rmb-id,
// rmb-actions, rmb-btn (the move buttons), rmb-dragging and rmb-over (while dragging).
//
// render only wires: buildBoard makes the elements once, the draw* functions below fill
// them from the model, each given the board ({model, root, and the parts}).

const RMB_PLAIN_SERIES = { color: "currentColor", dash: "", marker: "o" };

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmb"], label: "Ranking board" });
  const board = buildBoard(model, root);
  const onList = () => drawList(board);
  const onK = () => { drawSlider(board); drawList(board); };
  const onKMax = () => drawSlider(board);
  const onView = () => drawMetrics(board);
  const stop = rmListen(model, [
    ["change:order", onList], ["change:relevance", onList], ["change:titles", onList],
    ["change:max_grade", onList], ["change:facets", onList], ["change:facet_colours", onList],
    ["change:k", onK], ["change:k_max", onKMax],
    ["change:view", onView],
  ], rmOnResize(board.list.element, () => placeCutoff(board)), board.live.dispose);
  drawSlider(board);
  drawList(board);
  drawMetrics(board);
  return stop;
}

// -- the elements, made once -----------------------------------------------------------

/** The board's elements in the page, and what the learner's moves send. */
function buildBoard(model, root) {
  const request = rmRequester(model, { root, stamp: "movedAt" });
  // A synced trait, not a custom message: Python applies the grade rule (toggle()).
  const toggle = (docId) => request("toggle_request", { doc_id: docId });
  const helpId = rmId("rmb-help");
  const live = rmLiveRegion(model, { classes: ["rmb-status"] });
  const slider = rmRange({
    label: "cut-off", min: 1, max: model.get("k_max"), value: model.get("k"),
    valueText: (k) => `k = ${k}`,
    onChange: (k) => rmSendValue(model, "k", k, { root, stamp: "movedAt" }),
    classes: { field: "rmb-slider", input: "rmb-k", readout: "rmb-k-label", name: "rmb-k-name" },
  });
  const help = rmEl("p", {
    id: helpId, class: "rm-help rmb-help",
    text: "Keys on a chunk: Up and Down go to the next chunk, Alt+Up and Alt+Down move it, "
      + "Enter or Space toggles its relevance. Or drag it, or use its buttons.",
  });
  const list = rmRankList(model, root, {
    prefix: "rmb", describedBy: helpId, toTop: true, ends: true, draggable: true,
    onActivate: toggle, build: (item) => buildItem(item, toggle),
  });
  const cutoffLabel = rmEl("span", { class: "rmb-cutoff-label" });
  // Outside the <ol> and hidden from assistive technology: each chunk's name already
  // says whether it is above or below the cut-off.
  const cutoff = rmEl("div", { class: "rmb-cutoff", "aria-hidden": "true" }, cutoffLabel);
  const listWrap = rmEl("div", { class: "rmb-listwrap" }, list.element, cutoff);
  const note = rmEl("p", { class: "rmb-note" });
  // The readout: each metric's value at k, and its change since the last move.
  const metricsBody = rmEl("tbody");
  const colHead = (text) => rmEl("th", { scope: "col", text });
  const metricsBox = rmEl("table", { class: "rmb-metrics", "aria-label": "Metrics at k" },
    rmEl("thead", {}, rmEl("tr", {}, colHead("metric"), colHead("value"), colHead("last change"))),
    metricsBody);
  const plotNoteId = rmId("rmb-plot-note");
  const plot = rmSvgEl("svg", {
    class: "rmb-plot", viewBox: "0 0 270 164", role: "img", "aria-label": "Metrics over k",
    "aria-describedby": plotNoteId,
  });
  // The legend note, from Python: curves that coincide, drawn a little apart.
  const plotNote = rmEl("p", { id: plotNoteId, class: "rmb-plot-note" });
  const ndcgBox = rmEl("table", { class: "rmb-ndcg", "aria-label": "nDCG arithmetic" });
  const resetButton = rmButton({
    text: "Reset", classes: "rmb-reset", label: "Reset the board to its starting state",
    title: "Back to the starting order, relevance and k",
  }, () => request("reset_request"));
  // Reset first: Tab from the slider goes on to the chunks, as before.
  const controls = rmEl("div", { class: "rmb-controls" }, resetButton, slider.field);
  const left = rmEl("div", { class: "rmb-left" }, controls, live.region, help, listWrap, note);
  const right = rmEl("div", { class: "rmb-right" }, metricsBox, plot, plotNote, ndcgBox);
  root.append(rmEl("div", { class: "rmb-grid" }, left, right));
  const changeCells = new Map(); // metric -> {shown, spoken}
  const drawNumbers = rmNumberRows(metricsBody, (name) => {
    const made = metricRow(name, model.get("series"));
    changeCells.set(name, made.change);
    return made;
  });
  return {
    model, root, live, slider, list, cutoff, cutoffLabel, note, plot, plotNote, ndcgBox,
    drawNumbers, changeCells,
  };
}

/** A chunk's <li> children: its label (rank, id, title), relevance button and moves. */
function buildItem(item, toggle) {
  item.title = rmEl("span", { class: "rmb-title" });
  // The chunk's facets: chips made in updateItem, hidden when it has none.
  item.facets = rmEl("span", { class: "rmb-facets" });
  item.check = rmEl("span", { class: "rmb-check", "aria-hidden": "true" });
  item.relevanceText = rmEl("span", { class: "rmb-grade-text" });
  item.relevance = rmButton({ label: "", title: "", classes: "rmb-grade", contained: true },
    () => toggle(item.docId));
  item.relevance.replaceChildren(item.check, item.relevanceText);
  const label = rmEl("span", { class: "rmb-label" }, item.rank, item.id, item.title);
  return [label, item.facets, item.relevance, item.actions];
}

/** A metric's row in the metrics table: its legend sample and name, its value, and its
 * change since the last move (shown as "0.87 → 0.97", said as "from 0.87 to 0.97"). */
function metricRow(name, series) {
  const label = rmEl("span", { class: "rmb-metric-name" });
  const style = series[name] || RMB_PLAIN_SERIES;
  const sample = rmSeriesSample(style);
  sample.classList.add("rmb-swatch", "rmb-series");
  rmbSeriesColours(sample, style);
  const cell = rmEl("td", { class: "rmb-value", "data-metric": name });
  const shown = rmEl("span", { class: "rmb-change-text", "aria-hidden": "true" });
  const spoken = rmEl("span", { class: "rm-visually-hidden" });
  const changeCell = rmEl("td", { class: "rmb-change", "data-metric": name }, shown, spoken);
  const row = rmEl("tr", {}, rmEl("th", { scope: "row" }, sample, label), cell, changeCell);
  return { row, name: label, cell, change: { cell: changeCell, shown, spoken } };
}

/** A series' colours for the light and the dark theme (from Python, each at least 3:1
 * against its background), as CSS variables that board.css picks from. */
function rmbSeriesColours(el, style) {
  el.style.setProperty("--rmb-series-light", style.light || style.color);
  el.style.setProperty("--rmb-series-dark", style.dark || style.color);
}

// -- drawing: the list, kept and updated in place -----------------------------------------

function relevanceWords(grade, graded) {
  if (!(grade > 0)) return "not relevant";
  return graded ? `relevant, grade ${grade}` : "relevant";
}

/** What one chunk shows and says: rank, title, relevance, above or below the cut-off. */
function updateItem(item, i, n, { k, grade, graded, maxGrade, titleText, facets, colours }) {
  const docId = item.docId;
  const rank = i + 1;
  const below = rank > k;
  item.li.dataset.rank = String(rank);
  item.li.dataset.grade = String(grade);
  item.li.classList.toggle("rmb-relevant", grade > 0);
  item.li.classList.toggle("rmb-below", below);
  item.li.classList.toggle("rmb-last-seen", rank === Math.min(k, n));
  item.title.textContent = titleText;
  drawFacets(item, facets, colours);
  const parts = [`Rank ${rank}: ${docId}`];
  if (titleText) parts.push(titleText);
  if (facets.length) parts.push(`facets: ${facets.join(", ")}`);
  parts.push(relevanceWords(grade, graded), below ? "below the cut-off" : "above the cut-off");
  item.li.setAttribute("aria-label", parts.join(", "));
  item.relevance.setAttribute("aria-pressed", grade > 0 ? "true" : "false");
  item.check.textContent = grade > 0 ? "☑" : "☐";
  if (graded) {
    item.relevanceText.textContent = `grade ${grade}`;
    item.relevance.setAttribute("aria-label", `${docId} relevance: grade ${grade} of ${maxGrade}`);
  } else {
    item.relevanceText.textContent = "relevant";
    item.relevance.setAttribute("aria-label", `${docId} relevant`);
  }
  item.relevance.title = graded ? "Next grade" : "Toggle relevance";
}

/** A chunk's facets as chips: the name as text, a coloured edge and swatch (from Python,
 * 3:1 against the light and the dark theme). Redrawn only when they differ. */
function drawFacets(item, facets, colours) {
  const key = JSON.stringify([facets, facets.map((f) => colours[f] || null)]);
  if (item.facets.dataset.key === key) return;
  item.facets.dataset.key = key;
  item.facets.hidden = facets.length === 0;
  item.facets.replaceChildren(...facets.map((name) => {
    const chip = rmEl("span", { class: "rmb-facet", "data-facet": name, text: name });
    const colour = colours[name] || {};
    chip.style.setProperty("--rmb-facet-light", colour.light || "currentColor");
    chip.style.setProperty("--rmb-facet-dark", colour.dark || colour.light || "currentColor");
    return chip;
  }));
}

function drawList(board) {
  const { model } = board;
  const relevance = model.get("relevance");
  const titles = model.get("titles");
  const k = model.get("k");
  const maxGrade = model.get("max_grade");
  const graded = maxGrade > 1;
  const facets = model.get("facets") || {};
  const colours = model.get("facet_colours") || {};
  board.list.draw((item, i, n) => updateItem(item, i, n, {
    k, graded, maxGrade, grade: relevance[item.docId] || 0, titleText: titles[item.docId] || "",
    facets: facets[item.docId] || [], colours,
  }));
  placeCutoff(board);
}

/** The cut-off line, under the last chunk above it (k), and its text. */
function placeCutoff({ model, list, cutoff, cutoffLabel }) {
  const k = model.get("k");
  const n = model.get("order").length;
  cutoffLabel.textContent = k > n ? `cut-off k = ${k} (below the last of ${n} chunks)` : `cut-off k = ${k}`;
  const last = list.element.querySelector("li.rmb-last-seen");
  if (!last || !last.offsetHeight) return; // not laid out yet: the ResizeObserver calls again
  const gap = parseFloat(getComputedStyle(last).marginBottom) || 0;
  const top = last.offsetTop + last.offsetHeight + (gap - cutoff.offsetHeight) / 2; // within .rmb-listwrap
  cutoff.style.top = `${top.toFixed(1)}px`;
}

function drawSlider({ model, slider }) {
  const k = model.get("k");
  // Past the end of the list too (k_max, from Python): precision keeps dividing by k there.
  slider.set(k, 1, Math.max(model.get("k_max"), k));
}

// -- drawing: the numbers from Python ----------------------------------------------------

function drawMetrics(board) {
  const { model, root, note } = board;
  const view = model.get("view");
  if (!view || !view.metrics) return;
  board.drawNumbers(view.metrics, view.labels);
  for (const [name, change] of Object.entries(view.changes || {})) {
    const cells = board.changeCells.get(name);
    if (!cells) continue;
    cells.shown.textContent = change.text;
    cells.spoken.textContent = change.spoken;
    cells.cell.dataset.changed = change.text && change.text !== "unchanged" ? "true" : "false";
  }
  board.plotNote.textContent = view.plot_note || "";
  drawNdcg(board.ndcgBox, view);
  note.textContent = view.unretrieved.length
    ? `Relevant but not retrieved: ${view.unretrieved.join(", ")}` : "";
  drawPlot(board.plot, view, model.get("series"), model.get("k"));
  rmMark(root, "updatedAt");
}

/** The nDCG arithmetic, rank by rank: gain, discount, their quotient, and the totals. */
function drawNdcg(ndcgBox, view) {
  const f = (x, digits) => Number(x).toFixed(digits);
  const th = (text, attrs = {}) => rmEl("th", { scope: "col", text, ...attrs });
  const rows = view.ndcg_rows.map((r) => rmEl("tr", {},
    rmEl("td", { text: String(r.rank) }), rmEl("td", { class: "rmb-ndcg-id", text: r.doc_id ?? "—" }),
    rmEl("td", { text: f(r.gain, 2) }), rmEl("td", { text: f(r.discount, 3) }),
    rmEl("td", { text: f(r.discounted_gain, 3) })));
  const total = (label, key, value) => rmEl("tr", {},
    rmEl("th", { scope: "row", colspan: "4", text: label }), rmEl("td", { "data-total": key, text: f(value, 4) }));
  ndcgBox.replaceChildren(
    rmEl("thead", {}, rmEl("tr", {}, th("rank"), th("chunk"), th("gain"), th("log2(rank + 1)"), th("gain / discount"))),
    rmEl("tbody", {}, ...rows),
    rmEl("tfoot", {}, total("DCG", "dcg", view.dcg), total("ideal DCG", "idcg", view.idcg),
      total("nDCG = DCG / ideal DCG", "ndcg", view.metrics.ndcg)));
}

/** Every metric over k (a line and markers each) and the cut-off k, dashed. A curve that
 * meets another is drawn in its lane (view.lanes, from Python): a few pixels up or down,
 * so that hit rate and RR, equal whenever the first chunk is relevant, both show. */
function drawPlot(plot, view, series, k) {
  const ks = view.curve.k;
  const [x0, x1, y0, y1] = [30, 262, 140, 14];
  const laneStep = 2.5;
  const x = (at) => x0 + (ks.length > 1 ? (at - 1) / (ks.length - 1) : 0) * (x1 - x0);
  const y = (v) => y0 - v * (y0 - y1);
  const axis = { stroke: "currentColor", "stroke-width": "1" };
  const parts = [
    rmSvgEl("line", { x1: x0, y1: y0, x2: x1, y2: y0, ...axis }),
    rmSvgEl("line", { x1: x0, y1: y0, x2: x0, y2: y1, ...axis }),
  ];
  const withMarkers = ks.length <= 30;
  for (const name of Object.keys(view.metrics)) {
    const style = series[name] || RMB_PLAIN_SERIES;
    const lane = (view.lanes && view.lanes[name]) || 0;
    const g = rmSvgEl("g", {
      class: "rmb-series", "data-metric": name, "data-dash": style.dash || "solid",
      "data-marker": style.marker, "data-lane": String(lane),
    });
    rmbSeriesColours(g, style);
    const points = ks.map((at, i) => [x(at), y(view.curve[name][i]) - lane * laneStep]);
    g.append(rmSvgEl("polyline", {
      points: points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "),
      fill: "none", stroke: style.color, "stroke-width": "1.6",
      "stroke-dasharray": style.dash || "none",
    }));
    if (withMarkers) {
      for (const [px, py] of points) g.append(rmMarker(style.marker, px, py, 2.6, { fill: style.color }));
    }
    parts.push(g);
  }
  if (k <= ks[ks.length - 1]) {
    parts.push(rmSvgEl("line", { x1: x(k), y1: y0, x2: x(k), y2: y1, ...axis, "stroke-dasharray": "3,3", class: "rmb-plot-k" }));
  }
  parts.push(rmSvgText("1", x0, y0 + 12, "middle"),
    rmSvgText(String(ks[ks.length - 1]), x1, y0 + 12, "middle"),
    rmSvgText("k", (x0 + x1) / 2, y0 + 20, "middle"), rmSvgText("1.0", x0 - 4, y1 + 4, "end"),
    rmSvgText("0", x0 - 4, y0 + 3, "end"));
  plot.replaceChildren(...parts);
  plot.setAttribute("aria-label", view.plot_description || "Metrics over k");
}

export default { render };
