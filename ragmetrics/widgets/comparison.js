// ComparisonExplorer front end (an anywidget ES module after the shared kit, kit.js).
// It draws the state that Python holds and reports the user's moves back:
// - a click on a row, or Up/Down/Page Up/Page Down/Home/End in the table, sets `selected`;
// - a column's header button sets `sort` and `descending`;
// - the dropdowns set `metric`, `system` and `show`; the search field sets `search`.
// It never computes a metric, a difference or an order: the numbers come in `data`
// (float64, query-major, columns named by `data_keys`), the rows to show in `order`
// (int32), and the histogram and the drill-down in `histogram` and `detail`.
//
// The table is virtualised: only the rows in view (and a few either side) are in the
// page, between two spacer rows that keep the scroll height of every row. A row's <tr>
// is kept while it stays in view, and the rows are reordered around the focused one
// (rmReorder), so focus survives scrolling, sorting and every update from Python.
//
// render only wires: buildExplorer makes the elements once and holds the local state
// (the explorer: {model, root, the parts, data, order, the row pool}); the functions
// below draw it and send the user's moves.

const RMC_ROW_HEIGHT = 26; // px, as .rmc-row in comparison.css
const RMC_BUFFER = 8; // rows drawn above and below the view
const RMC_PAGE = 10; // rows that Page Up / Page Down move

/** A synced bytes trait as a typed array (a copy: the buffer may be shared or unaligned). */
function rmcArray(value, Type) {
  if (!value) return new Type(0);
  const view = value instanceof DataView ? value : new DataView(value.buffer ?? value);
  const bytes = view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
  return new Type(bytes);
}

function rmcFixed(value, signed = false) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const text = Number(value).toFixed(4);
  return signed && value >= 0 ? `+${text}` : text;
}

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmc"], label: "Comparison explorer" });
  const explorer = buildExplorer(model, root);
  const { scroller } = explorer;
  const rows = () => drawRows(explorer);
  scroller.addEventListener("keydown", (event) => onTableKey(explorer, event));
  scroller.addEventListener("scroll", () => requestAnimationFrame(rows), { passive: true });
  const head = () => drawHead(explorer);
  const options = () => drawOptions(explorer);
  const stop = rmListen(model, [
    ["change:data", () => { loadData(explorer); rows(); }],
    ["change:columns", () => { head(); rows(); }],
    ["change:order", () => onOrder(explorer)],
    ["change:sort", head], ["change:descending", head],
    ["change:selected", () => drawRows(explorer, { include: explorer.choosing })],
    ["change:histogram", () => drawHistogram(explorer)],
    ["change:detail", () => drawDetail(explorer)],
    ["change:status", () => drawStatus(explorer)],
    ["change:metric", options], ["change:system", options], ["change:show", options],
    ["change:search", options],
  ], rmOnResize(scroller, rows), explorer.live.dispose, () => clearTimeout(explorer.searchTimer));
  loadData(explorer);
  loadOrder(explorer);
  head();
  drawStatus(explorer);
  rows();
  drawHistogram(explorer);
  drawDetail(explorer);
  return stop;
}

// -- the elements, made once -----------------------------------------------------------

function buildExplorer(model, root) {
  const explorer = {
    model, root,
    data: new Float64Array(0),
    width: 1,
    order: new Int32Array(0),
    positionOf: new Map(), // query position -> row position in `order`
    pool: new Map(), // query position -> {tr, cells}
    rowQuery: new WeakMap(), // tr -> query position
    choosing: undefined, // the row position being selected in this page, while it is
    searchTimer: null,
    sendSort: (changes) => rmSend(model, changes, { root, stamp: "sortedAt" }),
  };
  const controls = buildControls(explorer);
  explorer.live = rmLiveRegion(model, { hidden: true });
  explorer.status = rmEl("p", { class: "rmc-status-line" });
  const left = buildTable(explorer);
  // The histogram and the drill-down.
  explorer.hist = rmSvgEl("svg", { class: "rmc-hist", viewBox: "0 0 260 120", role: "img" });
  explorer.detail = rmEl("section", {
    class: "rmc-detail", "aria-label": "Rankings of the selected query",
  });
  const right = rmEl("div", { class: "rmc-right" }, explorer.hist, explorer.detail);
  root.append(controls, explorer.live.region, rmEl("div", { class: "rmc-grid" }, left, right));
  return explorer;
}

