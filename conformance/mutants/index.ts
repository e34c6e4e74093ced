// Owns the spec matrix's mutant table: for every case of U01…U30 one wrong implementation under
// which that case must fail. Each is the reference behind a wrapper that corrupts exactly one
// behaviour (wrap.ts); none needs a switch inside reference/. conformance/MUTANTS.md documents them.
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { ALIASES } from "../../schemas/index.ts";
import type { CatalogEntry, ErrorResult, OkResult, SessionConfig, SkillResult } from "../../schemas/index.ts";
import { errorResult, isDir, isObj, nameOf, readAuthored, toMutants, type Mutant, type MutantRow, type Mutation, type Obj } from "./wrap.ts";

export type { Mutant } from "./wrap.ts";

const withName = (params: unknown, f: (name: string) => string): unknown =>
  isObj(params) && typeof params.name === "string" ? { ...params, name: f(params.name) } : params;

const onOk = (f: (r: OkResult, params: unknown, config: SessionConfig) => SkillResult): Mutation["result"] => (r, p, _o, ctx) =>
  r.kind === "ok" ? f(r, p, ctx.config) : r;

const onError = (code: string, f: (r: ErrorResult, params: unknown, config: SessionConfig) => SkillResult): Mutation["result"] => (r, p, _o, ctx) =>
  r.kind === "error" && r.code === code ? f(r, p, ctx.config) : r;

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

const KNOWN_FIELDS = new Set(["name", "description", "license", "compatibility", "metadata", "allowed-tools", "version", "argument-hint", "disable-model-invocation", "user-invocable", "arguments"]);
const knownOnly = (fm: Obj): Obj => Object.fromEntries(Object.entries(fm).filter(([k]) => KNOWN_FIELDS.has(k)));

function authoredTools(config: SessionConfig, name: string): unknown {
  const a = readAuthored(config, name);
  return a?.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value["allowed-tools"] : undefined;
}

/** Subdirectories of the roots that hold no SKILL.md, as the broken scanner of the U29 mutant sees them. */
function dirsWithoutSkillMd(config: SessionConfig): Array<{ name: string; dir: string; root_index: number }> {
  const out: Array<{ name: string; dir: string; root_index: number }> = [];
  config.skill_roots.forEach((root, root_index) => {
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      return;
    }
    for (const n of names) {
      const dir = join(root, n);
      if (!n.startsWith(".") && isDir(dir) && !readAuthored({ skill_roots: [root] }, n)) out.push({ name: n, dir, root_index });
    }
  });
  return out;
}

