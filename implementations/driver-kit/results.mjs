// What a thin driver of a real harness needs to speak the kit's result and catalog shapes, and nothing more: it
// translates, never decides (K40). Results are built from the harness's own answer (its own text stays the
// `output` the model saw); a field the harness does not produce is left out (the driver lists it in
// `unobserved`, schemas/observations.json), never computed here: no byte count, no sort, no root index, no
// queue in front of a harness that has none. Capabilities are declared explicitly (a name left out would
// count as supported). Plain ESM, no build, no dependencies: any JS driver can import it.

/** Every capability name the kit knows today or is adding (issue 19 item 6). A driver states each one. */
export const CAPABILITY_NAMES = [
  "permission_hook",
  "user_invocation",
  "symlinks",
  "file_modes",
  "dedupe",
  "allowed_tools",
  "arguments",
  "trust_gate",
  "sensitive_patterns",
  "resources",
  "frontmatter_passthrough",
];

/** `has` lists what the harness really has; every other known capability is declared false. */
export function capabilities(has) {
  const unknown = has.filter((name) => !CAPABILITY_NAMES.includes(name));
  if (unknown.length > 0) throw new Error(`unknown capability ${unknown.join(", ")}`);
  return Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, has.includes(name)]));
}

/** The kit wants `message` on one non-empty line; a harness's message may span several. */
export function oneLine(text) {
  const line = String(text ?? "")
    .replace(/\s*[\r\n]+\s*/g, " ")
    .trim();
  return line.length > 0 ? line : "(the harness gave no message)";
}

/** An `ok` of the fields the harness gave; an undefined one is left out (declared unobserved by the driver). */
export function okResult({ name, dir, body, frontmatter, output, resources, bytes, warnings }) {
  return defined({
    kind: "ok",
    name,
    dir,
    body,
    frontmatter,
    resources,
    bytes,
    output,
    warnings: warnings?.length ? warnings : undefined,
  });
}

/** The object without its undefined members: a value the harness did not give is absent, not `undefined`. */
export function defined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

/**
 * A call the driver cannot give its harness at all (decision K120; driver-protocol.schema.json $defs/unobservedCall):
 * a harness with no lookup by name has no way to take a name its listing does not show. Never a result made up in its
 * place: the kit files every check of the call as not observable. `observation` is an id the driver declares in
 * `unobserved` whose row has the place `call:*` (schemas/observations.json: `call.by-name`).
 */
export function unobservedCall(observation, reason) {
  return { unobserved: observation, reason };
}

/** Harnesses without near-match suggestions answer with no siblings; the kit judges that, not the driver. */
export function notFoundResult(name, output, siblings = []) {
  return { kind: "not_found", name, siblings, output };
}

/** An `error` in the harness's own class; `code` undefined (left out) when its errors carry none (`error.code`). */
export function errorResult(code, message, output, extra = {}) {
  return defined({
    kind: "error",
    code,
    message: oneLine(message),
    output: String(output ?? "") || oneLine(message),
    ...extra,
  });
}

/** The requested name when the input carries one as a string (for not_found and errors). */
export function requestedName(params) {
  return params && typeof params === "object" && !Array.isArray(params) && typeof params.name === "string"
    ? params.name
    : undefined;
}

/** The catalog as the harness listed it, in its order (catalog.sorted judges that order; K40). Entries keep only
 *  the fields the harness gave. */
export function catalogResult(toolDescription, entries, warnings = []) {
  return { tool_description: toolDescription, entries: entries.map(defined), warnings };
}
