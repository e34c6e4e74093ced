// Owns the machinery mutants are built from: an Implementation that wraps the reference's public
// createSession (loaded through the in-process driver, never reference/ internals) and corrupts one
// behaviour through hooks on config, params, invocation, hook answers, results and the catalog.
// Also a tiny independent reader of SKILL.md files, for mutants that need the authored form.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { codePath } from "../../package-root.ts";
import YAML from "yaml";
import { escapeRe } from "../parity-semantic.ts";
import type {
  Catalog,
  CatalogEntry,
  OkResult,
  PermissionDecision,
  SessionConfig,
  SkillResult,
} from "../../schemas/index.ts";
import { loadModule } from "../driver/in-process.ts";
import type {
  CallOptions,
  Implementation,
  PermissionHook,
  SessionHandle,
  SessionOptions,
} from "../../schemas/implementation.ts";

export const REFERENCE_MODULE = codePath("reference/index");

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export interface MutantContext {
  /** The config the kit passed (templated), before any config mutation. */
  readonly config: SessionConfig;
  /** The reference session the mutant wraps. */
  readonly inner: SessionHandle;
  /** Call the reference directly. */
  forward(params: unknown, options: CallOptions): Promise<SkillResult>;
  /** The permission hook the kit passed (its scripted hook), when the session has one. */
  readonly hook?: PermissionHook;
}

/** A wrong implementation, keyed by {case, rule}: the rule it breaks must be among the failed rules of a run of that
 *  case (and the case fails when the rule is one it exists to test). Every table of mutants (index.ts for the spec
 *  matrix, security.ts, contract.ts, frontmatter.ts) is a list of these; they import it from here, never from each
 *  other. conformance/test/mutants.test.ts is the one test of them all. */
export interface Mutant {
  id: string;
  /** The case that shows the broken rule. */
  kills: string;
  /** The rule (schemas/rules.json) the mutant breaks. */
  rule: string;
  description: string;
  make(): Promise<Implementation>;
}

/** A table row: which case and rule it is caught by, its id and description, and the one behaviour it corrupts. */
export interface MutantRow {
  kills: string;
  rule: string;
  id: string;
  description: string;
  mutation: Mutation;
}

export function toMutants(rows: readonly MutantRow[]): readonly Mutant[] {
  return rows.map(({ kills, rule, id, description, mutation }) => ({
    id,
    kills,
    rule,
    description,
    make: () => wrapReference(id, mutation),
  }));
}

export interface Mutation {
  /** options: what the kit passed createSession (the hook, the case's environment). */
  config?(config: SessionConfig, options: SessionOptions): SessionConfig;
  params?(params: unknown): unknown;
  invocation?(invocation: CallOptions["invocation"]): CallOptions["invocation"];
  hookAnswer?(answer: PermissionDecision): PermissionDecision;
  /** Stand between the reference and the kit's hook: change what is asked, ask twice, or answer without asking. */
  hook?(kitHook: PermissionHook): PermissionHook;
  /** Replace the whole call; return undefined to fall through to the reference. */
  before?(
    params: unknown,
    options: CallOptions,
    ctx: MutantContext,
  ): Promise<SkillResult | undefined> | SkillResult | undefined;
  result?(
    result: SkillResult,
    params: unknown,
    options: CallOptions,
    ctx: MutantContext,
  ): Promise<SkillResult> | SkillResult;
  catalog?(catalog: Catalog, ctx: MutantContext): Catalog;
  /** Forget every activation: a fresh reference session for every call. */
  freshSessionPerCall?: boolean;
}

