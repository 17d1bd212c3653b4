// ExerciseWidget front end (an anywidget ES module after the shared kit, kit.js).
// It draws what Python holds and reports what the learner does:
// - Check (or Enter in the answer field) sets `answer_request` ({text, n});
// - Previous, Show solution and Next set `nav_request` ({action, n}).
// It never checks an answer: the item comes from the `item` trait, the feedback and its
// arithmetic from `feedback`, the score from `summary`, and what the live region says
// from `announcement` (all computed by ragmetrics.teaching.exercises). The feedback's
// status (correct, wrong: a hint at the first miss, the arithmetic at the second;
// out_of_range: refused, not counted; revealed; not_scored: typed after the solution) is
// set on the feedback box for the style, its misconception (the likely mistake's name)
// beside it.
//
// Focus: the field and the buttons are made once and kept; redraws only replace the
// question, the ranking table and the feedback, so focus stays where the learner left it.
//
// render only wires: buildExercise makes the elements once, the draw* functions below
// fill them from the model.

function render({ model, el: root }) {
  rmRoot(root, { classes: ["rmx"], label: "Exercise" });
  const exercise = buildExercise(model, root);
  const stop = rmListen(model, [
    ["change:item", () => drawItem(exercise)], ["change:feedback", () => drawFeedback(exercise)],
    ["change:summary", () => drawSummary(exercise)],
  ], exercise.live.dispose);
  drawItem(exercise);
  drawFeedback(exercise);
  drawSummary(exercise);
  return stop;
}

// -- the elements, made once -----------------------------------------------------------

function buildExercise(model, root) {
  const request = rmRequester(model, { counter: "n", root, stamp: "sentAt" });
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
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    request("answer_request", { text: input.value });
  });

  const feedbackMessage = rmEl("p", { class: "rmx-message" });
  const feedbackTable = rmEl("table", { class: "rmx-steps" });
  const feedbackLines = rmEl("ol", { class: "rmx-lines" });
  const feedbackBox = rmEl("div", { class: "rmx-feedback" }, feedbackMessage, feedbackTable, feedbackLines);

  const navButton = (text, action, aria) => rmButton(
    { text, label: aria, classes: `rmx-nav rmx-${action}` },
    () => request("nav_request", { action }));
  const previous = navButton("Previous", "previous", "Previous exercise");
  const reveal = navButton("Show solution", "reveal", "Show solution");
  const next = navButton("Next", "next", "Next exercise");
  const nav = rmEl("div", { class: "rmx-navbar" }, previous, reveal, next);
  const summary = rmEl("p", { class: "rmx-summary" });

  root.append(heading, question, table, missing, form, live.region, feedbackBox, nav, summary);
  return {
    model, root, live, heading, question, table, missing, label, input, previous, next,
    feedbackBox, feedbackMessage, feedbackTable, feedbackLines, summary,
    shownIndex: null, // the item whose answer field this is
  };
}

// -- drawing ---------------------------------------------------------------------------

function relevanceText(grade, graded) {
  if (!(grade > 0)) return "";
  return graded ? `relevant, grade ${grade}` : "relevant";
}

/** The ranking, best first, with the golden set and the cut-off k. */
function drawRanking(table, item) {
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
}

/** The exercise: heading, question, ranking, the field's label, the navigation. */
function drawItem(exercise) {
  const { model, root, heading, question, missing, label, input } = exercise;
  const item = model.get("item");
  if (!item || item.rows === undefined) return;
  heading.textContent = `Exercise ${item.index + 1} of ${item.total} · level ${item.level} · ${item.status}`;
  question.textContent = item.question;
  drawRanking(exercise.table, item);
  missing.textContent = item.unretrieved.length
    ? `Also relevant, never retrieved: ${item.unretrieved.join(", ")}` : "";
  label.textContent = `Your value of ${item.label}`;
  if (exercise.shownIndex !== item.index) {
    input.value = "";  // a new item: a fresh answer field
    exercise.shownIndex = item.index;
  }
  rmDisable(exercise.previous, item.index === 0);
  rmDisable(exercise.next, item.index === item.total - 1);
  rmMark(root, "itemDrawnAt");
}

/** The feedback: its message, the arithmetic rank by rank, and its explanation. */
function drawFeedback({ model, root, feedbackBox, feedbackMessage, feedbackTable, feedbackLines }) {
  const fb = model.get("feedback") || {};
  feedbackBox.dataset.status = fb.status || "";
  feedbackBox.dataset.misconception = fb.misconception || "";
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
  rmMark(root, "feedbackAt");
}

function drawSummary({ model, summary }) {
  summary.textContent = model.get("summary");
}

export default { render };
