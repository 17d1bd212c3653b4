// LiveRegion: the one polite live region of a widget made of controls (ExplorerBox).
// Python sets `announcement` after each change; this element says it.

function render({ model, el }) {
  rmControl(el, ["rm-live"]);
  const live = rmLiveRegion(model, { hidden: model.get("hidden") });
  el.append(live.region);
  return live.dispose;
}

export default { render };