const mutations: MutantRow[] = [
  {
    kills: "U01", rule: "name.required", id: "empty-name-looked-up", description: "An empty name is looked up instead of refused: not_found, not INVALID_PARAM.",
    mutation: { before: (p) => (nameOf(p) === "" ? { kind: "not_found", name: "", siblings: [], output: '(No skill matches "".)' } : undefined) },
  },
  {
    kills: "U02", rule: "name.kebab-case", id: "name-case-folded", description: "Names are case-folded and _ turned into - before the check, so \"Hello\" activates hello.",
    mutation: { params: (p) => withName(p, (n) => n.toLowerCase().replace(/_/g, "-")) },
  },
  {
    kills: "U03", rule: "name.max-length", id: "long-name-truncated", description: "Names over 64 characters are truncated to 64 instead of refused.",
    mutation: { params: (p) => withName(p, (n) => n.slice(0, 64)) },
  },
  {
    kills: "U04", rule: "not-found.siblings", id: "no-siblings", description: "not_found never offers fuzzy-matched siblings.",
    mutation: { result: (r) => (r.kind === "not_found" ? { ...r, siblings: [] } : r) },
  },
  {
    kills: "U05", rule: "params.aliases", id: "aliases-accepted", description: "Known aliases are silently accepted: skill_name → name, params → arguments, reload dropped.",
    mutation: {
      params: (p) => {
        if (!isObj(p)) return p;
        const out: Obj = {};
        for (const [k, v] of Object.entries(p)) {
          const a = ALIASES.find((x) => x.alias === k);
          if (!a) out[k] = v;
          else if (a.action === "rename" && a.target && !(a.target in p)) out[a.target] = v;
        }
        return out;
      },
    },
  },
  {
    kills: "U06", rule: "name.matches-dir", id: "mismatch-as-frontmatter", description: "A frontmatter name that differs from the directory is reported as INVALID_FRONTMATTER, not NAME_MISMATCH.",
    mutation: { result: onError("NAME_MISMATCH", (r) => ({ ...r, code: "INVALID_FRONTMATTER", output: r.output.replace("NAME_MISMATCH", "INVALID_FRONTMATTER") })) },
  },
  {
    kills: "U07", rule: "frontmatter.malformed", id: "yaml-error-as-io-error", description: "Frontmatter that is not valid YAML is reported as IO_ERROR instead of INVALID_FRONTMATTER.",
    mutation: {
      result: onError("INVALID_FRONTMATTER", (r, p, config) => {
        const a = readAuthored(config, nameOf(p) ?? "");
        return a && !a.frontmatter.ok ? { ...r, code: "IO_ERROR", output: r.output.replace("INVALID_FRONTMATTER", "IO_ERROR") } : r;
      }),
    },
  },
  {
    kills: "U08", rule: "frontmatter.required-fields", id: "description-optional", description: "description is treated as optional: a SKILL.md without it activates.",
    mutation: {
      result: onError("INVALID_FRONTMATTER", (r, p, config) => {
        const name = nameOf(p) ?? "";
        const a = readAuthored(config, name);
        if (!a?.frontmatter.ok || !isObj(a.frontmatter.value) || a.frontmatter.value.description !== undefined) return r;
        return { kind: "ok", name, dir: a.dir, body: a.body, frontmatter: a.frontmatter.value as OkResult["frontmatter"], resources: [], bytes: bytes(a.body), output: `<skill name="${name}">\n${a.body}</skill>` };
      }),
    },
  },
  {
    kills: "U09", rule: "frontmatter.unknown-preserved", id: "unknown-fields-dropped", description: "Unknown frontmatter fields (hooks, context, …) are stripped instead of preserved.",
    mutation: {
      result: onOk((r) => ({ ...r, frontmatter: knownOnly(r.frontmatter) as OkResult["frontmatter"] })),
      catalog: (c) => ({ ...c, entries: c.entries.map((e) => ({ ...e, frontmatter: knownOnly(e.frontmatter) as CatalogEntry["frontmatter"] })) }),
    },
  },
  {
    kills: "U10", rule: "fence.outside-workspace", id: "fence-on-parent", description: "The fence admits anything under a root's parent directory, so ../ symlinks out of the root activate.",
    mutation: { config: (c) => ({ ...c, skill_roots: [...c.skill_roots, ...c.skill_roots.map((r) => join(r, ".."))] }) },
  },
  {
    kills: "U11", rule: "sensitive.refused", id: "sensitive-ignored", description: "sensitive_patterns are ignored: a skill under secrets/ activates without a hook.",
    mutation: { config: (c) => ({ ...c, sensitive_patterns: [] }) },
  },
  {
    kills: "U12", rule: "disabled.model", id: "disable-model-invocation-ignored", description: "disable-model-invocation is ignored: every call is treated as user-initiated.",
    mutation: { invocation: () => "user" },
  },
  {
    kills: "U13", rule: "disabled.user-ok", id: "user-invocation-ignored", description: "The harness's user-invocation flag is ignored: every call is treated as the model's, so user-only skills are DISABLED.",
    mutation: { invocation: () => "model" },
  },
  {
    kills: "U14", rule: "trust.not-trusted", id: "every-root-trusted", description: "Every root is trusted: untrusted project skills activate without a hook.",
    mutation: { config: (c) => ({ ...c, skill_trust: { ...(c.skill_trust ?? {}), trusted_roots: [...c.skill_roots] } }) },
  },
  {
    kills: "U15", rule: "trust.unsafe-allow", id: "unsafe-flag-ignored", description: "unsafeAllowSkillWithoutHook is ignored: untrusted skills stay NOT_TRUSTED.",
    mutation: {
      config: (c) => {
        const permission = { ...(c.permission ?? {}) };
        delete permission.unsafeAllowSkillWithoutHook;
        return { ...c, permission };
      },
    },
  },
  {
    kills: "U16", rule: "output.skill-block", id: "unwrapped-output", description: "The output is the bare body plus the note: no <skill> / <frontmatter> / <instructions> wrapper.",
    mutation: { result: onOk((r) => ({ ...r, output: r.output.replace(/^[\s\S]*<\/skill>\n/, r.body) })) },
  },
  {
    kills: "U17", rule: "dedupe.already-loaded", id: "no-dedupe", description: "Activations are forgotten: a second call reloads instead of already_loaded.",
    mutation: { freshSessionPerCall: true },
  },
  {
    kills: "U18", rule: "substitution.string", id: "string-arguments-dropped", description: "String arguments are dropped: $ARGUMENTS stays literal.",
    mutation: {
      params: (p) => {
        if (!isObj(p) || typeof p.arguments !== "string") return p;
        const { arguments: _a, ...rest } = p;
        return rest;
      },
    },
  },
  {
    kills: "U19", rule: "substitution.named", id: "named-arguments-not-substituted", description: "Named arguments are validated but ${name} placeholders are left in the body.",
    mutation: {
      result: onOk((r, p) => {
        if (!isObj(p) || !isObj(p.arguments)) return r;
        let body = r.body;
        let output = r.output;
        for (const [k, v] of Object.entries(p.arguments)) {
          if (typeof v !== "string" || !v) continue;
          body = body.split(v).join("${" + k + "}");
          output = output.split(v).join("${" + k + "}");
        }
        return { ...r, body, output, bytes: bytes(body) };
      }),
    },
  },
  {
    kills: "U20", rule: "arguments.map-to-undeclared", id: "undeclared-named-arguments-ignored", description: "Object arguments on a skill that declares none are ignored instead of refused.",
    mutation: {
      result: async (r, p, o, ctx) => {
        if (r.kind === "error" && r.code === "INVALID_PARAM" && isObj(p) && isObj(p.arguments)) return ctx.forward({ name: p.name }, o);
        return r;
      },
    },
  },
  {
    kills: "U21", rule: "arguments.string-to-named", id: "string-bound-to-first-named-argument", description: "A string sent to a named-argument skill is bound to its first declared argument instead of refused.",
    mutation: {
      result: async (r, p, o, ctx) => {
        if (!(r.kind === "error" && r.code === "INVALID_PARAM" && isObj(p) && typeof p.arguments === "string")) return r;
        const entry = (await ctx.inner.catalog()).entries.find((e) => e.name === p.name);
        const first = entry && isObj(entry.frontmatter.arguments) ? Object.keys(entry.frontmatter.arguments)[0] : undefined;
        return first ? ctx.forward({ name: p.name, arguments: { [first]: p.arguments } }, o) : r;
      },
    },
  },
  {
    kills: "U22", rule: "resources.listed", id: "scripts-only-resources", description: "Only scripts/ is enumerated: references/ and assets/ are never listed.",
    mutation: {
      result: onOk((r) => ({
        ...r,
        resources: r.resources.filter((x) => x.startsWith("scripts/")),
        output: r.output.replace(/^(references|assets)\/.*\n/gm, ""),
      })),
    },
  },
  {
    kills: "U23", rule: "resources.omitted-count", id: "no-more-marker", description: "Lists up to 10 resources but drops the (... N more) marker and resources_omitted.",
    mutation: {
      result: onOk((r) => {
        const { resources_omitted: _o, ...rest } = r;
        return { ...rest, output: r.output.replace(/^\(\.\.\. \d+ more\)\n/gm, "") };
      }),
    },
  },
  {
    kills: "U24", rule: "hook.deny", id: "deny-means-allow", description: "The hook's deny is ignored (treated as allow).",
    mutation: { hookAnswer: (a) => (a === "deny" ? "allow" : a) },
  },
  {
    kills: "U25", rule: "hook.ask-is-deny", id: "ask-means-allow", description: "The hook's ask is treated as allow instead of deny.",
    mutation: { hookAnswer: (a) => (a === "ask" ? "allow" : a) },
  },
  {
    kills: "U26", rule: "allowed-tools.normalised", id: "string-tools-unsplit", description: "allowed-tools in string form is kept as one entry (\"Read, Grep\") instead of split.",
    mutation: {
      result: onOk((r, _p, config) => {
        const t = authoredTools(config, r.name);
        return typeof t === "string" ? { ...r, frontmatter: { ...r.frontmatter, "allowed-tools": [t] } } : r;
      }),
    },
  },
  {
    kills: "U27", rule: "allowed-tools.normalised", id: "array-tools-rejected", description: "allowed-tools in array form is rejected as INVALID_FRONTMATTER (only the string form is accepted).",
    mutation: {
      result: onOk((r, _p, config) =>
        Array.isArray(authoredTools(config, r.name)) ? errorResult("INVALID_FRONTMATTER", r.name, `skill "${r.name}": allowed-tools must be a string`) : r,
      ),
    },
  },
  {
    kills: "U28", rule: "shadowing.lower-index-wins", id: "last-root-wins", description: "Shadowing order is reversed: the last root wins a name collision.",
    mutation: { config: (c) => ({ ...c, skill_roots: [...c.skill_roots].reverse() }) },
  },
  {
    kills: "U29", rule: "discovery.skip-no-skill-md", id: "dirs-without-skill-md-listed", description: "Every subdirectory is a skill: one without SKILL.md is listed and activating it is IO_ERROR.",
    mutation: {
      catalog: (c, ctx) => {
        const extra: CatalogEntry[] = dirsWithoutSkillMd(ctx.config)
          .filter((d) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(d.name) && !c.entries.some((e) => e.name === d.name))
          .map((d) => ({ name: d.name, description: "(no SKILL.md)", dir: d.dir, root_index: d.root_index, frontmatter: { name: d.name, description: "(no SKILL.md)" }, meta: { shadowed: [] } }));
        return { ...c, entries: [...c.entries, ...extra].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
      },
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        const hit = name && r.kind === "not_found" ? dirsWithoutSkillMd(ctx.config).find((d) => basename(d.dir) === name) : undefined;
        return hit ? errorResult("IO_ERROR", name!, `skill "${name}": cannot read ${join(hit.dir, "SKILL.md")}`) : r;
      },
    },
  },
  {
    kills: "U30", rule: "body.crlf-as-lf", id: "crlf-kept", description: "CRLF line endings are kept in the body instead of read as LF.",
    mutation: {
      result: onOk((r, _p, config) => {
        const a = readAuthored(config, r.name);
        if (!a?.raw.includes("\r\n")) return r;
        const body = r.body.replace(/\r?\n/g, "\r\n");
        return { ...r, body, bytes: bytes(body), output: r.output.replace(r.body, body) };
      }),
    },
  },
  {
    kills: "U16", rule: "body.verbatim", id: "body-trimmed",
    description: "The SKILL.md body is trimmed (its final newline and surrounding blank space dropped), as several real harnesses do: §4.5 rule 6 says verbatim.",
    mutation: {
      result: onOk((r) => {
        const body = r.body.trim();
        return body === r.body ? r : { ...r, body, bytes: bytes(body), output: r.output.replace(r.body, `${body}\n`) };
      }),
    },
  },
  // The decision rules issue 25 split off a spec rule: each still fails its case under its own rule.
  {
    kills: "U04", rule: "not-found.siblings-ranked", id: "closest-sibling-only",
    description: "not_found offers only the closest installed name: the spec's part holds (the closest first, none unrelated), R8's exact list of up to 3 does not.",
    mutation: { result: (r) => (r.kind === "not_found" ? ({ ...r, siblings: r.siblings.slice(0, 1) } as SkillResult) : r) },
  },
  {
    kills: "U14", rule: "trust.trusted-root-no-hook", id: "no-hook-fails-closed",
    description: "With no hook and no unsafe flag every activation is NOT_TRUSTED, trusted root or not (S-D10's fail-closed reading instead of D5's).",
    mutation: {
      before: (p, _o, ctx) => {
        const name = nameOf(p);
        const perm = ctx.config.permission;
        if (name === undefined || perm?.hook || perm?.unsafeAllowSkillWithoutHook) return undefined;
        return errorResult("NOT_TRUSTED", name, `skill "${name}" needs a permission hook to approve it`);
      },
    },
  },
  {
    kills: "U28", rule: "shadowing.metadata-untouched", id: "shadowed-into-metadata",
    description: "The shadowed dirs are also written into the activated skill's frontmatter.metadata.shadowed (§13.1 case 28's wording), not only into the catalog entry's meta.",
    mutation: {
      result: onOk((r, _p, config) => {
        const root = config.skill_roots.find((x) => r.dir.startsWith(x));
        const shadowed = config.skill_roots.filter((x) => x !== root).map((x) => `${x}/${r.name}`).filter((d) => isDir(d));
        return { ...r, frontmatter: { ...r.frontmatter, metadata: { ...(isObj(r.frontmatter.metadata) ? r.frontmatter.metadata : {}), shadowed } } };
      }),
    },
  },
  {
    kills: "U17", rule: "result.schema-contract", id: "bare-already-loaded",
    description: "already_loaded comes back as §3.2's structured shape alone ({kind, name, at_turn}), without the output the kit's result schema requires.",
    mutation: {
      result: (r) => {
        if (r.kind !== "already_loaded") return r;
        const { output: _output, ...bare } = r;
        return bare as SkillResult;
      },
    },
  },
  {
    kills: "U28", rule: "catalog.schema-contract", id: "meta-only-when-shadowing",
    description: "A catalog entry carries meta only when it shadows something (§5.1 'populated' read as 'present'), not meta.shadowed: [] on every entry.",
    mutation: {
      catalog: (c) => ({ ...c, entries: c.entries.map((e) => (e.meta.shadowed.length ? e : (({ meta: _m, ...rest }) => rest)(e) as CatalogEntry)) }),
    },
  },
];

// The security suite's mutants are in security.ts (SECURITY_MUTANTS), the contract suite's in contract.ts.
export const MUTANTS: readonly Mutant[] = toMutants(mutations);