/** The dropdowns, the search field and the "sort by size" button, in their row. */
function buildControls(explorer) {
  const { model } = explorer;
  const send = (changes) => rmSend(model, changes);
  explorer.metricChoice = labelledSelect("metric", model.get("metric_options"), model.get("metric"),
    (v) => send({ metric: v }), "rmc-metric");
  explorer.systemChoice = labelledSelect(`system (vs ${model.get("baseline")})`,
    model.get("system_options"), model.get("system"), (v) => send({ system: v }), "rmc-system");
  explorer.showChoice = labelledSelect("show", [["every query", "all"], ["system better", "better"],
    ["the same", "same"], ["system worse", "worse"]], model.get("show"), (v) => send({ show: v }),
    "rmc-show");
  const searchId = rmId("rmc-search");
  const search = rmEl("input", { id: searchId, type: "search", class: "rmc-search", autocomplete: "off", spellcheck: "false" });
  search.value = model.get("search");
  search.addEventListener("input", () => {
    clearTimeout(explorer.searchTimer);
    explorer.searchTimer = setTimeout(() => send({ search: search.value }), 150);
  });
  explorer.search = search;
  const searchField = rmEl("div", { class: "rmc-field" },
    rmEl("label", { for: searchId, text: "find" }), search);
  const bySize = rmEl("button", { type: "button", class: "rm-btn rmc-by-size", text: "sort by size of Δ" });
  bySize.addEventListener("click",
    () => explorer.sendSort({ sort: "abs_difference", descending: true }));
  return rmEl("div", { class: "rmc-controls" }, explorer.metricChoice.field,
    explorer.systemChoice.field, explorer.showChoice.field, searchField, bySize);
}

/** The table of queries (its rows drawn by drawRows) in its scroll box, with its help. */
function buildTable(explorer) {
  const helpId = rmId("rmc-help");
  const help = rmEl("p", { id: helpId, class: "rm-help", text: "Up and Down select a query, Page Up and Page Down move a page, Home and End go to the ends; the buttons in the header sort." });
  explorer.headRow = rmEl("tr", { "aria-rowindex": "1" });
  explorer.topSpacer = rmEl("tr", { class: "rmc-spacer", "aria-hidden": "true" }, rmEl("td"));
  explorer.bottomSpacer = rmEl("tr", { class: "rmc-spacer", "aria-hidden": "true" }, rmEl("td"));
  explorer.body = rmEl("tbody", {}, explorer.topSpacer, explorer.bottomSpacer);
  explorer.table = rmEl("table", {
    class: "rmc-table", role: "grid", "aria-label": "Queries", "aria-describedby": helpId,
    "aria-readonly": "true",
  }, rmEl("thead", {}, explorer.headRow), explorer.body);
  explorer.scroller = rmEl("div", { class: "rmc-scroll", tabindex: "-1" }, explorer.table);
  return rmEl("div", { class: "rmc-left" }, explorer.status, help, explorer.scroller);
}

/** A labelled dropdown of [text, value] options; set(options, value) redraws it. */
function labelledSelect(label, options, value, onChange, cls) {
  const id = rmId("rmc-select");
  const input = rmEl("select", { id, class: `rm-select ${cls}` });
  const set = (opts, v) => {
    input.replaceChildren(...opts.map(([text, optionValue]) => rmEl("option", { value: optionValue, text })));
    input.value = v;
  };
  set(options, value);
  input.addEventListener("change", () => onChange(input.value));
  const field = rmEl("div", { class: "rm-select-field rmc-field" },
    rmEl("label", { for: id, text: label }), input);
  return { field, input, set };
}

// -- the data from Python ------------------------------------------------------------------

function loadData(explorer) {
  explorer.data = rmcArray(explorer.model.get("data"), Float64Array);
  explorer.width = Math.max(explorer.model.get("data_keys").length, 1);
}

function loadOrder(explorer) {
  explorer.order = rmcArray(explorer.model.get("order"), Int32Array);
  explorer.positionOf = new Map();
  explorer.order.forEach((q, i) => explorer.positionOf.set(q, i));
}

function onOrder(explorer) {
  loadOrder(explorer);
  drawHead(explorer);
  const position = explorer.positionOf.get(explorer.model.get("selected"));
  if (position !== undefined && explorer.body.contains(document.activeElement)) {
    scrollTo(explorer, position);
  }
  drawRows(explorer);
  rmMark(explorer.root, "orderDrawnAt");
}

