// What Codex shows, read back as the kit's values: the <skills_instructions> listing off its first request, and what
// its exec_command returned for `cat '<listed path>'`. A name the listing does not show cannot be given to Codex (it
// has no lookup by name): unlisted() is the driver's answer for it, unobserved (K120), never a made-up not_found.
// Pure (no harness import), so tests feed it Codex's own text.
import { dirname, join } from "node:path";
import { unlink } from "../agent-cli-kit/home.mjs";
import { systemText } from "../agent-cli-kit/responses.mjs";
import { unobservedCall } from "../driver-kit/results.mjs";

/** What Codex never produces (K40, schemas/observations.json): the driver's implementationInfo.unobserved. */
export const UNOBSERVED = [
  "call.by-name",
  "call.user-invocation",
  "result.bytes",
  "result.name",
  "result.frontmatter",
  "result.resources",
  "catalog.entry.root_index",
  "catalog.entry.frontmatter",
  "catalog.entry.shadowed",
  "catalog.warnings",
  "error.code",
];

/** The answer for a call Codex cannot be given: its listing shows no SKILL.md path for the input (K120). */
export function unlisted() {
  return unobservedCall(
    "call.by-name",
    "Codex has no lookup by name, and its listing shows no SKILL.md path for this input, so there is nothing the model could read",
  );
}

/** The listed SKILL.md path a model reads for a call (undefined: Codex lists no such name). */
export function pathFor(listing, params) {
  const name = params && typeof params === "object" ? params.name : undefined;
  // The first entry of that name, in Codex's listing order (Codex may list one name twice: findings).
  return typeof name === "string" ? listing.find((e) => e.name === name)?.file : undefined;
}

/** Codex's <skills_instructions> developer message: the roots table, then `- name: description (file: rN/…)`. */
export function catalogOf(body, links) {
  const text = systemText(body);
  const block = /<skills_instructions>[\s\S]*?<\/skills_instructions>/.exec(text)?.[0] ?? "";
  const roots = new Map([...block.matchAll(/^- `(r\d+)` = `(.*)`$/gm)].map((m) => [m[1], m[2]]));
  const listed = [...block.matchAll(/^- ([^:\n]+): ([\s\S]*?) \(file: (r\d+)\/(.*)\)$/gm)].map((m) => ({
    name: m[1],
    description: m[2],
    file: join(roots.get(m[3]) ?? m[3], m[4]),
  }));
  const entries = listed.map((e) => ({
    name: e.name,
    description: e.description,
    dir: unlink(dirname(e.file), links),
  }));
  return { listed, catalog: { tool_description: block, entries } };
}

/** exec_command's output: a header (chunk, wall time, exit code, token count), then `Output:` and what cat printed. */
export function translate({ params, result }, listing, links) {
  const text = result.text;
  const m = /Process exited with code (\d+)\n[\s\S]*?Output:\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`untranslated Codex exec_command output: ${JSON.stringify(text.slice(0, 300))}`);
  const file = pathFor(listing, params);
  if (m[1] !== "0") return { kind: "error", message: m[2].split("\n")[0] || `exit code ${m[1]}`, output: text };
  // What the model gets as the skill is the whole file its read returned (frontmatter included).
  return { kind: "ok", dir: unlink(dirname(file), links), body: m[2], output: text };
}
