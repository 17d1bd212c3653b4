// PrecisionRecallExplorer front end (an anywidget ES module after the shared kit, kit.js).
// It draws what Python holds and reports the learner's moves:
// - a move button or Alt+Up/Down sets `order` and `moved` (Python validates the order and
//   recomputes the curve); "Reset" sets `reset_request` ({click}).
// It never computes a number: the points, the interpolated precision, AP, the 11-point
// average and R-precision come from the `view` trait; the live region from `announcement`.
//
// Focus: each chunk is one <li> made once and kept; a move reorders the items around the
// focused one (rmReorder), so the focused chunk or button never leaves the page.

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmpr"], label: "Precision-recall explorer" });
  const live = rmLiveRegion(model, { classes: ["rmpr-status"] });
  const helpId = rmId("rmpr-help");
  const help = rmEl("p", {
    id: helpId, class: "rm-help",
    text: "Keys on a chunk: Up and Down go to the next chunk, Alt+Up and Alt+Down move it. Or use its buttons.",
  });
  const list = rmEl("ol", { class: "rmpr-list", "aria-label": "Ranked chunks", "aria-describedby": helpId });
  const note = rmEl("p", { class: "rmpr-note" });
  let resets = 0;
  const reset = rmEl("button", {
    type: "button", class: "rm-btn rmpr-reset", text: "Reset",
    "aria-label": "Reset the ranking to its starting order",
  });
  reset.addEventListener("click", () => {
    mark("movedAt");
    model.set("reset_request", { click: ++resets });
    model.save_changes();
  });
  const plot = rmSvgEl("svg", { class: "rmpr-plot", viewBox: "0 0 280 230", role: "img", "aria-label": "Precision-recall curve" });
  const numbers = rmEl("table", { class: "rmpr-numbers", "aria-label": "Summary numbers" });
  const eleven = rmEl("table", { class: "rmpr-eleven" });
  const left = rmEl("div", { class: "rmpr-left" }, reset, live.region, help, list, note);
  const right = rmEl("div", { class: "rmpr-right" }, plot, numbers, eleven);
  root.append(rmEl("div", { class: "rmpr-grid" }, left, right));

  const items = new Map(); // doc id -> {li, rank, up, down}

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

  function button(symbol, label, onPress) {
    const b = rmEl("button", { type: "button", class: "rm-btn rmpr-btn", "aria-label": label, title: label, text: symbol });
    b.addEventListener("click", (event) => {
      event.stopPropagation();
      if (b.getAttribute("aria-disabled") !== "true") onPress();
    });
    return b;
  }

  function makeItem(docId) {
    const li = rmEl("li", { class: "rmpr-item", "data-item": docId, tabindex: "0" });
    const rank = rmEl("span", { class: "rmpr-rank" });
    const flag = rmEl("span", { class: "rmpr-mark" });
    const up = button("▲", `Move ${docId} up`, () => moveTo(docId, model.get("order").indexOf(docId) - 1));
    const down = button("▼", `Move ${docId} down`, () => moveTo(docId, model.get("order").indexOf(docId) + 1));
    li.append(rank, rmEl("span", { class: "rmpr-id", text: docId }), flag, rmEl("span", { class: "rmpr-actions" }, up, down));
    li.addEventListener("keydown", (event) => {
      if (event.target !== li) return;
      const index = model.get("order").indexOf(docId);
      const plain = !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
      let handled = true;
      if (event.altKey && event.key === "ArrowUp") moveTo(docId, index - 1);
      else if (event.altKey && event.key === "ArrowDown") moveTo(docId, index + 1);
      else if (plain && event.key === "ArrowUp") focusItem(index - 1);
      else if (plain && event.key === "ArrowDown") focusItem(index + 1);
      else handled = false;
      if (handled) {
        event.preventDefault();
        event.stopPropagation();
      }
    });
    return { li, rank, flag, up, down };
  }

  function focusItem(index) {
    const order = model.get("order");
    items.get(order[Math.min(Math.max(index, 0), order.length - 1)])?.li.focus();
  }

  function drawList() {
    const order = model.get("order");
    const relevance = model.get("relevance");
    const titles = model.get("titles");
    order.forEach((docId, i) => {
      if (!items.has(docId)) items.set(docId, makeItem(docId));
      const item = items.get(docId);
      const relevant = (relevance[docId] || 0) > 0;
      item.li.classList.toggle("rmpr-relevant", relevant);
      item.rank.textContent = `${i + 1}.`;
      item.flag.textContent = relevant ? "relevant" : "";
      const title = titles[docId] ? `, ${titles[docId]}` : "";
      item.li.setAttribute("aria-label", `Rank ${i + 1}: ${docId}${title}, ${relevant ? "relevant" : "not relevant"}`);
      for (const [b, off] of [[item.up, i === 0], [item.down, i === order.length - 1]]) {
        if (off) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
      }
    });
    rmReorder(list, order.map((docId) => items.get(docId).li));
    mark("listDrawnAt");
  }

  // -- the plot and the numbers, from Python -----------------------------------------------

  const f = (x, digits = 4) => Number(x).toFixed(digits);

  function drawPlot(view) {
    const [x0, x1, y0, y1] = [36, 268, 196, 22];
    const x = (r) => x0 + r * (x1 - x0);
    const y = (p) => y0 - p * (y0 - y1);
    const axis = { stroke: "currentColor", "stroke-width": "1" };
    const parts = [];
    // AP as an area: one bar per relevant chunk, width 1/R, height its precision.
    const R = view.n_relevant;
    let found = 0;
    for (const p of view.points) {
      if (!p.relevant) continue;
      parts.push(rmSvgEl("rect", {
        x: x(found / R).toFixed(1), y: y(p.precision).toFixed(1),
        width: (x(1 / R) - x(0)).toFixed(1), height: (y0 - y(p.precision)).toFixed(1),
        class: "rmpr-area",
      }));
      found += 1;
    }
    parts.push(rmSvgEl("line", { x1: x0, y1: y0, x2: x1, y2: y0, ...axis }),
      rmSvgEl("line", { x1: x0, y1: y0, x2: x0, y2: y1, ...axis }));
    // The raw curve: precision and recall at every rank (a saw-tooth).
    const raw = view.points.map((p) => `${x(p.recall).toFixed(1)},${y(p.precision).toFixed(1)}`).join(" ");
    parts.push(rmSvgEl("polyline", { points: raw, fill: "none", class: "rmpr-raw", "stroke-width": "1.4" }));
    for (const p of view.points) {
      if (p.relevant) parts.push(rmSvgEl("circle", { cx: x(p.recall).toFixed(1), cy: y(p.precision).toFixed(1), r: "3", class: "rmpr-hit" }));
    }
    // Interpolated precision at the 11 levels: a step line and squares.
    const steps = [];
    view.eleven.forEach((e, i) => {
      steps.push(`${x(e.level).toFixed(1)},${y(e.precision).toFixed(1)}`);
      const nextLevel = i + 1 < view.eleven.length ? view.eleven[i + 1].level : e.level;
      steps.push(`${x(nextLevel).toFixed(1)},${y(e.precision).toFixed(1)}`);
    });
    parts.push(rmSvgEl("polyline", { points: steps.join(" "), fill: "none", class: "rmpr-interp", "stroke-width": "1.6", "stroke-dasharray": "5 3" }));
    for (const e of view.eleven) {
      parts.push(rmSvgEl("rect", { x: (x(e.level) - 2.5).toFixed(1), y: (y(e.precision) - 2.5).toFixed(1), width: "5", height: "5", class: "rmpr-point" }));
    }
    const text = (t, xx, yy, anchor = "middle") => {
      const n = rmSvgEl("text", { x: xx, y: yy, "font-size": "10", fill: "currentColor", "text-anchor": anchor });
      n.textContent = t;
      return n;
    };
    parts.push(text("0", x0, y0 + 12), text("0.5", x(0.5), y0 + 12), text("1", x1, y0 + 12),
      text("recall", (x0 + x1) / 2, y0 + 26), text("1", x0 - 5, y1 + 4, "end"), text("0", x0 - 5, y0 + 3, "end"),
      text("precision", 4, 11, "start"));
    plot.replaceChildren(...parts);
    plot.setAttribute("aria-label", view.description);
  }

  function drawNumbers(view) {
    const row = (label, key, value) => rmEl("tr", {}, rmEl("th", { scope: "row", text: label }),
      rmEl("td", { class: "rmpr-value", "data-number": key, text: f(value) }));
    numbers.replaceChildren(rmEl("tbody", {},
      row("AP (the shaded area)", "ap", view.ap),
      row("11-point average", "eleven_point_average", view.eleven_point_average),
      row("R-precision", "r_precision", view.r_precision),
      rmEl("tr", {}, rmEl("th", { scope: "row", text: "R (relevant chunks)" }), rmEl("td", { text: String(view.n_relevant) }))));
    eleven.replaceChildren(
      rmEl("caption", { text: "Interpolated precision at each recall level" }),
      rmEl("thead", {}, rmEl("tr", {}, rmEl("th", { scope: "col", text: "recall" }), rmEl("th", { scope: "col", text: "precision" }))),
      rmEl("tbody", {}, ...view.eleven.map((e) => rmEl("tr", {},
        rmEl("td", { text: f(e.level, 1) }), rmEl("td", { "data-level": f(e.level, 1), text: f(e.precision) })))));
    note.textContent = view.unretrieved.length
      ? `Relevant but never retrieved (they count in R): ${view.unretrieved.join(", ")}` : "";
  }

  function drawView() {
    const view = model.get("view");
    if (!view || !view.points) return;
    drawPlot(view);
    drawNumbers(view);
    mark("updatedAt");
  }

  const events = [["change:order", drawList], ["change:relevance", drawList], ["change:view", drawView]];
  events.forEach(([name, handler]) => model.on(name, handler));
  drawList();
  drawView();
  return () => {
    events.forEach(([name, handler]) => model.off(name, handler));
    live.dispose();
  };
}

export default { render };