function drawStatus({ model, status }) {
  status.textContent = model.get("status");
}

/** The dropdowns and the search field, from the model (a field being typed in is left). */
function drawOptions({ model, metricChoice, systemChoice, showChoice, search }) {
  metricChoice.set(model.get("metric_options"), model.get("metric"));
  systemChoice.set(model.get("system_options"), model.get("system"));
  showChoice.input.value = model.get("show");
  if (document.activeElement !== search) search.value = model.get("search");
}

// -- the table -----------------------------------------------------------------------------

/** The header: a sort button per column, the sorted one marked; focus stays on its button. */
function drawHead({ model, headRow, table, sendSort }) {
  const columns = model.get("columns");
  const sort = model.get("sort");
  const descending = model.get("descending");
  const cell = (key, label) => {
    const th = rmEl("th", { scope: "col" });
    // Layout: the column is at least as wide as the label's longest word (comparison.css).
    th.style.setProperty("--rmc-word", String(Math.max(...label.split(/\s+/).map((w) => w.length))));
    const sorted = sort === key;
    if (sorted) th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    const b = rmEl("button", { type: "button", class: "rmc-sort", "data-sort": key, text: label + (sorted ? (descending ? " ▼" : " ▲") : "") });
    b.addEventListener("click",
      () => sendSort({ sort: key, descending: sorted ? !descending : key !== "query" }));
    th.append(b);
    return th;
  };
  const active = document.activeElement;
  const focusedKey = headRow.contains(active) ? active.dataset.sort : null;
  const heads = columns.map((c, i) => {
    const th = cell(c.key, c.label);
    if (i >= 3) th.classList.add("rmc-extra");
    return th;
  });
  headRow.replaceChildren(cell("query", "query"), ...heads);
  table.setAttribute("aria-colcount", String(columns.length + 1));
  if (focusedKey) headRow.querySelector(`button[data-sort="${CSS.escape(focusedKey)}"]`)?.focus();
}

function makeRow(explorer, q) {
  const { model } = explorer;
  const ids = model.get("query_ids");
  const tr = rmEl("tr", { class: "rmc-row", role: "row", tabindex: "-1", "data-query": ids[q] });
  const name = rmEl("th", { scope: "row", class: "rmc-query" },
    rmEl("span", { class: "rmc-id", text: ids[q] }),
    rmEl("span", { class: "rmc-text", text: model.get("query_texts")[q] || "" }));
  tr.append(name);
  tr.addEventListener("click", () => choose(explorer, q));
  explorer.rowQuery.set(tr, q);
  return { tr, cells: [] };
}

function fillRow({ data, width }, entry, q, position, columns, selected) {
  const { tr } = entry;
  tr.setAttribute("aria-rowindex", String(position + 2));
  tr.setAttribute("aria-selected", q === selected ? "true" : "false");
  tr.tabIndex = q === selected || (selected < 0 && position === 0) ? 0 : -1;
  while (entry.cells.length < columns.length) {
    const td = rmEl("td", { class: entry.cells.length >= 3 ? "rmc-num rmc-extra" : "rmc-num" });
    entry.cells.push(td);
    tr.append(td);
  }
  while (entry.cells.length > columns.length) entry.cells.pop().remove();
  columns.forEach((c, i) => {
    const value = data[q * width + c.index];
    const signed = c.key.startsWith("difference|");
    const td = entry.cells[i];
    td.textContent = rmcFixed(value, signed);
    td.classList.toggle("rmc-up", signed && value > 0);
    td.classList.toggle("rmc-down", signed && value < 0);
  });
}

