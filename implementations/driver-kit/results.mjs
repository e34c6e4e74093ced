// What a thin driver of a real harness needs to speak the kit's result and catalog shapes: results built from
// the harness's own answer (its own text stays the `output` the model saw), catalog entries sorted and placed
// in their configured root, capabilities declared explicitly (a name left out would count as supported), and
// a per-session queue that serves calls one at a time in call order and drops what is queued when the
// session closes. Plain ESM, no build, no dependencies: any JS driver can import it.
import { Buffer } from "node:buffer";
import { isAbsolute, normalize, sep } from "node:path";

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
  const line = String(text ?? "").replace(/\s*[\r\n]+\s*/g, " ").trim();
  return line.length > 0 ? line : "(the harness gave no message)";
}

export function okResult({ name, dir, body, frontmatter, output, resources = [], warnings }) {
  const result = { kind: "ok", name, dir, body, frontmatter, resources, bytes: Buffer.byteLength(body, "utf8"), output };
  if (warnings?.length) result.warnings = warnings;
  return result;
}

/** Harnesses without near-match suggestions answer with no siblings; the kit judges that, not the driver. */
export function notFoundResult(name, output, siblings = []) {
  return { kind: "not_found", name, siblings, output };
}

export function errorResult(code, message, output, extra = {}) {
  const result = { kind: "error", code, message: oneLine(message), output: String(output ?? "") || oneLine(message) };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) result[key] = value;
  return result;
}

/** The requested name when the input carries one as a string (for not_found and errors). */
export function requestedName(params) {
  return params && typeof params === "object" && !Array.isArray(params) && typeof params.name === "string"
    ? params.name
    : undefined;
}

/** Index of the configured root that lexically holds `path` (the harness's own path, not resolved), or -1. */
export function rootIndexOf(roots, path) {
  const target = normalize(path);
  return roots.findIndex((root) => {
    const base = normalize(root).replace(/[\\/]+$/, "");
    return target === base || target.startsWith(base + sep);
  });
}

export function catalogResult(toolDescription, entries, warnings = []) {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tool_description: toolDescription, entries: sorted, warnings };
}

export function catalogEntry({ name, description, dir, rootIndex, frontmatter, shadowed = [] }) {
  if (!isAbsolute(dir)) throw new Error(`catalog entry ${name}: dir ${dir} is not absolute`);
  return { name, description, dir, root_index: rootIndex, frontmatter, meta: { shadowed } };
}

/**
 * Serves a session's calls one at a time in call order (PROTOCOL.md "Answers follow call order"). After
 * close(), calls still queued are refused at once instead of running against a torn-down session.
 */
export class CallQueue {
  #tail = Promise.resolve();
  #closed = false;

  run(task) {
    const next = this.#tail.then(() => {
      if (this.#closed) throw new Error("session closed before this call ran");
      return task();
    });
    this.#tail = next.catch(() => {});
    return next;
  }

  close() {
    this.#closed = true;
    return this.#tail;
  }
}
