// Owns the security suite's mutants: for every case of conformance/cases-security/ (S01…) at least one
// wrong implementation under which that case must fail. Each is the reference behind a wrapper
// (wrap.ts) that reproduces one real-world security mistake — a string-prefix fence, a path-joined name,
// a naive deep merge, a check-then-load race, … —; none needs a switch inside reference/.
// conformance/MUTANTS.md ("Security suite") documents them; conformance/test/security.test.ts runs them.
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import YAML from "yaml";
import { LIMITS } from "../../schemas/index.ts";
import type { CatalogEntry, OkResult, SkillResult } from "../../schemas/index.ts";
import type { SessionHandle } from "../../schemas/implementation.ts";
import { errorResult, isDir, rewriteCatalogLines, isObj, nameOf, readAuthored, toMutants, wrapReference, type AuthoredSkill, type Mutant, type MutantContext, type MutantRow, type Mutation, type Obj } from "./wrap.ts";

const NAME_RE = new RegExp(LIMITS.name_pattern);
const bytes = (s: string) => Buffer.byteLength(s, "utf8");

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function insideAny(path: string, roots: readonly string[]): boolean {
  return roots.some((r) => path === r || path.startsWith(r.endsWith(sep) ? r : r + sep));
}

/** An ok result built from an authored SKILL.md, the way a careless implementation would return it. */
function okFrom(a: AuthoredSkill, name: string, body = a.body): OkResult {
  const frontmatter = (a.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value : { name, description: "" }) as OkResult["frontmatter"];
  return {
    kind: "ok",
    name,
    dir: a.dir,
    body,
    frontmatter,
    resources: [],
    bytes: bytes(body),
    output: `<skill name="${name}" dir="${a.dir}">\n<instructions>\n${body}${body.endsWith("\n") ? "" : "\n"}</instructions>\n</skill>\n(Skill "${name}" activated. Body is ${bytes(body)} bytes.)`,
  };
}

/** Per-session state of a mutant, keyed by the wrapped session. */
function perSession<T>(make: () => T): (ctx: MutantContext) => T {
  const states = new WeakMap<SessionHandle, T>();
  return (ctx) => {
    let s = states.get(ctx.inner);
    if (!s) states.set(ctx.inner, (s = make()));
    return s;
  };
}

function subdirs(root: string): string[] {
  try {
    return readdirSync(root).filter((n) => !n.startsWith(".") && isDir(join(root, n)));
  } catch {
    return [];
  }
}

/** Roots plus every sibling directory whose path starts with a root's path: what a separator-less prefix fence admits. */
function withPrefixSiblings(roots: readonly string[]): string[] {
  const out = [...roots];
  for (const root of roots) {
    const r = real(root) ?? root;
    let siblings: string[] = [];
    try {
      siblings = readdirSync(dirname(r));
    } catch {
      continue;
    }
    for (const s of siblings) {
      const p = join(dirname(r), s);
      if (p !== r && p.startsWith(r) && isDir(p) && !out.includes(p)) out.push(p);
    }
  }
  return out;
}

