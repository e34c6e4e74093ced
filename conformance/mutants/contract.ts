// Owns the contract suite's mutants (conformance/cases-contract/, C01…): for every case one wrong
// implementation that makes a choice the spec left open the other way (R31–R38), so each case shows it
// pins its decision. Each is the reference behind a wrapper (wrap.ts); conformance/MUTANTS.md lists them.
import { readFileSync, realpathSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { normalize } from "node:path";
import type { CatalogEntry, OkResult, SkillResult } from "../../schemas/index.ts";
import { isObj, nameOf, okFromAuthored, readAuthored, toMutants, type Mutant, type MutantRow } from "./wrap.ts";

const onOk = (f: (r: OkResult) => SkillResult) => (r: SkillResult): SkillResult => (r.kind === "ok" ? f(r) : r);

/** R31 the other way: every resource path sorted as one list, the (... N more) markers after all of them. */
function globalSort(r: OkResult): OkResult {
  const resources = [...r.resources].sort();
  const markers = Object.values(r.resources_omitted ?? {}).map((n) => `(... ${n} more)`);
  const output = r.output.replace(/<resources>\n[\s\S]*?<\/resources>\n/, `<resources>\n${[...resources, ...markers].join("\n")}\n</resources>\n`);
  return { ...r, resources, output };
}

/** R32 the other way: the dir keeps the root as configured ("user/../real-user/x"). */
function unnormalisedDir(text: string, roots: readonly string[]): string {
  return roots.reduce((t, root) => (normalize(root) === root ? t : t.split(`${normalize(root)}/`).join(`${root}/`)), text);
}

/** R33 the other way: the path of OUTSIDE_WORKSPACE is where it resolves to. */
function resolvedPath(r: SkillResult): SkillResult {
  if (r.kind !== "error" || r.code !== "OUTSIDE_WORKSPACE" || r.path === undefined) return r;
  let real = r.path;
  try {
    real = realpathSync(r.path);
  } catch {
    // dangling: keep the path
  }
  return { ...r, path: real, output: r.output.split(r.path).join(real) };
}

/** R37 the other way: a SKILL.md that is not text is an IO_ERROR. */
function notTextAsIoError(r: SkillResult): SkillResult {
  if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER" || r.path === undefined) return r;
  let bytes: Buffer;
  try {
    bytes = readFileSync(r.path);
  } catch {
    return r;
  }
  if (isUtf8(bytes) && !bytes.includes(0)) return r;
  return { ...r, code: "IO_ERROR", output: r.output.replace("INVALID_FRONTMATTER", "IO_ERROR") };
}

const rows: MutantRow[] = [
  {
    kills: "C01", rule: "resources.order", id: "resources-sorted-globally", description: "Resource paths are sorted as one list across folders (assets/ first) and the (... N more) markers follow the whole list.",
    mutation: { result: onOk(globalSort) },
  },
  {
    kills: "C02", rule: "dir.normalised", id: "dir-not-normalised", description: "dir is the root as configured joined with the name: <tmp>/user/../real-user/x.",
    mutation: {
      result: (r, _p, _o, ctx) => (r.kind === "ok" ? { ...r, dir: unnormalisedDir(r.dir, ctx.config.skill_roots), output: unnormalisedDir(r.output, ctx.config.skill_roots) } : r),
      catalog: (c, ctx) => ({ ...c, entries: c.entries.map((e): CatalogEntry => ({ ...e, dir: unnormalisedDir(e.dir, ctx.config.skill_roots) })) }),
    },
  },
  {
    kills: "C03", rule: "fence.reported-path", id: "outside-reports-target", description: "OUTSIDE_WORKSPACE reports the resolved target (outside every root) as its path.",
    mutation: { result: resolvedPath },
  },
  {
    kills: "C04", rule: "catalog.user-only-mark", id: "user-only-as-suffix", description: "A user-only skill's catalog line marks it with a (user-only) suffix on the description instead of the user-only=\"true\" attribute.",
    mutation: { catalog: (c) => ({ ...c, tool_description: c.tool_description.replace(/<skill name="([^"]+)" user-only="true">([^\n]*)<\/skill>/g, '<skill name="$1">$2 (user-only)</skill>') }) },
  },
  {
    kills: "C05", rule: "frontmatter.error-location", id: "missing-field-on-line-1", description: "A missing required field is reported on line 1 (the opening ---) instead of line 2.",
    mutation: {
      result: (r, p, _o, ctx) => {
        if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER") return r;
        const a = readAuthored(ctx.config, nameOf(p) ?? "");
        const fm = a?.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value : undefined;
        return fm && (fm.name === undefined || fm.description === undefined) ? { ...r, line: 1 } : r;
      },
    },
  },
  {
    kills: "C06", rule: "arguments.required-missing", id: "required-arguments-unchecked-without-arguments", description: "Required named arguments are only checked when arguments is given: a call without arguments activates.",
    mutation: {
      result: (r, p, _o, ctx) => {
        if (!(r.kind === "error" && r.code === "INVALID_PARAM" && isObj(p) && p.arguments === undefined)) return r;
        const a = readAuthored(ctx.config, nameOf(p) ?? "");
        if (!a?.frontmatter.ok || !isObj(a.frontmatter.value)) return r;
        return okFromAuthored(a, String(p.name), a.frontmatter.value);
      },
    },
  },
  {
    kills: "C07", rule: "skill-md.not-text", id: "binary-skill-md-as-io-error", description: "A SKILL.md with NUL bytes or invalid UTF-8 is reported as IO_ERROR.",
    mutation: { result: notTextAsIoError },
  },
  {
    kills: "C08", rule: "render.frontmatter-keys", id: "keys-always-bare", description: "The <frontmatter> emitter writes every key bare, so \"a b\", with:colon and null come out unquoted.",
    mutation: {
      result: onOk((r) => {
        const m = /<frontmatter>\n([\s\S]*?)<\/frontmatter>/.exec(r.output);
        if (!m) return r;
        const bare = m[1]!.replace(/^(\s*)"((?:[^"\\]|\\.)*)":/gm, "$1$2:");
        return { ...r, output: r.output.replace(m[1]!, bare) };
      }),
    },
  },
  {
    kills: "C08", rule: "render.frontmatter-keys", id: "frontmatter-echoes-source",
    description: "The <frontmatter> section echoes the SKILL.md's own YAML text instead of re-serialising the parsed value (the check could once be met this way).",
    mutation: {
      result: (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const a = readAuthored(ctx.config, r.name);
        const m = /<frontmatter>\n([\s\S]*?)<\/frontmatter>/.exec(r.output);
        return a && m ? { ...r, output: r.output.replace(m[1]!, `${a.yaml}\n`) } : r;
      },
    },
  },
];

export const CONTRACT_MUTANTS: readonly Mutant[] = toMutants(rows);
