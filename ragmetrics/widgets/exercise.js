// ExerciseWidget front end (an anywidget ES module after the shared kit, kit.js).
// It draws what Python holds and reports what the learner does:
// - Check (or Enter in the answer field) sets `answer_request` ({text, n});
// - Previous, Show solution and Next set `nav_request` ({action, n}).
// It never checks an answer: the item comes from the `item` trait, the feedback and its
// arithmetic from `feedback`, the score from `summary`, and what the live region says
// from `announcement` (all computed by ragmetrics.teaching.exercises).
//
// Focus: the field and the buttons are made once and kept; redraws only replace the
// question, the ranking table and the feedback, so focus stays where the learner left it.

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmx"], label: "Exercise" });
  const live = rmLiveRegion(model, { classes: ["rmx-status"] });

  const heading = rmEl("p", { class: "rmx-heading" });
  const question = rmEl("p", { class: "rmx-question" });
  const table = rmEl("table", { class: "rmx-ranking" });
  const missing = rmEl("p", { class: "rmx-missing" });

  const fieldId = rmId("rmx-answer");
  const label = rmEl("label", { for: fieldId, class: "rmx-label" });
  const input = rmEl("input", {
    id: fieldId, type: "text", inputmode: "decimal", autocomplete: "off", spellcheck: "false",
    class: "rmx-input", placeholder: "e.g. 0.5 or 1/2",
  });
  const check = rmEl("button", { type: "submit", class: "rm-btn rmx-check", text: "Check" });
  const form = rmEl("form", { class: "rmx-form" }, label, input, check);

  const feedbackMessage = rmEl("p", { class: "rmx-message" });
  const feedbackTable = rmEl("table", { class: "rmx-steps" });
  const feedbackLines = rmEl("ol", { class: "rmx-lines" });
  const feedbackBox = rmEl("div", { class: "rmx-feedback" }, feedbackMessage, feedbackTable, feedbackLines);

  let requests = 0;
  function send(trait, value) {
    root.dataset.sentAt = String(performance.now());
    model.set(trait, { ...value, n: ++requests });
    model.save_changes();
  }
  function navButton(text, action, aria) {
    const b = rmEl("button", { type: "button", class: `rm-btn rmx-nav rmx-${action}`, text, "aria-label": aria });
    b.addEventListener("click", () => {
      if (b.getAttribute("aria-disabled") !== "true") send("nav_request", { action });
    });
    return b;
  }
  const previous = navButton("Previous", "previous", "Previous exercise");
  const reveal = navButton("Show solution", "reveal", "Show solution");
  const next = navButton("Next", "next", "Next exercise");
  const nav = rmEl("div", { class: "rmx-navbar" }, previous, reveal, next);
  const summary = rmEl("p", { class: "rmx-summary" });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send("answer_request", { text: input.value });
  });

  root.append(heading, question, table, missing, form, live.region, feedbackBox, nav, summary);

  // -- drawing ---------------------------------------------------------------------------

  let shownIndex = null;

  function relevanceText(grade, graded) {
    if (!(grade > 0)) return "";
    return graded ? `relevant, grade ${grade}` : "relevant";
  }

  function drawItem() {
    const item = model.get("item");
    if (!item || item.rows === undefined) return;
    heading.textContent = `Exercise ${item.index + 1} of ${item.total} · level ${item.level} · ${item.status}`;
    question.textContent = item.question;
    const th = (text) => rmEl("th", { scope: "col", text });
    const body = [];
    for (const row of item.rows) {
      const tr = rmEl("tr", { class: row.grade > 0 ? "rmx-relevant" : "" },
        rmEl("td", { text: String(row.rank) }), rmEl("td", { class: "rmx-id", text: row.doc_id }),
        rmEl("td", { text: relevanceText(row.grade, item.graded) }));
      body.push(tr);
      if (item.k !== null && row.rank === item.k) {
        body.push(rmEl("tr", { class: "rmx-cutoff" },
          rmEl("td", { colspan: "3", text: `cut-off k = ${item.k}` })));
      }
    }
    if (item.k !== null && item.k > item.rows.length) {
      body.push(rmEl("tr", { class: "rmx-cutoff" }, rmEl("td", {
        colspan: "3", text: `cut-off k = ${item.k} (the list has only ${item.rows.length} chunks)`,
      })));
    }
    table.replaceChildren(
      rmEl("caption", { text: "The ranking, best first, with the golden set" }),
      rmEl("thead", {}, rmEl("tr", {}, th("rank"), th("chunk"), th("golden set"))),
      rmEl("tbody", {}, ...body));
    missing.textContent = item.unretrieved.length
      ? `Also relevant, never retrieved: ${item.unretrieved.join(", ")}` : "";
    label.textContent = `Your value of ${item.label}`;
    if (shownIndex !== item.index) {
      input.value = "";  // a new item: a fresh answer field
      shownIndex = item.index;
    }
    for (const [b, off] of [[previous, item.index === 0], [next, item.index === item.total - 1]]) {
      if (off) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
    }
    root.dataset.itemDrawnAt = String(performance.now());
  }

  function drawFeedback() {
    const fb = model.get("feedback") || {};
    feedbackBox.dataset.status = fb.status || "";
    feedbackMessage.textContent = fb.message || "";
    if (fb.columns && fb.columns.length) {
      feedbackTable.replaceChildren(
        rmEl("caption", { text: "The arithmetic, rank by rank" }),
        rmEl("thead", {}, rmEl("tr", {}, ...fb.columns.map((c) => rmEl("th", { scope: "col", text: c })))),
        rmEl("tbody", {}, ...fb.rows.map((row) => rmEl("tr", {}, ...row.map((v) => rmEl("td", { text: v }))))));
    } else {
      feedbackTable.replaceChildren();
    }
    feedbackLines.replaceChildren(...(fb.lines || []).map((line) => rmEl("li", { text: line })));
    root.dataset.feedbackAt = String(performance.now());
  }

  function drawSummary() {
    summary.textContent = model.get("summary");
  }

  const events = [["change:item", drawItem], ["change:feedback", drawFeedback], ["change:summary", drawSummary]];
  events.forEach(([name, handler]) => model.on(name, handler));
  drawItem();
  drawFeedback();
  drawSummary();
  return () => {
    events.forEach(([name, handler]) => model.off(name, handler));
    live.dispose();
  };
}

export default { render };