/** The naive recursive merge of a thousand tutorials: follows __proto__ / constructor into the prototypes. */
function naiveMerge(target: Obj, source: Obj): Obj {
  for (const key in source) {
    const value = source[key];
    if (isObj(value)) {
      if (target[key] === null || typeof target[key] !== "object") target[key] = {};
      naiveMerge(target[key] as Obj, value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

/** Files under a skill's resource folders, found by a walker that follows symlinks (bounded only by depth). */
function followingWalk(dir: string, rel: string, depth: number, out: string[]): void {
  if (depth > 4) return;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names.sort()) {
    if (n.startsWith(".")) continue;
    try {
      const st = statSync(join(dir, n));
      if (st.isDirectory()) followingWalk(join(dir, n), `${rel}/${n}`, depth + 1, out);
      else out.push(`${rel}/${n}`);
    } catch {
      // a dangling link or a loop (ELOOP): skipped
    }
  }
}

const CONFUSABLES: Record<string, string> = {
  "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y", "\u0445": "x", "\u0456": "i",
  "\u03bf": "o", "\u1d0f": "o", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-",
};

/** NFKC-style folding, lower-casing, invisible-character stripping and confusable mapping: a "friendly" name matcher. */
function foldName(name: string): string {
  const folded = name.normalize("NFKD").replace(/[\p{Mn}\p{Cf}\s]/gu, "").normalize("NFKC").toLowerCase();
  return [...folded].map((ch) => CONFUSABLES[ch] ?? ch).join("");
}

function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (const ch of text) {
    if (ch === "[" || ch === "{") max = Math.max(max, ++depth);
    else if (ch === "]" || ch === "}") depth--;
  }
  return max;
}

/** What a tool that writes values raw shows: every \uXXXX escape of R91 turned back into its character. */
const raw = (text: string): string => text.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
const entities = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const racy = perSession(() => ({ loaded: new Map<string, number>(), bodies: new Map<string, SkillResult>(), activations: 0 }));
const discovered = perSession(() => new Set<string>());

const mutations: MutantRow[] = [
  {
    kills: "S01", rule: "fence.never-listed", id: "fence-string-prefix",
    description: "The fence compares path strings without a separator, so <tmp>/skills-evil/x passes for the root <tmp>/skills.",
    mutation: {
      config: (c) => ({
        ...c,
        skill_roots: withPrefixSiblings(c.skill_roots),
        ...(c.skill_trust ? { skill_trust: { ...c.skill_trust, trusted_roots: withPrefixSiblings(c.skill_trust.trusted_roots) } } : {}),
      }),
    },
  },
  {
    kills: "S02", rule: "fence.outside-workspace", id: "fence-dir-only",
    description: "The fence checks the skill directory's real path but not its SKILL.md's, so a SKILL.md symlinked out of the root is read.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "OUTSIDE_WORKSPACE" && name)) return r;
        const roots = ctx.config.skill_roots.map((x) => real(x) ?? x);
        for (const root of ctx.config.skill_roots) {
          const dir = real(join(root, name));
          const a = dir && insideAny(dir, roots) ? readAuthored({ skill_roots: [root] }, name) : undefined;
          if (a) return okFrom(a, name);
        }
        return r;
      },
    },
  },
  {
    kills: "S03", rule: "fence.root-symlink", id: "symlinked-root-refused",
    description: "The fence compares a skill's real path with the root as configured (not its real path), so a symlinked root, or one spelled with .., refuses every skill in it.",
    mutation: {
      catalog: (c, ctx) => {
        const bad = (e: CatalogEntry) => {
          const root = ctx.config.skill_roots[e.root_index];
          return root !== undefined && real(root) !== root;
        };
        return { ...c, entries: c.entries.filter((e) => !bad(e)) };
      },
      result: async (r, _p, _o, ctx) => {
        if (r.kind !== "ok") return r;
        const entry = (await ctx.inner.catalog()).entries.find((e) => e.name === r.name);
        const root = entry ? ctx.config.skill_roots[entry.root_index] : undefined;
        return root !== undefined && real(root) !== root
          ? errorResult("OUTSIDE_WORKSPACE", r.name, `skill "${r.name}" resolves outside the configured skill roots`)
          : r;
      },
    },
  },
  {
    kills: "S04", rule: "name.kebab-case", id: "path-names-not-found",
    description: "A name that is not kebab-case is looked up (and not found) instead of refused: not_found, never INVALID_PARAM. The security property of S04 holds (nothing is read through the name); only the classification rule fails, and S04 passes.",
    mutation: {
      before: (p) => {
        const name = nameOf(p);
        return name !== undefined && name !== "" && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) && !(name.length > 64) ? { kind: "not_found", name, siblings: [], output: `(No skill matches ${JSON.stringify(name)}.)` } : undefined;
      },
    },
  },
  {
    kills: "S04", rule: "name.no-path", id: "name-joined-as-path",
    description: "A name holding / \\ or .. is joined onto each root and read if a SKILL.md is there: path traversal through the name.",
    mutation: {
      before: (p, _o, ctx) => {
        const name = nameOf(p);
        if (!name || !/[\\/]|\.\./.test(name)) return undefined;
        for (const root of ctx.config.skill_roots) {
          const a = readAuthored({ skill_roots: [root] }, name.replace(/\\/g, "/"));
          if (a) return okFrom(a, basename(a.dir));
        }
        return undefined;
      },
    },
  },
  {
    kills: "S05", rule: "resources.no-follow-loop", id: "resources-follow-symlinks",
    description: "The resource walker follows symlinked directories (bounded only by depth), so a link to .. in scripts/ lists the skill over and over.",
    mutation: {
      result: (r) => {
        if (r.kind !== "ok") return r;
        const base = real(r.dir) ?? r.dir;
        const resources: string[] = [];
        for (const folder of LIMITS.resource_folders) {
          const all: string[] = [];
          followingWalk(join(base, folder), folder, 0, all);
          resources.push(...all.sort().slice(0, LIMITS.resources_per_folder));
        }
        return { ...r, resources };
      },
    },
  },
  {
    kills: "S06", rule: "fence.outside-workspace", id: "fence-at-discovery-only",
    description: "The fence runs at discovery only; activation reads whatever the discovered path points at by then (a time-of-check/time-of-use gap).",
    mutation: {
      catalog: (c, ctx) => {
        for (const e of c.entries) discovered(ctx).add(e.name);
        return c;
      },
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "OUTSIDE_WORKSPACE" && name && discovered(ctx).has(name))) return r;
        const a = readAuthored(ctx.config, name);
        return a ? okFrom(a, name) : r;
      },
    },
  },
  {
    kills: "S07", rule: "yaml.aliases", id: "alias-limit-raised",
    description: "The YAML alias bound is raised from 100 to 200 expansions: 150 aliases of a scalar are accepted (the 9^9 bomb still trips it).",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "INVALID_FRONTMATTER" && name)) return r;
        const a = readAuthored(ctx.config, name);
        if (!a || a.frontmatter.ok) return r;
        const lines = a.raw.split(/\r?\n/);
        const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
        try {
          const fm: unknown = YAML.parse(lines.slice(1, close).join("\n"), { maxAliasCount: 200, logLevel: "error" });
          if (!isObj(fm) || fm.name !== name) return r;
          return okFrom({ ...a, frontmatter: { ok: true, value: fm } }, name, lines.slice(close + 1).join("\n"));
        } catch {
          return r;
        }
      },
    },
  },
  {
    kills: "S08", rule: "errors.io-error", id: "oversized-truncated",
    description: "A SKILL.md over the 1 MiB cap is read anyway and its body cut at the cap, instead of refused with IO_ERROR.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "IO_ERROR" && name)) return r;
        const a = readAuthored(ctx.config, name);
        if (!a?.frontmatter.ok || bytes(a.raw) <= LIMITS.skill_md_max_bytes) return r;
        return okFrom(a, name, a.body.slice(0, LIMITS.skill_md_max_bytes));
      },
    },
  },
  {
    kills: "S09", rule: "errors.structured", id: "lossy-utf8-decoding",
    description: "SKILL.md is decoded leniently (invalid bytes become U+FFFD, NULs pass), so binary or mis-encoded files activate.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && (r.code === "INVALID_FRONTMATTER" || r.code === "IO_ERROR") && name)) return r;
        const a = readAuthored(ctx.config, name);
        return a?.frontmatter.ok && isObj(a.frontmatter.value) && a.frontmatter.value.name === name ? okFrom(a, name) : r;
      },
    },
  },
  {
    kills: "S10", rule: "prototype.unchanged", id: "naive-deep-merge",
    description: "The frontmatter is deep-merged into a fresh object by a naive recursive merge: __proto__ keys pollute Object.prototype and vanish from the result.",
    mutation: {
      result: (r) => (r.kind === "ok" ? { ...r, frontmatter: naiveMerge({}, r.frontmatter as Obj) as OkResult["frontmatter"] } : r),
    },
  },
  {
    kills: "S11", rule: "arguments.undeclared-key", id: "input-copied-into-plain-objects",
    description: "Parameters and named arguments are copied key by key into plain {} objects, so a __proto__ key is silently swallowed (by the setter) instead of refused.",
    mutation: {
      params: (p) => {
        if (!isObj(p)) return p;
        const copy: Obj = {};
        for (const [k, v] of Object.entries(p)) copy[k] = v;
        if (isObj(p.arguments)) {
          const args: Obj = {};
          for (const [k, v] of Object.entries(p.arguments)) args[k] = v;
          copy.arguments = args;
        }
        return copy;
      },
    },
  },
  {
    kills: "S12", rule: "yaml.deep-structured", id: "deep-yaml-as-io-error",
    description: "A parser stack overflow on deeply nested YAML escapes as an unexpected failure (IO_ERROR) instead of INVALID_FRONTMATTER.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "error" && r.code === "INVALID_FRONTMATTER" && name)) return r;
        const a = readAuthored(ctx.config, name);
        const deep = a && (flowDepth(a.raw) > 1000 || /(- ){1000}/.test(a.raw));
        return deep ? errorResult("IO_ERROR", name, `skill "${name}" could not be read: Maximum call stack size exceeded`) : r;
      },
    },
  },
  {
    kills: "S13", rule: "name.no-folding", id: "names-folded",
    description: "Names are folded before the check (NFKC, lower-case, invisible characters stripped, confusables mapped), so Cyrillic h\u0435llo activates hello.",
    mutation: {
      params: (p) => (isObj(p) && typeof p.name === "string" ? { ...p, name: foldName(p.name) } : p),
    },
  },
  {
    kills: "S14", rule: "name.no-folding", id: "identity-from-frontmatter",
    description: "Skills are keyed by their frontmatter name, not their directory: skills/h\u0435llo (Cyrillic) holding name: hello answers to hello.",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "not_found" && name)) return r;
        for (const root of ctx.config.skill_roots) {
          for (const d of subdirs(root)) {
            const a = readAuthored({ skill_roots: [root] }, d);
            if (a?.frontmatter.ok && isObj(a.frontmatter.value) && a.frontmatter.value.name === name) return okFrom(a, name);
          }
        }
        return r;
      },
    },
  },
  {
    kills: "S15", rule: "discovery.skip-no-skill-md", id: "every-entry-listed",
    description: "Every kebab-named subdirectory of a root is listed as a skill, SKILL.md or not (and is IO_ERROR when activated).",
    mutation: {
      catalog: (c, ctx) => {
        const extra: CatalogEntry[] = [];
        ctx.config.skill_roots.forEach((root, root_index) => {
          for (const d of subdirs(root)) {
            if (!NAME_RE.test(d) || c.entries.some((e) => e.name === d) || existsSync(join(root, d, "SKILL.md"))) continue;
            extra.push({ name: d, description: "(no SKILL.md)", dir: join(root, d), root_index, frontmatter: { name: d, description: "(no SKILL.md)" }, meta: { shadowed: [] } });
          }
        });
        return { ...c, entries: [...c.entries, ...extra].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
      },
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        if (!(r.kind === "not_found" && name)) return r;
        const root = ctx.config.skill_roots.find((x) => isDir(join(x, name)));
        return root ? errorResult("IO_ERROR", name, `skill "${name}": cannot read ${join(root, name, "SKILL.md")}`) : r;
      },
    },
  },
  {
    kills: "S16", rule: "concurrency.once-each", id: "check-then-load-race",
    description: "Dedupe is check-then-act across an await: a call checks the loaded set, loads (re-rendering the body if it was loaded meanwhile), and only then marks the skill, so concurrent calls for one skill all come back ok.",
    mutation: {
      before: async (p, o, ctx) => {
        const name = nameOf(p);
        if (!name) return undefined;
        const st = racy(ctx);
        const at = st.loaded.get(name);
        if (at !== undefined) return { kind: "already_loaded", name, at_turn: at, output: `(Skill "${name}" is already active in this session.)` };
        const r = await ctx.forward(p, o);
        const earlier = st.bodies.get(name);
        if (r.kind === "already_loaded" && earlier) return earlier;
        if (r.kind === "ok") {
          st.bodies.set(name, r);
          st.loaded.set(name, ++st.activations);
        }
        return r;
      },
    },
  },
  {
    kills: "S16", rule: "concurrency.call-order", id: "unordered-settlement",
    description: "Results are right but settle out of call order: each ok is held back a few milliseconds, so later already_loaded answers overtake it.",
    mutation: {
      result: async (r) => {
        if (r.kind === "ok") await new Promise((done) => setTimeout(done, 3));
        return r;
      },
    },
  },
  {
    kills: "S17", rule: "params.type", id: "lenient-input-coercion",
    description: "A bare string as the tool input is taken as the skill name (and a non-string name is stringified): lenient coercion instead of INVALID_PARAM.",
    mutation: {
      params: (p) => (typeof p === "string" ? { name: p } : isObj(p) && typeof p["name"] === "number" ? { ...p, name: String(p["name"]) } : p),
    },
  },
  {
    kills: "S18", rule: "forge.error-output", id: "error-values-raw",
    description: "An error's output writes the values it echoes (a requested name, a frontmatter name or key, an argument name, an argument-hint) raw: a line feed in one starts a forged 'Hint:' line.",
    mutation: {
      result: (r) => (r.kind === "error" ? { ...r, output: raw(r.output) } : r),
    },
  },
  {
    kills: "S19", rule: "forge.catalog-warning", id: "warning-values-raw",
    description: "Catalog warnings write the broken skill's name or key raw: a line feed in one starts a forged line in the warning.",
    mutation: {
      catalog: (c) => ({ ...c, warnings: c.warnings.map(raw) }),
    },
  },
  {
    kills: "S20", rule: "forge.catalog-line", id: "description-not-folded",
    description: "The catalog line escapes the description's markup but keeps its line breaks: a description starts lines of its own in the tool description.",
    mutation: {
      catalog: (c) => rewriteCatalogLines(c, (e, attrs) => `<skill name="${e.name}"${attrs}>${entities(e.description.trim())}</skill>`),
    },
  },
  {
    kills: "S21", rule: "forge.skill-block", id: "attribute-values-raw",
    description: "The <skill> block writes the dir attribute, the note's paths and the resource names raw (XML entities only): a line feed in the root's path or a file name starts a forged line.",
    mutation: {
      result: (r) => (r.kind === "ok" ? { ...r, output: raw(r.output) } : r),
    },
  },
  {
    kills: "S09", rule: "discovery.decision-invalid-omitted", id: "nul-body-listed",
    description: "A SKILL.md whose only flaw is a NUL in the body is listed in the catalog (byte-exact text to the spec; R13/R37 refuse it).",
    mutation: {
      catalog: (c, ctx) => {
        const root = ctx.config.skill_roots[0]!;
        const entry = { name: "nul-body", description: "x", dir: `${root}/nul-body`, root_index: 0, frontmatter: { name: "nul-body", description: "x" }, meta: { shadowed: [] } } as CatalogEntry;
        return existsSync(`${root}/nul-body`) ? { ...c, entries: [...c.entries, entry].sort((a, b) => (a.name < b.name ? -1 : 1)) } : c;
      },
    },
  },
];

export const SECURITY_MUTANTS: readonly Mutant[] = toMutants(mutations);
