// Slider: a labelled native range input (its accessible name is its label), the value
// shown as text next to it. Arrow keys, Home and End step it, also inside JupyterLab.

function render({ model, el }) {
  rmControl(el, ["rm-slider"]);
  const range = rmRange({
    label: model.get("description"),
    min: model.get("min"),
    max: model.get("max"),
    value: model.get("value"),
    continuous: model.get("continuous_update"),
    onChange: (value) => rmSendValue(model, "value", value, { root: el, stamp: "movedAt" }),
  });
  el.append(range.field);
  const update = () => range.set(model.get("value"), model.get("min"), model.get("max"));
  const names = ["change:value", "change:min", "change:max"];
  return rmListen(model, names.map((name) => [name, update]));
}

export default { render };
