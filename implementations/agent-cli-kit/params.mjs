// The kit's tool input in a harness's own parameter names. The kit's cases speak the spec's tool shape ({name,
// arguments}); a harness's skill tool names them its way (Claude Code {skill, args}, Continue {skill_name}). Only
// those two keys are renamed; every other key, and any input that is not an object (null, a number, an array), goes
// to the harness exactly as the case wrote it, so the harness's own validation judges it.
export function renameParams(params, names) {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
  const out = {};
  for (const [k, v] of Object.entries(params)) {
    const to = Object.prototype.hasOwnProperty.call(names, k) ? names[k] : k;
    // A case that already uses the harness's key as well keeps both: the harness sees the clash.
    if (Object.prototype.hasOwnProperty.call(out, to)) out[`${k}`] = v;
    else out[to] = v;
  }
  return out;
}

/** The name a call asked for, as the case wrote it (undefined when there is none). */
export function askedName(params) {
  return params && typeof params === "object" && typeof params.name === "string" ? params.name : undefined;
}
