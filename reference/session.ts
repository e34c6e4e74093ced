// One session of the skill tool (§7, §12, D4): the checks in their fixed order, dedupe by name, and a
// per-session queue so concurrent calls resolve in call order. Every outcome is a result, never a throw.
// Every text a result carries is rendered from schemas/messages.json (R30).
import { isAbsolute, sep } from "node:path";
import { LIMITS, check } from "../schemas/index.ts";
import type {
  Catalog,
  NotFoundResult,
  PermissionRequest,
  SessionConfig,
  SkillFrontmatter,
  SkillResult,
} from "../schemas/index.ts";
import { buildCatalog } from "./catalog.ts";
import { clip, errorResult, message } from "./errors.ts";
import { realOrNull } from "./fence.ts";
import { parseParams, type Arguments, type ToolParams } from "./params.ts";
import { FilesystemSkillRegistry, readSkillSync, type Discovery, type SkillFailure } from "./registry.ts";
import { renderAlreadyLoaded, renderNotFound, renderSkill } from "./render.ts";
import { listResources } from "./resources.ts";
import { sensitiveMatcher, type SensitiveMatcher } from "./sensitive.ts";
import { siblings } from "./siblings.ts";
import { substitute } from "./substitute.ts";
import { gateWithoutHook, isTrusted, trustPolicy } from "./trust.ts";
import type { PermissionHook, SessionHandle, SessionOptions, CallOptions } from "../schemas/implementation.ts";

/** A skill that passed the checks before the gate, with what activating it needs. */
interface Ready {
  name: string;
  dir: string;
  root_index: number;
  realDir: string;
  body: string;
  fm: SkillFrontmatter;
  args: Arguments | undefined;
  warnings: string[];
}

/** A bug or an fs surprise must still come back as a result the model can act on (§3.4). */
function internalError(err: unknown): SkillResult {
  const reason = clip(err instanceof Error ? err.message : String(err));
  return errorResult("IO_ERROR", message("session.internal"), { reason, hint: message("session.internal_hint") });
}

export class SkillSession implements SessionHandle {
  private readonly registry: FilesystemSkillRegistry;
  private readonly hook: PermissionHook | undefined;
  /** Per activated name: its turn and the frontmatter it was activated with (dedupe judges arguments by it). */
  private readonly loaded = new Map<string, { turn: number; frontmatter: SkillFrontmatter }>();
  private activations = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** Calls started and finished, in order: equal when no call is in flight, so a call can start without a queue hop. */
  private started = 0;
  private finished = 0;
  /** The discovery and the trusted roots' real paths, resolved by the first call: later calls read them without an await (R23). */
  private discovered: Discovery | null = null;
  private trustedResolved: string[] | null = null;
  private closed = false;
  /** The session's sensitive patterns, compiled once (§5.4). */
  private sensitive: SensitiveMatcher | null = null;
  private built: Promise<Catalog> | null = null;

  constructor(
    private readonly config: SessionConfig,
    options: SessionOptions = {},
  ) {
    const valid = check("session-config.schema.json", config);
    if (!valid.valid) throw new TypeError(`invalid session config: ${valid.errors}`);
    const relative = [...config.skill_roots, ...(config.skill_trust?.trusted_roots ?? [])].find((r) => !isAbsolute(r));
    if (relative !== undefined)
      throw new TypeError(
        `invalid session config: skill roots must be absolute paths; got ${JSON.stringify(relative)}`,
      );
    this.registry = new FilesystemSkillRegistry(config.skill_roots);
    this.hook = config.permission?.hook === false ? undefined : options.hook;
  }

  /** Built once per session, like the discovery it renders (§7: no watching). */
  async catalog(): Promise<Catalog> {
    this.built ??= this.registry
      .scan()
      .then((d) => ((this.discovered ??= d), buildCatalog(d.entries, [...d.warnings])));
    return this.built;
  }

  call(params: unknown, options: CallOptions = { invocation: "model" }): Promise<SkillResult> {
    // Calls run one at a time in call order; an idle session starts the call at once (one promise hop less per call).
    const ticket = ++this.started;
    const run =
      ticket === this.finished + 1
        ? this.run(params, options, ticket)
        : this.queue.then(() => this.run(params, options, ticket));
    this.queue = run; // never rejects: run turns every throw into a result
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.loaded.clear();
  }

