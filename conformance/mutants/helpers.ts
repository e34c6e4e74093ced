// Owns what the mutants of more than one case share: small builders of wrong behaviour (result rewrites, an
// independent reader's view of a root, YAML re-readings, per-session state) that a case's own
// <ID>.mutants.ts file combines. A case's mutants live beside the case (conformance/cases*/<ID>.mutants.ts) and
// import only this module and wrap.ts; what only one case uses lives in that case's file.
import { readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import type { SessionHandle } from "../../schemas/implementation.ts";
import {
  type CatalogEntry,
  type ErrorResult,
  LIMITS,
  type OkResult,
  type SessionConfig,
  type SkillResult,
} from "../../schemas/index.ts";
import { message } from "../../schemas/messages.ts";
import {
  type AuthoredSkill,
  errorResult,
  isDir,
  isObj,
  type MutantContext,
  type Mutation,
  nameOf,
  type Obj,
  okFromAuthored,
  readAuthored,
} from "./wrap.ts";

export const withName = (params: unknown, f: (name: string) => string): unknown =>
  isObj(params) && typeof params.name === "string" ? { ...params, name: f(params.name) } : params;

export const onOk =
  (f: (r: OkResult, params: unknown, config: SessionConfig) => SkillResult): Mutation["result"] =>
  (r, p, _o, ctx) =>
    r.kind === "ok" ? f(r, p, ctx.config) : r;

export const onError =
  (code: string, f: (r: ErrorResult, params: unknown, config: SessionConfig) => SkillResult): Mutation["result"] =>
  (r, p, _o, ctx) =>
    r.kind === "error" && r.code === code ? f(r, p, ctx.config) : r;

export const bytes = (s: string) => Buffer.byteLength(s, "utf8");

export function authoredTools(config: SessionConfig, name: string): unknown {
  const a = readAuthored(config, name);
  return a?.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value["allowed-tools"] : undefined;
}

export function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** An ok result built from an authored SKILL.md, the way a careless implementation would return it. */
export function okFrom(a: AuthoredSkill, name: string, body = a.body): OkResult {
  const frontmatter = (
    a.frontmatter.ok && isObj(a.frontmatter.value) ? a.frontmatter.value : { name, description: "" }
  ) as OkResult["frontmatter"];
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
export function perSession<T>(make: () => T): (ctx: MutantContext) => T {
  const states = new WeakMap<SessionHandle, T>();
  return (ctx) => {
    let s = states.get(ctx.inner);
    if (!s) states.set(ctx.inner, (s = make()));
    return s;
  };
}

export function subdirs(root: string): string[] {
  try {
    return readdirSync(root).filter((n) => !n.startsWith(".") && isDir(join(root, n)));
  } catch {
    return [];
  }
}

/** What a tool that writes values raw shows: every \uXXXX escape of R91 turned back into its character. */
export const raw = (text: string): string =>
  text.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

export const entities = (text: string): string =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

export const TOO_DEEP = message("yaml.too_deep", { max: LIMITS.yaml_max_depth });

/**
 * Where the reference refused a skill's frontmatter (and, with `okToo`, where it loaded it), a careless
 * implementation parses it with the yaml package's options and answers ok with what the package read.
 */
export function reparsedBy(
  options: YAML.ParseOptions & YAML.DocumentOptions & YAML.SchemaOptions & YAML.ToJSOptions,
  okToo = false,
): Mutation {
  return {
    result: (r, p, _o, ctx) => {
      const name = nameOf(p);
      if (!(((r.kind === "error" && r.code === "INVALID_FRONTMATTER") || (okToo && r.kind === "ok")) && name)) return r;
      const a = readAuthored(ctx.config, name);
      if (!a) return r;
      try {
        const fm: unknown = YAML.parse(a.yaml, { logLevel: "error", ...options });
        return isObj(fm) && fm["name"] === name ? okFromAuthored(a, name, fm) : r;
      } catch {
        return r;
      }
    },
  };
}

/** A skill refused for what its authored frontmatter holds, in the catalog and on activation. */
export function refusedWhen(bad: (fm: Obj) => boolean): Mutation {
  const authoredBad = (ctx: MutantContext, name: string): boolean => {
    const a = readAuthored(ctx.config, name);
    return a?.frontmatter.ok === true && isObj(a.frontmatter.value) && bad(a.frontmatter.value);
  };
  return {
    catalog: (c, ctx) => ({ ...c, entries: c.entries.filter((e: CatalogEntry) => !authoredBad(ctx, e.name)) }),
    result: (r, p, _o, ctx) => {
      const name = nameOf(p);
      return r.kind === "ok" && name && authoredBad(ctx, name)
        ? errorResult("INVALID_FRONTMATTER", name, `skill "${name}" has invalid frontmatter`)
        : r;
    },
  };
}

/** The yaml package's defaults: tags resolved, no key or depth bound (F01, F04). */
export const libraryDefaults = reparsedBy({});

/** The result `r` re-worded as refused for `reason` at SKILL.md line `line`. */
export function refusedAt(r: SkillResult, reason: string, line: number): SkillResult {
  const full = `${reason} (line ${line})`;
  return { ...r, reason: full, line, output: r.output.replace(/^Reason: .*$/m, `Reason: ${full}`) } as SkillResult;
}

/**
 * The yaml package's first error in `yaml`, as SKILL.md line and message (the YAML starts on line 2). Without
 * uniqueKeys a duplicate key is not its business: the first error is then a syntax error.
 */
export function firstParseError(yaml: string, uniqueKeys = false): { line: number; message: string } | undefined {
  const err = YAML.parseDocument(yaml, { prettyErrors: true, uniqueKeys }).errors[0];
  return err?.linePos ? { line: err.linePos[0].line + 1, message: err.message.split("\n")[0] ?? "" } : undefined;
}

export type LineRefusal = Extract<SkillResult, { kind: "error" }> & { line: number };

/**
 * The shape of every ordering mutant below: an INVALID_FRONTMATTER refusal (with its line) whose reason `applies`
 * accepts is handed to `mend` with the authored YAML and its lines (lines[i] is SKILL.md line i + 2), which answers
 * what the wrong reader would, or undefined to leave the result as it is.
 */
export function onRefusal(
  applies: (reason: string) => boolean,
  mend: (r: LineRefusal, yaml: string, lines: string[]) => SkillResult | undefined,
): Mutation {
  return {
    result: (r, p, _o, ctx) => {
      const name = nameOf(p);
      if (!(
        r.kind === "error" &&
        r.code === "INVALID_FRONTMATTER" &&
        r.line !== undefined &&
        name &&
        applies(String(r.reason))
      ))
        return r;
      const a = readAuthored(ctx.config, name);
      return (a && mend(r as LineRefusal, a.yaml, a.yaml.split("\n"))) || r;
    },
  };
}

export const always = (): boolean => true;

/**
 * A reader that checks the whole text's syntax before the refusals `applies` accepts (what parsing with a library
 * and then checking the value does): a syntax error anywhere wins over such a refusal met lines before it. Before
 * the value bound only, that breaks R25; before every rule (a duplicate key, a long or non-string key, a tag, an
 * unsafe number, an unknown alias, the depth bound), R26.
 */
export const syntaxFirst = (applies: (reason: string) => boolean): Mutation =>
  onRefusal(applies, (r, yaml) => {
    const err = firstParseError(yaml);
    return err && !String(r.reason).startsWith(err.message) ? refusedAt(r, err.message, err.line) : undefined;
  });

export const isTooDeep = (reason: string): boolean => reason.startsWith(TOO_DEEP);

/** An ok result with another body: bytes recounted, the body inside output replaced (spec-derived M01, M05, M09, M20). */
export function withBody(r: OkResult, body: string): OkResult {
  return { ...r, body, bytes: bytes(body), output: r.output.split(r.body).join(body) };
}

/** The config with roots scanned after the configured ones, trusted like them (spec-derived M02, M18: discovery beyond the roots). */
export function plusRoots(c: SessionConfig, extra: readonly string[]): SessionConfig {
  return {
    ...c,
    skill_roots: [...c.skill_roots, ...extra],
    skill_trust: { ...c.skill_trust, trusted_roots: [...(c.skill_trust?.trusted_roots ?? []), ...extra] },
  };
}