export async function wrapReference(label: string, m: Mutation): Promise<Implementation> {
  const ref = await loadModule(REFERENCE_MODULE);
  return {
    info: { ...ref.info, implementation: { ...ref.info.implementation, name: `mutant-${label}` } },
    async dispose() {
      await ref.dispose();
    },
    async createSession(config: SessionConfig, options: SessionOptions): Promise<SessionHandle> {
      const innerConfig = m.config ? m.config(structuredClone(config), options) : config;
      const innerOptions: SessionOptions = {};
      if (options.hook) {
        const hook: PermissionHook = options.hook;
        const answered: PermissionHook = m.hookAnswer ? async (req) => m.hookAnswer!(await hook(req)) : hook;
        innerOptions.hook = m.hook ? m.hook(answered) : answered;
      }
      const opened: SessionHandle[] = [];
      const open = async () => {
        const s = await ref.createSession(innerConfig, innerOptions);
        opened.push(s);
        return s;
      };
      const inner = await open();
      const ctx: MutantContext = {
        config,
        inner,
        forward: (p, o) => inner.call(p, o),
        ...(options.hook ? { hook: options.hook } : {}),
      };
      return {
        async catalog() {
          const c = await inner.catalog();
          return m.catalog ? m.catalog(c, ctx) : c;
        },
        async call(params: unknown, options: CallOptions) {
          const p = m.params ? m.params(params) : params;
          const o: CallOptions = m.invocation ? { ...options, invocation: m.invocation(options.invocation) } : options;
          const early = m.before ? await m.before(p, o, ctx) : undefined;
          if (early) return early;
          const session = m.freshSessionPerCall ? await open() : inner;
          const r = await session.call(p, o);
          return m.result ? await m.result(r, p, o, ctx) : r;
        },
        async close() {
          for (const s of opened) await s.close();
        },
      };
    },
  };
}

export interface AuthoredSkill {
  dir: string;
  file: string;
  raw: string;
  /** The frontmatter's YAML text (between the first two --- lines). */
  yaml: string;
  /** The parsed frontmatter, or the YAML error. */
  frontmatter: { ok: true; value: unknown } | { ok: false; error: string };
  body: string;
}

/** The ok result a careless implementation gives for an authored skill: its body, the given frontmatter, no resources. */
export function okFromAuthored(a: AuthoredSkill, name: string, frontmatter: unknown): OkResult {
  return {
    kind: "ok",
    name,
    dir: a.dir,
    body: a.body,
    frontmatter: frontmatter as OkResult["frontmatter"],
    resources: [],
    bytes: Buffer.byteLength(a.body),
    output: `<skill name="${name}" dir="${a.dir}">\n<instructions>\n${a.body}</instructions>\n</skill>\n`,
  };
}

/** The first root's <root>/<name>/SKILL.md, read independently of the reference. */
export function readAuthored(config: SessionConfig, name: string): AuthoredSkill | undefined {
  for (const root of config.skill_roots) {
    const dir = join(root, name);
    const file = join(dir, "SKILL.md");
    if (!existsSync(file)) continue;
    const raw = readFileSync(file, "utf8");
    const lines = raw.replace(/^\uFEFF/, "").split(/\r?\n/);
    if (lines[0]?.trimEnd() !== "---")
      return { dir, file, raw, yaml: "", frontmatter: { ok: true, value: {} }, body: raw };
    const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
    if (close < 0) return { dir, file, raw, yaml: "", frontmatter: { ok: false, error: "no closing ---" }, body: "" };
    const body = lines.slice(close + 1).join("\n");
    const yaml = lines.slice(1, close).join("\n");
    try {
      return { dir, file, raw, yaml, frontmatter: { ok: true, value: YAML.parse(yaml, { logLevel: "error" }) }, body };
    } catch (e) {
      return { dir, file, raw, yaml, frontmatter: { ok: false, error: (e as Error).message }, body };
    }
  }
  return undefined;
}

export function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function nameOf(params: unknown): string | undefined {
  return isObj(params) && typeof params.name === "string" ? params.name : undefined;
}

export function errorResult(code: string, name: string, message: string): SkillResult {
  return { kind: "error", code, name, message, output: `Error [${code}]: ${message}` } as SkillResult;
}

/**
 * The catalog with each entry's line of the tool description, `<skill name="…"…>…</skill>`, replaced by
 * `line(entry, attrs)` (attrs: what follows the name inside the tag): how the catalog mutants write a wrong line.
 */
export function rewriteCatalogLines(c: Catalog, line: (e: CatalogEntry, attrs: string) => string): Catalog {
  let text = c.tool_description;
  for (const e of c.entries)
    text = text.replace(new RegExp(`<skill name="${escapeRe(e.name)}"([^>]*)>[^\\n]*</skill>`), (_m, attrs: string) =>
      line(e, attrs),
    );
  return { ...c, tool_description: text };
}
