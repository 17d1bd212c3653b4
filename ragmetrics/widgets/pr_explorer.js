// PrecisionRecallExplorer front end (an anywidget ES module after the shared kit, kit.js).
// It draws what Python holds and reports the learner's moves:
// - a move button or Alt+Up/Down sets `order` and `moved` (Python validates the order and
//   recomputes the curve); "Reset" sets `reset_request` ({click}).
// It never computes a number: the points, the interpolated precision, AP, the 11-point
// average and R-precision come from the `view` trait; the live region from `announcement`.
//
// Focus: each chunk is one <li> made once and kept (the kit's rmRankList, classes rmpr-*);
// a move reorders the items around the focused one, so the focused chunk or button never
// leaves the page.
//
// render only wires: buildExplorer makes the elements once, the draw* functions below
// fill them from the model.

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmpr"], label: "Precision-recall explorer" });
  const explorer = buildExplorer(model, root);
  const onList = () => drawList(explorer);
  const onView = () => drawView(explorer);
  const stop = rmListen(model, [
    ["change:order", onList], ["change:relevance", onList], ["change:view", onView],
  ], explorer.live.dispose);
  drawList(explorer);
  drawView(explorer);
  return stop;
}

// -- the elements, made once -----------------------------------------------------------

function buildExplorer(model, root) {
  const request = rmRequester(model, { root, stamp: "movedAt" });
  const live = rmLiveRegion(model, { classes: ["rmpr-status"] });
  const helpId = rmId("rmpr-help");
  const help = rmEl("p", {
    id: helpId, class: "rm-help",
    text: "Keys on a chunk: Up and Down go to the next chunk, Alt+Up and Alt+Down move it. Or use its buttons.",
  });
  const list = rmRankList(model, root, { prefix: "rmpr", describedBy: helpId, build: buildItem });
  const note = rmEl("p", { class: "rmpr-note" });
  const reset = rmButton({
    text: "Reset", classes: "rmpr-reset", label: "Reset the ranking to its starting order",
  }, () => request("reset_request"));
  const plot = rmSvgEl("svg", { class: "rmpr-plot", viewBox: "0 0 280 230", role: "img", "aria-label": "Precision-recall curve" });
  const numbers = rmEl("table", { class: "rmpr-numbers", "aria-label": "Summary numbers" });
  const eleven = rmEl("table", { class: "rmpr-eleven" });
  const left = rmEl("div", { class: "rmpr-left" }, reset, live.region, help, list.element, note);
  const right = rmEl("div", { class: "rmpr-right" }, plot, numbers, eleven);
  root.append(rmEl("div", { class: "rmpr-grid" }, left, right));
  return { model, root, live, list, note, plot, numbers, eleven };
}

/** A chunk's <li> children: rank, id, whether it is relevant, and its move buttons. */
function buildItem(item) {
  item.flag = rmEl("span", { class: "rmpr-mark" });
  return [item.rank, item.id, item.flag, item.actions];
}

// -- drawing ----------------------------------------------------------------------------

function drawList({ model, list }) {
  const relevance = model.get("relevance");
  const titles = model.get("titles");
  list.draw((item, i) => {
    const docId = item.docId;
    const relevant = (relevance[docId] || 0) > 0;
    item.li.classList.toggle("rmpr-relevant", relevant);
    item.flag.textContent = relevant ? "relevant" : "";
    const title = titles[docId] ? `, ${titles[docId]}` : "";
    item.li.setAttribute("aria-label", `Rank ${i + 1}: ${docId}${title}, ${relevant ? "relevant" : "not relevant"}`);
  });
}

function drawView({ model, root, plot, numbers, eleven, note }) {
  const view = model.get("view");
  if (!view || !view.points) return;
  drawPlot(plot, view);
  drawNumbers(numbers, eleven, view);
  note.textContent = view.unretrieved.length
    ? `Relevant but never retrieved (they count in R): ${view.unretrieved.join(", ")}` : "";
  rmMark(root, "updatedAt");
}

const fixed = (x, digits = 4) => Number(x).toFixed(digits);

/** AP as an area, the raw saw-tooth curve, and the interpolated precision at 11 levels. */
function drawPlot(plot, view) {
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
  parts.push(rmSvgText("0", x0, y0 + 12, "middle"), rmSvgText("0.5", x(0.5), y0 + 12, "middle"),
    rmSvgText("1", x1, y0 + 12, "middle"), rmSvgText("recall", (x0 + x1) / 2, y0 + 26, "middle"),
    rmSvgText("1", x0 - 5, y1 + 4, "end"), rmSvgText("0", x0 - 5, y0 + 3, "end"),
    rmSvgText("precision", 4, 11, "start"));
  plot.replaceChildren(...parts);
  plot.setAttribute("aria-label", view.description);
}

/** AP, the 11-point average, R-precision and R; the 11 interpolated precisions. */
function drawNumbers(numbers, eleven, view) {
  const row = (label, key, value) => rmEl("tr", {}, rmEl("th", { scope: "row", text: label }),
    rmEl("td", { class: "rmpr-value", "data-number": key, text: fixed(value) }));
  numbers.replaceChildren(rmEl("tbody", {},
    row("AP (the shaded area)", "ap", view.ap),
    row("11-point average", "eleven_point_average", view.eleven_point_average),
    row("R-precision", "r_precision", view.r_precision),
    rmEl("tr", {}, rmEl("th", { scope: "row", text: "R (relevant chunks)" }), rmEl("td", { text: String(view.n_relevant) }))));
  eleven.replaceChildren(
    rmEl("caption", { text: "Interpolated precision at each recall level" }),
    rmEl("thead", {}, rmEl("tr", {}, rmEl("th", { scope: "col", text: "recall" }), rmEl("th", { scope: "col", text: "precision" }))),
    rmEl("tbody", {}, ...view.eleven.map((e) => rmEl("tr", {},
      rmEl("td", { text: fixed(e.level, 1) }),
      rmEl("td", { "data-level": fixed(e.level, 1), text: fixed(e.precision) })))));
}

export default { render };