  /** One call to its result, marked finished when it settles. Most calls finish synchronously (R23): no async frame then. */
  private run(params: unknown, options: CallOptions, ticket: number): Promise<SkillResult> {
    let out: SkillResult | Promise<SkillResult>;
    try {
      out = this.handle(params, options);
    } catch (err) {
      out = internalError(err);
    }
    if (!(out instanceof Promise)) {
      this.finished = ticket;
      return Promise.resolve(out);
    }
    return out.then(
      (r) => ((this.finished = ticket), r),
      (err: unknown) => ((this.finished = ticket), internalError(err)),
    );
  }

  /** A call from its start: a closed session refuses it; the first call waits for discovery, later ones do not. */
  private handle(params: unknown, options: CallOptions): SkillResult | Promise<SkillResult> {
    // A call that has started runs to its end: close() stops only calls that have not (a first call waiting for discovery has).
    if (this.closed)
      return errorResult("INVALID_PARAM", message("session.closed"), { hint: message("session.closed_hint") });
    const parsed = parseParams(params);
    if (!parsed.ok) return parsed.error;
    const d = this.discovered;
    const trustedRoots = this.trustedResolved;
    if (d === null || trustedRoots === null)
      return this.resolveFirst().then(([dd, roots]) => this.check(parsed.value, options, dd, roots));
    return this.check(parsed.value, options, d, trustedRoots);
  }

  /** The checks in D4's order, synchronous: only the permission hook is awaited (ask). */
  private check(
    params: ToolParams,
    options: CallOptions,
    d: Discovery,
    trustedRoots: readonly string[],
  ): SkillResult | Promise<SkillResult> {
    const { name } = params;
    const args = params.arguments;

    const entry = d.byName.get(name);
    if (!entry) {
      const broken = d.broken.get(name);
      if (broken) return failureResult(name, broken.failure);
      const sib = siblings(
        name,
        d.entries.map((e) => e.name),
      );
      return {
        kind: "not_found",
        name,
        siblings: sib as NotFoundResult["siblings"],
        output: renderNotFound(name, sib),
      };
    }

    const loaded = this.loaded.get(name);
    if (loaded !== undefined) {
      // Dedupe never re-reads (§7): the argument form is judged by the skill as it was activated.
      const argError = checkArgumentForm(name, loaded.frontmatter, args);
      if (argError) return argError;
      return { kind: "already_loaded", name, at_turn: loaded.turn, output: renderAlreadyLoaded(name, loaded.turn) };
    }

    // Re-read and fence now: the tree may have changed since discovery. The argument form is judged by the
    // freshest frontmatter there is, and still before a fence or read failure is reported (D4).
    const read = readSkillSync(entry.dir, entry.root_index, d.realRoots, d.memos.get(entry.dir));
    const fm = read.ok ? read.entry.frontmatter : entry.frontmatter;
    const argError = checkArgumentForm(name, fm, args);
    if (argError) return argError;
    if (!read.ok) return failureResult(name, read.failure);
    // R145: the arguments' fault, so judged with them, before any gate; the body over the bound is never built.
    // Without arguments the body is as written (substitute's first rule): no declared-name set to build.
    const sub =
      args === undefined
        ? { ok: true as const, body: read.body }
        : substitute(read.body, args, new Set(Object.keys(fm.arguments ?? {})));
    if (!sub.ok) {
      return errorResult("INVALID_PARAM", message("args.body_too_large", { name, limit: sub.limit }), {
        name,
        hint: message("args.too_large_hint"),
      });
    }
    const ready: Ready = {
      name,
      dir: entry.dir,
      root_index: entry.root_index,
      realDir: read.realDir,
      body: sub.body,
      fm,
      args,
      warnings: [],
    };

    // Compiled pattern by pattern as checks reach them (sensitive.ts), as minimatch() did.
    this.sensitive ??= sensitiveMatcher(this.config.sensitive_patterns ?? LIMITS.default_sensitive_patterns);
    // The same path twice matches the same patterns: a skill dir that is its own real path is matched once. A symlinked
    // SKILL.md is matched where it really is, too (R143): the text read is that file's.
    const paths = read.realDir === entry.dir ? [entry.dir] : [read.realDir, entry.dir];
    if (read.realMd !== `${read.realDir}${read.realDir.endsWith(sep) ? "" : sep}SKILL.md`) paths.push(read.realMd);
    const sensitive = this.sensitive(paths);
    if (sensitive !== null && !this.hook) {
      return errorResult("SENSITIVE", message("sensitive.message", { name }), {
        name,
        path: entry.dir,
        reason: message("sensitive.reason", { pattern: sensitive }),
        hint: message("sensitive.hint"),
      });
    }

    if (fm["disable-model-invocation"] === true && options.invocation !== "user") {
      return errorResult("DISABLED", message("disabled.message", { name }), {
        name,
        path: entry.dir,
        hint: message("disabled.hint"),
      });
    }

    const trusted = isTrusted(read.realDir, trustedRoots);
    if (this.hook) return this.ask(this.hook, ready, sensitive !== null, trusted, d, options);
    const gate = gateWithoutHook(trusted, this.config);
    if (gate === "refuse") {
      return errorResult("NOT_TRUSTED", message("trust.no_hook", { name }), {
        name,
        path: entry.dir,
        reason: "untrusted_project_skill",
        hint: message("trust.hint"),
      });
    }
    if (gate === "warn") ready.warnings.push(message("trust.warn", { name }));
    return this.activate(ready, d, options);
  }

