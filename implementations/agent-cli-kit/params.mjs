// The kit's tool input in a harness's own parameter names. The kit's cases speak the spec's tool shape ({name,
// arguments}); a harness's skill tool names them its way (Claude Code {skill, args}, Continue {skill_name}). Only
// those two keys are renamed; every other key, and any input that is not an object (null, a number, an array), goes
// to the harness exactly as the case wrote it, so the harness's own validation judges it.
export function renameParams(params, names) {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
  const out = {};
  const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  for (const [k, v] of Object.entries(params)) {
    // A key is renamed only when the case does not use the harness's key itself: {name, skill} reaches a harness
    // whose key is skill as it was written, so the harness sees its own key and the stray name (the clash), in
    // whichever order the case wrote them; renaming would overwrite one with the other.
    const to = has(names, k) && !has(params, names[k]) ? names[k] : k;
    out[to] = v;
  }
  return out;
}

/** The name a call asked for, as the case wrote it (undefined when there is none). */
export function askedName(params) {
  return params && typeof params === "object" && typeof params.name === "string" ? params.name : undefined;
}