// Draw the rows in view; `include` (a row position) is drawn whatever the scroll
// position says (the row being selected, before the scroll box has moved to it).
function drawRows(explorer, { include } = {}) {
  const { model, order, pool, table, scroller, body, topSpacer, bottomSpacer } = explorer;
  const n = order.length;
  table.setAttribute("aria-rowcount", String(n + 1));
  const columns = model.get("columns");
  const selected = model.get("selected");
  const view = scroller.clientHeight || RMC_ROW_HEIGHT * 14;
  const screen = Math.ceil(view / RMC_ROW_HEIGHT);
  let first = Math.floor(scroller.scrollTop / RMC_ROW_HEIGHT);
  if (include !== undefined && (include < first || include >= first + screen)) {
    first = Math.max(0, include - screen + 1);
  }
  const start = Math.max(0, first - RMC_BUFFER);
  const end = Math.min(n, first + screen + RMC_BUFFER);
  const rows = [];
  const keep = new Set();
  for (let position = start; position < end; position++) {
    const q = order[position];
    if (!pool.has(q)) pool.set(q, makeRow(explorer, q));
    const entry = pool.get(q);
    fillRow(explorer, entry, q, position, columns, selected);
    rows.push(entry.tr);
    keep.add(q);
  }
  const active = document.activeElement;
  const lost = active && body.contains(active) && !rows.includes(active);
  for (const q of [...pool.keys()]) if (!keep.has(q)) pool.delete(q);
  // Rows that left the view go (rmReorder keeps the focused one in place among those
  // that stay); a focused row scrolled far away gives its focus to the scroll box.
  const wanted = new Set(rows);
  for (const child of Array.from(body.children)) {
    if (child !== topSpacer && child !== bottomSpacer && !wanted.has(child)) child.remove();
  }
  topSpacer.style.height = `${start * RMC_ROW_HEIGHT}px`;
  bottomSpacer.style.height = `${(n - end) * RMC_ROW_HEIGHT}px`;
  rmReorder(body, [topSpacer, ...rows, bottomSpacer]);
  if (lost) scroller.focus({ preventScroll: true });
  rmMark(explorer.root, "rowsDrawnAt");
}

// Select query position q: at once in the page (highlight, focus, scroll), then in
// Python, which answers with the drill-down.
function choose(explorer, q, { focus = true } = {}) {
  const position = explorer.positionOf.get(q);
  if (position === undefined) return;
  explorer.choosing = position;
  // Draws the rows around it (change:selected), then Python answers.
  rmSend(explorer.model, { selected: q }, { root: explorer.root, stamp: "selectedAt" });
  drawRows(explorer, { include: position });
  scrollTo(explorer, position);
  explorer.choosing = undefined;
  if (focus) explorer.pool.get(q)?.tr.focus({ preventScroll: true });
}

function scrollTo({ scroller, headRow }, position) {
  const top = position * RMC_ROW_HEIGHT;
  const view = scroller.clientHeight || RMC_ROW_HEIGHT * 14;
  const header = headRow.offsetHeight || RMC_ROW_HEIGHT;
  if (top < scroller.scrollTop) scroller.scrollTop = top;
  else if (top + RMC_ROW_HEIGHT + header > scroller.scrollTop + view) {
    scroller.scrollTop = top + RMC_ROW_HEIGHT + header - view;
  }
}

// Keys on a row, or on the scroll box (which holds focus when the focused row was
// scrolled away): they move the selection, which brings its row back into view.
function onTableKey(explorer, event) {
  const { model, order, positionOf, scroller } = explorer;
  const tr = event.target.closest?.("tr.rmc-row");
  if ((!tr && event.target !== scroller) || event.altKey || event.ctrlKey || event.metaKey) return;
  const selected = model.get("selected");
  const here = positionOf.get(selected) ?? 0;
  const to = { ArrowDown: here + 1, ArrowUp: here - 1, PageDown: here + RMC_PAGE, PageUp: here - RMC_PAGE,
               Home: 0, End: order.length - 1 }[event.key];
  if (to === undefined) {
    if (tr && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(explorer, explorer.rowQuery.get(tr));
    }
    return;
  }
  event.preventDefault();
  event.stopPropagation();
  if (!order.length) return;
  choose(explorer, order[Math.min(Math.max(to, 0), order.length - 1)]);
}

// -- the histogram ---------------------------------------------------------------------------

