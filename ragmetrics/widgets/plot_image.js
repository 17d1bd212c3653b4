// PlotImage: a plot rendered by Python (PNG bytes) with its text alternative: the
// picture's key numbers, as Python describes them (never an image without alt).

function render({ model, el }) {
  rmControl(el, ["rm-figure"]);
  const img = rmEl("img", { class: "rm-figure-img", alt: model.get("alt") });
  el.append(img);
  let url = null;
  function draw() {
    const blob = new Blob([model.get("value")], { type: `image/${model.get("format")}` });
    const next = URL.createObjectURL(blob);
    img.src = next;
    img.setAttribute("alt", model.get("alt"));
    if (url) URL.revokeObjectURL(url);
    url = next;
    rmMark(el, "updatedAt");
  }
  const onAlt = () => img.setAttribute("alt", model.get("alt"));
  const stop = rmListen(model, [["change:value", draw], ["change:alt", onAlt]], () => {
    if (url) URL.revokeObjectURL(url);
  });
  draw();
  return stop;
}

export default { render };