  /** The first call waits for discovery and the trusted roots' real paths; later calls read them as values. */
  private async resolveFirst(): Promise<[Discovery, string[]]> {
    this.discovered ??= await this.registry.scan();
    this.trustedResolved ??= (
      await Promise.all((this.config.skill_trust?.trusted_roots ?? []).map((r) => realOrNull(r)))
    ).filter((r): r is string => r !== null);
    return [this.discovered, this.trustedResolved];
  }

  /** §5.6: the hook decides; anything but allow or allow_once refuses (a throwing hook denies). */
  private async ask(
    hook: PermissionHook,
    ready: Ready,
    sensitive: boolean,
    trusted: boolean,
    d: Discovery,
    options: CallOptions,
  ): Promise<SkillResult> {
    const { name, dir, fm } = ready;
    const reason: PermissionRequest["metadata"]["reason"] = sensitive
      ? "sensitive"
      : !trusted && trustPolicy(this.config) !== "allow"
        ? "untrusted_project_skill"
        : "normal";
    const request: PermissionRequest = {
      tool: "skill",
      action: "activate",
      path: dir,
      always_patterns: [`Skill(name:${name})`],
      metadata: {
        name,
        root_index: ready.root_index,
        frontmatter: { ...fm, allowed_tools: fm["allowed-tools"] ?? [] },
        reason,
      },
    };
    let decision: unknown;
    try {
      // Asked after a microtask, never inside call(): by then this call is the session's queue, so a call the
      // hook makes waits for this one (§12) instead of running beside it.
      decision = await Promise.resolve().then(() => hook(request));
    } catch {
      decision = "deny";
    }
    if (decision !== "allow" && decision !== "allow_once") {
      const asked = decision === "ask" ? message("permission.ask_suffix") : "";
      if (reason === "untrusted_project_skill") {
        return errorResult("NOT_TRUSTED", message("trust.hook_refused", { name, asked }), {
          name,
          path: dir,
          reason: "untrusted_project_skill",
          hint: message("trust.hint"),
        });
      }
      return errorResult("PERMISSION_DENIED", message("permission.denied", { name, asked }), {
        name,
        path: dir,
        hint: message("permission.denied_hint"),
      });
    }
    return this.activate(ready, d, options);
  }