/** The per-query differences: one bar per bin, the selected query's bin marked. */
function drawHistogram({ model, hist }) {
  const h = model.get("histogram");
  if (!h || !h.counts) return;
  const [x0, x1, y0, y1] = [8, 252, 96, 8];
  const counts = h.counts;
  const most = Math.max(1, ...counts);
  const step = (x1 - x0) / counts.length;
  const middle = (counts.length - 1) / 2;
  const parts = [rmSvgEl("line", { x1: x0, y1: y0, x2: x1, y2: y0, stroke: "currentColor", "stroke-width": "1" })];
  counts.forEach((count, i) => {
    const height = (count / most) * (y0 - y1);
    const side = i < middle ? "rmc-bar-down" : i > middle ? "rmc-bar-up" : "rmc-bar-same";
    parts.push(rmSvgEl("rect", {
      x: (x0 + i * step + 1).toFixed(1), y: (y0 - height).toFixed(1), width: Math.max(step - 2, 1).toFixed(1),
      height: height.toFixed(1), class: `rmc-bar ${side}${i === h.selected_bin ? " rmc-bar-selected" : ""}`,
      "data-count": String(count),
    }));
  });
  if (h.selected_bin >= 0) {
    const cx = x0 + (h.selected_bin + 0.5) * step;
    parts.push(rmSvgEl("polygon", { points: `${cx - 4},${y0 + 9} ${cx + 4},${y0 + 9} ${cx},${y0 + 2}`, class: "rmc-marker" }));
  }
  const edges = h.edges;
  parts.push(rmSvgText(rmcFixed(edges[0], true).slice(0, 5), x0, y0 + 20, "start"),
    rmSvgText("0", (x0 + x1) / 2, y0 + 20, "middle"),
    rmSvgText(rmcFixed(edges[edges.length - 1], true).slice(0, 5), x1, y0 + 20, "end"));
  hist.replaceChildren(...parts);
  hist.setAttribute("aria-label", h.description || "Histogram of the per-query differences");
}

// -- the drill-down --------------------------------------------------------------------------

/** The selected query: its values, and each system's ranking with what each rank adds. */
function drawDetail({ model, root, detail }) {
  const d = model.get("detail");
  if (!d || !d.columns) {
    detail.replaceChildren(rmEl("p", { class: "rm-help", text: "Select a query to see each system's ranking." }));
    rmMark(root, "detailDrawnAt");
    return;
  }
  const values = Object.entries(d.values).map(([s, v]) => `${s} ${rmcFixed(v)}`).join(", ");
  const head = [rmEl("h3", { class: "rmc-title" }, rmEl("span", { class: "rmc-id", text: d.query_id }),
    rmEl("span", { class: "rmc-question", text: d.text ? ` ${d.text}` : "" }))];
  head.push(rmEl("p", { class: "rmc-values", text: `${d.metric_label}: ${values}; difference ${rmcFixed(d.difference, true)}` }));
  const rankings = d.columns.map((column) => rankingTable(column, d));
  const missed = d.unlisted_relevant.length
    ? [rmEl("p", { class: "rmc-missed", text: `Relevant, in neither list: ${d.unlisted_relevant.join(", ")}` })] : [];
  detail.replaceChildren(...head, rmEl("div", { class: "rmc-rankings" }, ...rankings), ...missed);
  rmMark(root, "detailDrawnAt");
}

/** One system's ranking of the selected query: rank, chunk, grade, what it adds. */
function rankingTable(column, d) {
  const rows = column.rows.map((r) => rmEl("tr", { class: r.relevant ? "rmc-relevant" : (r.grade === null ? "rmc-unlisted" : "") },
    rmEl("td", { class: "rmc-num", text: String(r.rank) }),
    rmEl("td", { class: "rmc-doc" }, rmEl("span", { class: "rmc-id", text: r.doc_id }),
      rmEl("span", { class: "rmc-text", text: r.title ? ` ${r.title}` : "" })),
    rmEl("td", { class: "rmc-grade", text: `${r.relevant ? "✓ " : ""}${r.grade_text}` }),
    rmEl("td", { class: "rmc-num", text: r.contribution === null ? "—" : rmcFixed(r.contribution, true) })));
  const foot = [];
  if (column.rest !== null && Math.abs(column.rest) > 0) {
    foot.push(rmEl("tr", {}, rmEl("td", { colspan: "3", text: `ranks below ${d.depth} add` }),
      rmEl("td", { class: "rmc-num", text: rmcFixed(column.rest, true) })));
  }
  const th = (t) => rmEl("th", { scope: "col", text: t });
  return rmEl("table", { class: "rmc-ranking", "data-system": column.system },
    rmEl("caption", { text: `${column.system}: ${d.metric_label} ${rmcFixed(column.value)}` }),
    rmEl("thead", {}, rmEl("tr", {}, th("rank"), th("chunk"), th("grade"), th("adds"))),
    rmEl("tbody", {}, ...rows), rmEl("tfoot", {}, ...foot));
}

export default { render };
