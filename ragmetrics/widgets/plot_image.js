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
    el.dataset.updatedAt = String(performance.now());
  }
  const onAlt = () => img.setAttribute("alt", model.get("alt"));
  model.on("change:value", draw);
  model.on("change:alt", onAlt);
  draw();
  return () => {
    model.off("change:value", draw);
    model.off("change:alt", onAlt);
    if (url) URL.revokeObjectURL(url);
  };
}

export default { render };
