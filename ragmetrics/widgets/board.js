// RankingBoard front end (an anywidget ES module after the shared kit, kit.js).
// It draws the state that Python holds and reports the learner's moves back:
// - a drop, a move button or Alt+Up/Down sets `order` and `moved` (Python validates the
//   order and recomputes the metrics);
// - a click on a chunk, its relevance button, Enter or Space sets `toggle_request`
//   ({doc_id, click}: Python cycles the grade);
// - the slider sets `k` (it ends at `k_max`, from Python: 10 past the end of the list);
// - the "Reset" button sets `reset_request` ({click}: Python puts back the starting state).
// It never computes a metric: every number comes from the `view` trait, and what the
// live region says comes from the `announcement` trait.
//
// Focus: each chunk is one <li> made once and kept; a move reorders the items around the
// focused one (rmReorder), so the focused chunk or button is never taken out of the page.
// New metrics from the kernel only update the metric cells, the plot and the nDCG table:
// the list is not redrawn. Buttons that stop applying (the top chunk's "up") are
// aria-disabled, so they keep focus.

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmb"], label: "Ranking board" });

  const helpId = rmId("rmb-help");
  const live = rmLiveRegion(model, { classes: ["rmb-status"] });
  const slider = rmRange({
    label: "cut-off", min: 1, max: model.get("k_max"), value: model.get("k"),
    valueText: (k) => `k = ${k}`, onChange: setK,
    classes: { field: "rmb-slider", input: "rmb-k", readout: "rmb-k-label", name: "rmb-k-name" },
  });
  const help = rmEl("p", {
    id: helpId, class: "rm-help rmb-help",
    text: "Keys on a chunk: Up and Down go to the next chunk, Alt+Up and Alt+Down move it, "
      + "Enter or Space toggles its relevance. Or drag it, or use its buttons.",
  });
  const list = rmEl("ol", { class: "rmb-list", "aria-label": "Ranked chunks", "aria-describedby": helpId });
  const cutoffLabel = rmEl("span", { class: "rmb-cutoff-label" });
  // Outside the <ol> and hidden from assistive technology: each chunk's name already
  // says whether it is above or below the cut-off.
  const cutoff = rmEl("div", { class: "rmb-cutoff", "aria-hidden": "true" }, cutoffLabel);
  const listWrap = rmEl("div", { class: "rmb-listwrap" }, list, cutoff);
  const note = rmEl("p", { class: "rmb-note" });
  const metricsBox = rmEl("table", { class: "rmb-metrics", "aria-label": "Metrics at k" });
  const plot = rmSvgEl("svg", { class: "rmb-plot", viewBox: "0 0 270 160", role: "img", "aria-label": "Metrics over k" });
  const ndcgBox = rmEl("table", { class: "rmb-ndcg", "aria-label": "nDCG arithmetic" });

  let resets = 0;
  const resetButton = rmEl("button", {
    type: "button", class: "rm-btn rmb-reset", text: "Reset",
    "aria-label": "Reset the board to its starting state", title: "Back to the starting order, relevance and k",
  });
  resetButton.addEventListener("click", () => {
    mark("movedAt");
    model.set("reset_request", { click: ++resets });
    model.save_changes();
  });
  // Reset first: Tab from the slider goes on to the chunks, as before.
  const controls = rmEl("div", { class: "rmb-controls" }, resetButton, slider.field);
  const left = rmEl("div", { class: "rmb-left" }, controls, live.region, help, listWrap, note);
  const right = rmEl("div", { class: "rmb-right" }, metricsBox, plot, ndcgBox);
  root.append(rmEl("div", { class: "rmb-grid" }, left, right));

  const items = new Map(); // doc id -> {li, rank, title, relevance, top, up, down}
  let dragged = null;

  // -- what the learner does -----------------------------------------------------------

  function mark(name) {
    root.dataset[name] = String(performance.now());
  }

  function moveTo(docId, to) {
    const order = [...model.get("order")];
    const from = order.indexOf(docId);
    if (from < 0 || to < 0 || to >= order.length || from === to) return;
    order.splice(from, 1);
    order.splice(to, 0, docId);
    mark("movedAt");
    model.set("moved", docId);
    model.set("order", order);
    model.save_changes();
  }

  function moveBy(docId, step) {
    moveTo(docId, model.get("order").indexOf(docId) + step);
  }

  let clicks = 0;
  function toggle(docId) {
    mark("movedAt");
    // A synced trait, not a custom message: Python applies the grade rule (toggle()).
    model.set("toggle_request", { doc_id: docId, click: ++clicks });
    model.save_changes();
  }

  function setK(k) {
    if (k === model.get("k")) return;
    mark("movedAt");
    model.set("k", k);
    model.save_changes();
  }

  function focusItem(index) {
    const order = model.get("order");
    const target = items.get(order[Math.min(Math.max(index, 0), order.length - 1)]);
    target?.li.focus();
  }

  function button(symbol, label, onPress, classes = "rmb-btn") {
    const b = rmEl("button", { type: "button", class: `rm-btn ${classes}`, "aria-label": label, title: label, text: symbol });
    b.addEventListener("click", (event) => {
      event.stopPropagation();
      if (b.getAttribute("aria-disabled") !== "true") onPress();
    });
    return b;
  }

  function makeItem(docId) {
    const li = rmEl("li", { class: "rmb-item", "data-item": docId, tabindex: "0", draggable: true });
    const rank = rmEl("span", { class: "rmb-rank" });
    const title = rmEl("span", { class: "rmb-title" });
    const label = rmEl("span", { class: "rmb-label" }, rank, rmEl("span", { class: "rmb-id", text: docId }), title);
    const check = rmEl("span", { class: "rmb-check", "aria-hidden": "true" });
    const relevanceText = rmEl("span", { class: "rmb-grade-text" });
    const relevance = button("", "", () => toggle(docId), "rmb-grade");
    relevance.replaceChildren(check, relevanceText);
    const top = button("⤒", `Move ${docId} to top`, () => moveTo(docId, 0));
    const up = button("▲", `Move ${docId} up`, () => moveBy(docId, -1));
    const down = button("▼", `Move ${docId} down`, () => moveBy(docId, 1));
    li.append(label, relevance, rmEl("span", { class: "rmb-actions" }, top, up, down));

    li.addEventListener("click", () => toggle(docId));
    li.addEventListener("keydown", (event) => {
      if (event.target !== li) return; // keys on the buttons are the buttons' own
      const index = model.get("order").indexOf(docId);
      const plain = !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
      let handled = true;
      if (event.altKey && event.key === "ArrowUp") moveBy(docId, -1);
      else if (event.altKey && event.key === "ArrowDown") moveBy(docId, 1);
      else if (plain && event.key === "ArrowUp") focusItem(index - 1);
      else if (plain && event.key === "ArrowDown") focusItem(index + 1);
      else if (plain && event.key === "Home") focusItem(0);
      else if (plain && event.key === "End") focusItem(model.get("order").length - 1);
      else if (plain && (event.key === "Enter" || event.key === " ")) toggle(docId);
      else handled = false;
      if (handled) {
        event.preventDefault();
        event.stopPropagation();
      }
    });
    li.addEventListener("dragstart", (event) => {
      dragged = docId;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", docId);
      li.classList.add("rmb-dragging");
    });
    li.addEventListener("dragend", () => { dragged = null; li.classList.remove("rmb-dragging"); });
    li.addEventListener("dragover", (event) => {
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      li.classList.add("rmb-over");
    });
    li.addEventListener("dragleave", () => li.classList.remove("rmb-over"));
    li.addEventListener("drop", (event) => {
      event.preventDefault();
      li.classList.remove("rmb-over");
      const from = dragged ?? event.dataTransfer.getData("text/plain");
      moveTo(from, model.get("order").indexOf(docId));
    });
    return { li, rank, title, relevance, check, relevanceText, top, up, down };
  }

  // -- drawing: the list, kept and updated in place -------------------------------------

  function relevanceWords(grade, graded) {
    if (!(grade > 0)) return "not relevant";
    return graded ? `relevant, grade ${grade}` : "relevant";
  }

  function updateItem(item, docId, i, n, k, grade, graded, titleText) {
    const rank = i + 1;
    const below = rank > k;
    item.li.dataset.rank = String(rank);
    item.li.dataset.grade = String(grade);
    item.li.classList.toggle("rmb-relevant", grade > 0);
    item.li.classList.toggle("rmb-below", below);
    item.li.classList.toggle("rmb-last-seen", rank === Math.min(k, n));
    item.rank.textContent = `${rank}.`;
    item.title.textContent = titleText;
    const parts = [`Rank ${rank}: ${docId}`];
    if (titleText) parts.push(titleText);
    parts.push(relevanceWords(grade, graded), below ? "below the cut-off" : "above the cut-off");
    item.li.setAttribute("aria-label", parts.join(", "));
    item.relevance.setAttribute("aria-pressed", grade > 0 ? "true" : "false");
    item.check.textContent = grade > 0 ? "☑" : "☐";
    if (graded) {
      item.relevanceText.textContent = `grade ${grade}`;
      item.relevance.setAttribute("aria-label", `${docId} relevance: grade ${grade} of ${model.get("max_grade")}`);
    } else {
      item.relevanceText.textContent = "relevant";
      item.relevance.setAttribute("aria-label", `${docId} relevant`);
    }
    item.relevance.title = graded ? "Next grade" : "Toggle relevance";
    for (const [b, off] of [[item.top, i === 0], [item.up, i === 0], [item.down, i === n - 1]]) {
      if (off) b.setAttribute("aria-disabled", "true");
      else b.removeAttribute("aria-disabled");
    }
  }

  function drawList() {
    const order = model.get("order");
    const relevance = model.get("relevance");
    const titles = model.get("titles");
    const k = model.get("k");
    const graded = model.get("max_grade") > 1;
    for (const docId of [...items.keys()]) if (!order.includes(docId)) items.delete(docId);
    order.forEach((docId, i) => {
      if (!items.has(docId)) items.set(docId, makeItem(docId));
      updateItem(items.get(docId), docId, i, order.length, k, relevance[docId] || 0, graded, titles[docId] || "");
    });
    rmReorder(list, order.map((docId) => items.get(docId).li));
    placeCutoff();
    mark("listDrawnAt");
  }

  function placeCutoff() {
    const k = model.get("k");
    const n = model.get("order").length;
    cutoffLabel.textContent = k > n ? `cut-off k = ${k} (below the last of ${n} chunks)` : `cut-off k = ${k}`;
    const last = list.querySelector("li.rmb-last-seen");
    if (!last || !last.offsetHeight) return; // not laid out yet: the ResizeObserver calls again
    const gap = parseFloat(getComputedStyle(last).marginBottom) || 0;
    const top = last.offsetTop + last.offsetHeight + (gap - cutoff.offsetHeight) / 2; // within .rmb-listwrap
    cutoff.style.top = `${top.toFixed(1)}px`;
  }

  function drawSlider() {
    const k = model.get("k");
    // Past the end of the list too (k_max, from Python): precision keeps dividing by k there.
    slider.set(k, 1, Math.max(model.get("k_max"), k));
  }

  // -- drawing: the numbers from Python ------------------------------------------------

  const metricCells = new Map(); // name -> {label, value}

  function drawMetrics() {
    const view = model.get("view");
    if (!view || !view.metrics) return;
    const series = model.get("series");
    for (const [name, value] of Object.entries(view.metrics)) {
      if (!metricCells.has(name)) {
        const label = rmEl("span", { class: "rmb-metric-name" });
        const sample = rmSeriesSample(series[name] || { color: "currentColor", dash: "", marker: "o" });
        sample.classList.add("rmb-swatch");
        const cell = rmEl("td", { class: "rmb-value", "data-metric": name });
        metricsBox.append(rmEl("tr", {}, rmEl("th", { scope: "row" }, sample, label), cell));
        metricCells.set(name, { label, cell });
      }
      const { label, cell } = metricCells.get(name);
      label.textContent = view.labels[name];
      cell.textContent = Number(value).toFixed(4);
    }
    drawNdcg(view);
    note.textContent = view.unretrieved.length
      ? `Relevant but not retrieved: ${view.unretrieved.join(", ")}` : "";
    drawPlot(view);
    mark("updatedAt");
  }

  function drawNdcg(view) {
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

  function drawPlot(view) {
    const ks = view.curve.k;
    const series = model.get("series");
    const [x0, x1, y0, y1] = [30, 262, 136, 10];
    const x = (k) => x0 + (ks.length > 1 ? (k - 1) / (ks.length - 1) : 0) * (x1 - x0);
    const y = (v) => y0 - v * (y0 - y1);
    const axis = { stroke: "currentColor", "stroke-width": "1" };
    const parts = [
      rmSvgEl("line", { x1: x0, y1: y0, x2: x1, y2: y0, ...axis }),
      rmSvgEl("line", { x1: x0, y1: y0, x2: x0, y2: y1, ...axis }),
    ];
    const withMarkers = ks.length <= 30;
    for (const name of Object.keys(view.metrics)) {
      const style = series[name] || { color: "currentColor", dash: "", marker: "o" };
      const g = rmSvgEl("g", { "data-metric": name, "data-dash": style.dash || "solid", "data-marker": style.marker });
      const points = ks.map((k, i) => [x(k), y(view.curve[name][i])]);
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
    const k = model.get("k");
    if (k <= ks[ks.length - 1]) {
      parts.push(rmSvgEl("line", { x1: x(k), y1: y0, x2: x(k), y2: y1, ...axis, "stroke-dasharray": "3,3", class: "rmb-plot-k" }));
    }
    const text = (t, xx, yy, anchor = "start") => {
      const n = rmSvgEl("text", { x: xx, y: yy, "font-size": "10", fill: "currentColor", "text-anchor": anchor });
      n.textContent = t;
      return n;
    };
    parts.push(text("1", x0, y0 + 12, "middle"), text(String(ks[ks.length - 1]), x1, y0 + 12, "middle"),
      text("k", (x0 + x1) / 2, y0 + 20, "middle"), text("1.0", x0 - 4, y1 + 4, "end"), text("0", x0 - 4, y0 + 3, "end"));
    plot.replaceChildren(...parts);
    plot.setAttribute("aria-label", view.plot_description || "Metrics over k");
  }

  // -- wiring ----------------------------------------------------------------------------

  const onList = () => drawList();
  const onK = () => { drawSlider(); drawList(); };
  const onView = () => drawMetrics();
  const events = [
    ["change:order", onList], ["change:relevance", onList], ["change:titles", onList],
    ["change:max_grade", onList], ["change:k", onK], ["change:k_max", drawSlider], ["change:view", onView],
  ];
  events.forEach(([name, handler]) => model.on(name, handler));
  const resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => placeCutoff()) : null;
  resize?.observe(list);
  drawSlider();
  drawList();
  drawMetrics();
  return () => {
    events.forEach(([name, handler]) => model.off(name, handler));
    resize?.disconnect();
    live.dispose();
  };
}

export default { render };
