// Select: a labelled native dropdown. The control keeps its keys: inside JupyterLab the
// arrow keys change the choice instead of moving the notebook's cell selection.

function render({ model, el }) {
  rmControl(el, ["rm-select-field"]);
  const id = rmId("rm-select");
  const select = rmEl("select", { id, class: "rm-select" });
  el.append(rmEl("label", { for: id, class: "rm-select-name", text: model.get("description") }), select);

  function drawOptions() {
    select.replaceChildren(...model.get("options").map(([label, value]) =>
      rmEl("option", { value, text: label })));
    select.value = model.get("value");
  }
  select.addEventListener("change",
    () => rmSend(model, { value: select.value }, { root: el, stamp: "movedAt" }));
  const onValue = () => { select.value = model.get("value"); };
  const stop = rmListen(model, [["change:options", drawOptions], ["change:value", onValue]]);
  drawOptions();
  return stop;
}

export default { render };