  /** Every check passed (the body already substituted): list the resources, render, and remember the activation (§7). */
  private activate(ready: Ready, d: Discovery, options: CallOptions): SkillResult {
    const { name, dir, fm, body, warnings } = ready;
    const listing = listResources(ready.realDir, d.realRoots);
    const bytes = Buffer.byteLength(body, "utf8");
    const output = renderSkill({ name, dir, frontmatter: fm, body, listing, bytes });
    this.activations++;
    this.loaded.set(name, { turn: options.turn ?? this.activations, frontmatter: fm });
    const result: SkillResult = {
      kind: "ok",
      name,
      dir,
      body,
      frontmatter: fm,
      resources: listing.resources,
      bytes,
      output,
    };
    if (Object.keys(listing.omitted).length > 0) result.resources_omitted = listing.omitted;
    // R140: the resource folders' warnings come after the call's own.
    const all = listing.warnings.length > 0 ? [...warnings, ...listing.warnings] : warnings;
    if (all.length > 0) result.warnings = all;
    return result;
  }
}

const example = (list: string[]): string =>
  `{${list.map((arg) => message("format.named_example_item", { arg })).join(", ")}}`;

function checkArgumentForm(
  name: string,
  frontmatter: SkillFrontmatter,
  args: Arguments | undefined,
): SkillResult | null {
  const decl = frontmatter.arguments;
  // The common call, none or a string for a skill that declares no named arguments, has nothing to judge (no text built).
  if (decl === undefined && (args === undefined || typeof args === "string")) return null;
  const names = decl ? Object.keys(decl) : [];
  const hasNamed = decl !== undefined;
  const hint = frontmatter["argument-hint"];
  // Hints built from the table: argument-hint, when declared, is the hint (placeholders.argument_hint).
  const detail = {
    name,
    ...(typeof hint === "string" ? { hint: message("args.argument_hint", { argument_hint: hint }) } : {}),
  };
  if (typeof args === "string" && hasNamed) {
    return errorResult("INVALID_PARAM", message("args.expects_named", { name, names: names.join(", ") }), {
      ...detail,
      hint: message("args.expects_named_hint", { example: example(names) }),
    });
  }
  if (args !== undefined && typeof args !== "string") {
    if (!hasNamed)
      return errorResult("INVALID_PARAM", message("args.no_named", { name }), {
        ...detail,
        hint: message("args.no_named_hint"),
      });
    for (const key of Object.keys(args)) {
      if (!names.includes(key))
        return errorResult(
          "INVALID_PARAM",
          message("args.unknown", { name, key: clip(key, 64), names: names.join(", ") }),
          detail,
        );
    }
  }
  if (hasNamed && (args === undefined || typeof args !== "string")) {
    // R36: a required named argument missing, from a map or because no arguments came at all: one refusal naming them all.
    const given = args ?? {};
    const missing = Object.entries(decl ?? {})
      .filter(([n, d]) => d.required === true && !Object.prototype.hasOwnProperty.call(given, n))
      .map(([n]) => n);
    if (missing.length > 0) {
      return errorResult(
        "INVALID_PARAM",
        message(missing.length > 1 ? "args.required_missing_many" : "args.required_missing_one", {
          name,
          names: missing.join(", "),
        }),
        {
          ...detail,
          hint: message("args.expects_named_hint", { example: example(missing) }),
        },
      );
    }
  }
  return null;
}

function failureResult(name: string, f: SkillFailure): SkillResult {
  const common = { name, path: f.path, reason: f.reason, ...(f.line !== undefined ? { line: f.line } : {}) };
  switch (f.code) {
    case "NAME_MISMATCH":
      return errorResult("NAME_MISMATCH", message("failure.name_mismatch", { name }), {
        ...common,
        hint: message("failure.name_mismatch_hint"),
      });
    case "INVALID_FRONTMATTER":
      return errorResult(
        "INVALID_FRONTMATTER",
        message(f.kind === "yaml" ? "failure.yaml" : "failure.frontmatter", { name }),
        {
          ...common,
          reason:
            f.line !== undefined && f.kind === "yaml"
              ? message("failure.yaml_reason_line", { reason: f.reason, line: f.line })
              : f.reason,
          hint: message("failure.frontmatter_hint"),
        },
      );
    case "OUTSIDE_WORKSPACE":
      return errorResult("OUTSIDE_WORKSPACE", message("failure.outside", { name }), {
        ...common,
        hint: message("failure.outside_hint"),
      });
    case "IO_ERROR":
      return errorResult("IO_ERROR", message("failure.io", { name }), { ...common, hint: message("failure.io_hint") });
  }
}
