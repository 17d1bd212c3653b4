// RankingBoard front end (anywidget ES module, no build step).
// It draws the state that Python holds and reports the learner's moves back:
// - a drop or a move button sets `order` (Python validates it and recomputes the metrics);
// - a click on a chunk sends {type: "toggle", doc_id} (Python cycles the grade);
// - the slider sets `k`.
// It never computes a metric: every number comes from the `view` trait.
// Titles and ids are untrusted text: they are only ever set through textContent.

const NS = "http://www.w3.org/2000/svg";
const COLORS = { recall: "#0072B2", precision: "#E69F00", hit_rate: "#009E73", mrr: "#CC79A7", ndcg: "#D55E00" };

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role" || key === "tabindex" || key === "title")
      node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

function fmt(x, digits = 4) {
  return Number(x).toFixed(digits);
}

function render({ model, el: root }) {
  root.classList.add("rmb");
  // Keys pressed inside the board are the board's (JupyterLab would otherwise take the
  // arrow keys for notebook navigation).
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  const metricsBox = el("table", { class: "rmb-metrics", "aria-label": "Metrics at k" });
  const slider = el("input", { type: "range", min: 1, step: 1, class: "rmb-k", "aria-label": "Cut-off k" });
  const kLabel = el("span", { class: "rmb-k-label" });
  const list = el("ol", { class: "rmb-list", "aria-label": "Ranked chunks: drag, or use the buttons, to reorder; click a chunk to toggle its relevance" });
  const note = el("p", { class: "rmb-note" });
  const ndcgBox = el("table", { class: "rmb-ndcg", "aria-label": "nDCG arithmetic" });
  const plot = document.createElementNS(NS, "svg");
  plot.setAttribute("class", "rmb-plot");
  plot.setAttribute("viewBox", "0 0 260 150");
  plot.setAttribute("role", "img");
  plot.setAttribute("aria-label", "Metrics over k");

  const left = el("div", { class: "rmb-left" }, el("div", { class: "rmb-slider" }, kLabel, slider), list, note);
  const right = el("div", { class: "rmb-right" }, metricsBox, plot, ndcgBox);
  root.append(el("div", { class: "rmb-grid" }, left, right));

  let dragFrom = null;
  let refocus = null;

  function setOrder(order) {
    root.dataset.movedAt = String(performance.now());
    model.set("order", order);
    model.save_changes();
  }

  function move(from, to) {
    const order = [...model.get("order")];
    if (from === null || from === to || to < 0 || to >= order.length) return;
    const [item] = order.splice(from, 1);
    order.splice(to, 0, item);
    setOrder(order);
  }

  function toggle(docId) {
    root.dataset.movedAt = String(performance.now());
    model.send({ type: "toggle", doc_id: docId });
  }

  function button(symbol, label, onClick, disabled) {
    const b = el("button", { type: "button", class: "rmb-btn", text: symbol, "aria-label": label, title: label });
    b.disabled = disabled;
    b.addEventListener("click", (event) => { event.stopPropagation(); onClick(); });
    return b;
  }

  function cutoff(k, note) {
    const text = `cut-off k = ${k}${note}`;
    return el("li", { class: "rmb-cutoff", role: "separator", "aria-label": text, text });
  }

  function drawList() {
    const order = model.get("order");
    const relevance = model.get("relevance");
    const titles = model.get("titles");
    const k = model.get("k");
    const graded = model.get("max_grade") > 1;
    list.replaceChildren();
    order.forEach((docId, i) => {
      const grade = relevance[docId] || 0;
      const li = el("li", {
        class: "rmb-item" + (grade > 0 ? " rmb-relevant" : "") + (i >= k ? " rmb-below" : ""),
        "data-item": docId, "data-rank": String(i + 1), "data-grade": String(grade),
        tabindex: "0", draggable: true,
        "aria-label": `Rank ${i + 1}: ${docId}${grade > 0 ? ", relevant" : ""}`,
      });
      const label = el("span", { class: "rmb-label" },
        el("span", { class: "rmb-rank", text: `${i + 1}.` }),
        el("span", { class: "rmb-id", text: docId }),
        el("span", { class: "rmb-title", text: titles[docId] || "" }));
      const badge = el("span", { class: "rmb-grade", text: grade > 0 ? (graded ? `grade ${grade}` : "relevant") : "" });
      li.append(label, badge,
        button("⤒", `Move ${docId} to top`, () => { refocus = { docId, dir: "to top" }; move(i, 0); }, i === 0),
        button("▲", `Move ${docId} up`, () => { refocus = { docId, dir: "up" }; move(i, i - 1); }, i === 0),
        button("▼", `Move ${docId} down`, () => { refocus = { docId, dir: "down" }; move(i, i + 1); }, i === order.length - 1));
      li.addEventListener("click", () => toggle(docId));
      li.addEventListener("keydown", (event) => {
        if (event.target !== li) return; // keys on the buttons are the buttons' own
        if (event.altKey && event.key === "ArrowUp") { event.preventDefault(); refocus = { docId }; move(i, i - 1); }
        else if (event.altKey && event.key === "ArrowDown") { event.preventDefault(); refocus = { docId }; move(i, i + 1); }
        else if (event.key === "Enter" || event.key === " ") { event.preventDefault(); refocus = { docId }; toggle(docId); }
      });
      li.addEventListener("dragstart", (event) => {
        dragFrom = i;
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setData("text/plain", String(i));
        li.classList.add("rmb-dragging");
      });
      li.addEventListener("dragend", () => { dragFrom = null; li.classList.remove("rmb-dragging"); });
      li.addEventListener("dragover", (event) => { event.preventDefault(); event.dataTransfer.dropEffect = "move"; li.classList.add("rmb-over"); });
      li.addEventListener("dragleave", () => li.classList.remove("rmb-over"));
      li.addEventListener("drop", (event) => {
        event.preventDefault();
        li.classList.remove("rmb-over");
        const from = dragFrom ?? Number(event.dataTransfer.getData("text/plain"));
        move(from, i);
      });
      list.appendChild(li);
      if (i + 1 === k) list.appendChild(cutoff(k, ""));
    });
    if (k > order.length) list.appendChild(cutoff(k, ` (below the last of ${order.length} chunks)`));
    if (refocus) {
      const item = list.querySelector(`li[data-item="${CSS.escape(refocus.docId)}"]`);
      const target = refocus.dir ? item?.querySelector(`button[aria-label="Move ${CSS.escape(refocus.docId)} ${refocus.dir}"]`) : item;
      (target && !target.disabled ? target : item)?.focus();
      refocus = null;
    }
  }

  function drawSlider() {
    const k = model.get("k");
    // Past the end of the list too: precision keeps dividing by k there.
    slider.max = String(Math.max(model.get("order").length + 10, k));
    slider.value = String(k);
    kLabel.textContent = `k = ${k}`;
  }

  function drawMetrics() {
    const view = model.get("view");
    if (!view || !view.metrics) return;
    const swatch = (name) => { const s = el("span", { class: "rmb-swatch" }); s.style.background = COLORS[name] || "#333"; return s; };
    metricsBox.replaceChildren(...Object.entries(view.metrics).map(([name, value]) =>
      el("tr", {}, el("th", {}, swatch(name), view.labels[name]),
        el("td", { class: "rmb-value", "data-metric": name, text: fmt(value) }))));
    const rows = view.ndcg_rows.map((r) => el("tr", {},
      el("td", { text: String(r.rank) }), el("td", { text: r.doc_id ?? "—" }),
      el("td", { text: fmt(r.gain, 2) }), el("td", { text: fmt(r.discount, 3) }),
      el("td", { text: fmt(r.discounted_gain, 3) })));
    ndcgBox.replaceChildren(
      el("thead", {}, el("tr", {}, ...["rank", "chunk", "gain", "log2(rank+1)", "gain / discount"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...rows),
      el("tfoot", {},
        el("tr", {}, el("th", { colSpan: 4, text: "DCG" }), el("td", { "data-total": "dcg", text: fmt(view.dcg) })),
        el("tr", {}, el("th", { colSpan: 4, text: "ideal DCG" }), el("td", { "data-total": "idcg", text: fmt(view.idcg) })),
        el("tr", {}, el("th", { colSpan: 4, text: "nDCG = DCG / ideal DCG" }), el("td", { "data-total": "ndcg", text: fmt(view.metrics.ndcg) }))));
    note.textContent = view.unretrieved.length
      ? `Relevant but not retrieved: ${view.unretrieved.join(", ")}` : "";
    drawPlot(view);
    root.dataset.updatedAt = String(performance.now());
  }

  function drawPlot(view) {
    const ks = view.curve.k;
    const [x0, x1, y0, y1] = [30, 250, 130, 10];
    const x = (k) => x0 + (ks.length > 1 ? (k - 1) / (ks.length - 1) : 0) * (x1 - x0);
    const y = (v) => y0 - v * (y0 - y1);
    const parts = [];
    const line = (attrs) => { const n = document.createElementNS(NS, "line"); for (const [a, v] of Object.entries(attrs)) n.setAttribute(a, v); return n; };
    parts.push(line({ x1: x0, y1: y0, x2: x1, y2: y0, stroke: "#888" }), line({ x1: x0, y1: y0, x2: x0, y2: y1, stroke: "#888" }));
    for (const name of Object.keys(view.metrics)) {
      const poly = document.createElementNS(NS, "polyline");
      poly.setAttribute("points", ks.map((k, i) => `${x(k).toFixed(1)},${y(view.curve[name][i]).toFixed(1)}`).join(" "));
      poly.setAttribute("fill", "none");
      poly.setAttribute("stroke", COLORS[name] || "#333");
      poly.setAttribute("stroke-width", "1.5");
      poly.setAttribute("data-metric", name);
      const title = document.createElementNS(NS, "title");
      title.textContent = view.labels[name].replace(/@\d+$/, "@k");
      poly.appendChild(title);
      parts.push(poly);
    }
    const k = model.get("k");
    parts.push(line({ x1: x(k), y1: y0, x2: x(k), y2: y1, stroke: "#444", "stroke-dasharray": "3,3" }));
    const text = (t, xx, yy) => { const n = document.createElementNS(NS, "text"); n.setAttribute("x", xx); n.setAttribute("y", yy); n.setAttribute("font-size", "9"); n.textContent = t; return n; };
    parts.push(text("1", x0 - 3, 142), text(String(ks[ks.length - 1]), x1 - 6, 142), text("k", 137, 148), text("1.0", 6, y1 + 3), text("0", 18, y0 + 3));
    plot.replaceChildren(...parts);
  }

  function setK(k) {
    const max = Number(slider.max);
    k = Math.min(Math.max(1, k), max);
    if (k === model.get("k")) return;
    root.dataset.movedAt = String(performance.now());
    model.set("k", k);
    model.save_changes();
  }
  slider.addEventListener("input", () => setK(Number(slider.value)));
  // Arrow keys step k explicitly: a host page (JupyterLab's command mode) may swallow the
  // range input's default key handling.
  slider.addEventListener("keydown", (event) => {
    const step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    setK(model.get("k") + step);
  });

  const onOrder = () => drawList();
  const onK = () => { drawSlider(); drawList(); };
  const onView = () => { drawList(); drawMetrics(); };
  model.on("change:order", onOrder);
  model.on("change:relevance", onOrder);
  model.on("change:titles", onOrder);
  model.on("change:k", onK);
  model.on("change:view", onView);
  drawSlider();
  drawList();
  drawMetrics();
  return () => {
    model.off("change:order", onOrder);
    model.off("change:relevance", onOrder);
    model.off("change:titles", onOrder);
    model.off("change:k", onK);
    model.off("change:view", onView);
  };
}

export default { render };
