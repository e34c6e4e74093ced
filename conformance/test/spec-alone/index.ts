// An implementation of the skill tool written from the spec alone (docs/spec/skill-tool-spec.txt, its frontmatter
// tables, PROTOCOL.md for the wire and the schemas for the shapes), without the kit's decisions or its reference:
// the acceptance vehicle of issue 25 (spec-alone.test.ts runs it under --profile spec and says which spec rules it
// fails and why). Where the spec is silent it makes its own choices, written down here before its first run:
//   S1 a fence line is `---` with an optional CR; the body after the closing fence is kept byte for byte (CRLF too);
//   S2 YAML by the `yaml` package's defaults (1.2 core schema); any error it reports is INVALID_FRONTMATTER;
//   S3 SKILL.md must decode as UTF-8; a NUL byte is text like any other (§12: byte-exact);
//   S4 resources: up to 10 names in all (§3.1, §7 step 4), folder after folder, sorted by code unit, hidden files
//      included, one "(... N more)" line after them;
//   S5 no hook and no unsafeAllowSkillWithoutHook: an untrusted skill is refused NOT_TRUSTED whatever the policy
//      (S-D10: "the fail-closed-without-hook pattern"), a trusted one too under hook_required (the default), while
//      under warn or allow a trusted root activates freely (§5.5); with a hook it decides every activation
//      (allow / allow_once go on, anything else is PERMISSION_DENIED);
//   S6 checks in §7 step 3's order after the lookup: dedupe (a repeat is a no-op), then the fence, sensitive
//      patterns (defaults **/.env/** and **/secrets/**), disable-model-invocation, then trust and the hook;
//   S7 parameters other than name, arguments and §2.1's aliases are ignored; a named argument the skill does not
//      declare is ignored; the catalog entry carries meta.shadowed only when it shadows something;
//   S8 siblings: similarity 1 - levenshtein / longer length, at least 0.6, best first, at most 3;
//   S9 messages in its own words, each echoing the requested name (§3.4); at_turn is the turn of the first ok (1
//      when the harness gives none).
import type {
  Catalog,
  InitializeResult,
  PermissionDecision,
  SessionConfig,
  SkillResult,
} from "../../../schemas/index.ts";
import type { CallOptions, SessionHandle, SessionOptions } from "../../../schemas/implementation.ts";
import { minimatch } from "minimatch";
import { discover, inside, listResources, readSkill, type Broken, type Skill } from "./discovery.ts";
import { stringify } from "yaml";

export const implementationInfo: InitializeResult = {
  implementation: { name: "spec-alone", version: "0.1.0", language: "typescript" },
  specVersion: "1",
  capabilities: {},
};

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** §2.1's required alias set, each with the note it says. */
const ALIASES: Record<string, string> = {
  ...Object.fromEntries(["skill", "skill_name", "name_of_skill", "slug"].map((k) => [k, "use name"])),
  ...Object.fromEntries(["invoke", "activate", "run"].map((k) => [k, "drop it; the tool activates implicitly"])),
  ...Object.fromEntries(["args", "args_string", "input", "params", "parameters"].map((k) => [k, "use arguments"])),
  ...Object.fromEntries(
    ["context", "session"].map((k) => [k, "skill context is session-scoped; no per-call override"]),
  ),
  ...Object.fromEntries(
    ["reload", "fresh", "force_reload", "refresh"].map((k) => [
      k,
      "skills load once per session; edit the skill file and restart the session to refresh",
    ]),
  ),
  ...Object.fromEntries(["fork", "subagent", "isolated"].map((k) => [k, "subagent-forked skills deferred to v1.1"])),
  ...Object.fromEntries(["paths", "scope_paths"].map((k) => [k, "deferred to v1.1"])),
  ...Object.fromEntries(
    ["model", "effort"].map((k) => [k, "model / effort overrides are harness concerns, not tool parameters"]),
  ),
  ...Object.fromEntries(
    ["file", "file_path", "skill_path", "dir"].map((k) => [
      k,
      "skills dispatch by name, not path; the harness owns discovery",
    ]),
  ),
};

const GUIDANCE = [
  "Activate an installed skill by name. A skill is a reusable package of instructions, optional scripts, and reference docs, authored as a folder at skill-name/SKILL.md. Activating loads the skill's body into the conversation for the rest of the session.",
  "When to use. Activate a skill when the user's request matches its description. The catalog of installed skills, each with name and short description, is always visible in your tool-call context. If two skills plausibly apply, pick the one whose description most precisely matches.",
  "Idempotence. Activating the same skill twice in one session is a no-op — the body is already loaded. The tool returns a already_loaded marker so you know the content is still in context.",
  "Arguments. Pass arguments as a string for positional skills (those declaring $ARGUMENTS or $1 / $2) or as a JSON object for skills that declare named arguments in frontmatter. Run without arguments if the skill doesn't need them.",
  "Permission. Activation runs through the session's permission hook. A skill's allowed-tools frontmatter is an advisory declaration of what tools it expects to need — it does not pre-approve anything; downstream tool calls still pass the session's permission hook.",
].join("\n\n");

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function error(code: string, message: string, extra: Record<string, unknown> = {}): SkillResult {
  const lines = [`Error [${code}]: ${message}`];
  if (typeof extra.path === "string") lines.push(`Path: ${extra.path}`);
  if (typeof extra.reason === "string") lines.push(`Reason: ${extra.reason}`);
  return { kind: "error", code, message, ...extra, output: lines.join("\n") } as SkillResult;
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length]!;
}

/** §9: $ARGUMENTS, $ARGUMENTS[N], $N, ${name}; what is not substituted stays literal. */
function substitute(body: string, args: unknown, declared: boolean): string {
  if (args === undefined) return body;
  if (typeof args === "string") {
    const tokens = args.split(/\s+/).filter(Boolean);
    // One pass, so a placeholder left literal (§9) is never read again as part of another.
    return body.replace(
      /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/g,
      (m, i: string | undefined, n: string | undefined) => {
        if (i !== undefined) return tokens[Number(i)] ?? m;
        if (n !== undefined) return Number(n) >= 1 ? (tokens[Number(n) - 1] ?? m) : m;
        return args;
      },
    );
  }
  const map = args as Record<string, string>;
  const pairs = Object.entries(map)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const named = declared
    ? body.replace(/\$\{([A-Za-z0-9_-]+)\}/g, (m, k: string) =>
        Object.prototype.hasOwnProperty.call(map, k) ? map[k]! : m,
      )
    : body;
  return named.replace(/\$ARGUMENTS/g, pairs);
}

class Session implements SessionHandle {
  private readonly found: ReturnType<typeof discover>;
  private readonly loaded = new Map<string, number>();
  private lock: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: SessionConfig,
    private readonly options: SessionOptions,
  ) {
    this.found = discover(config.skill_roots);
  }

  async catalog(): Promise<Catalog> {
    const lines = this.found.skills.map((s) => {
      const desc = String(s.frontmatter.description).replace(/\s+/g, " ");
      // §1: ≤100 tokens per skill: the line is cut to 380 bytes (about 95 tokens at 4 bytes a token).
      let line = `- ${s.name}: ${desc}`;
      while (Buffer.byteLength(line, "utf8") > 380) line = `${line.slice(0, -2)}…`;
      return line;
    });
    const entries = this.found.skills.map((s) => ({
      name: s.name,
      description: String(s.frontmatter.description),
      dir: s.dir,
      root_index: s.root_index,
      frontmatter: s.frontmatter,
      ...(s.shadowed.length ? { meta: { shadowed: [...s.shadowed] } } : {}),
    }));
    return {
      tool_description: `${GUIDANCE}\n\nInstalled skills:\n${lines.join("\n")}`,
      entries,
      warnings: [...this.found.warnings],
    } as Catalog;
  }

  /** §12: calls of one session are serialized. */
  call(params: unknown, options: CallOptions): Promise<SkillResult> {
    const next = this.lock.then(() => this.activate(params, options));
    this.lock = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.lock;
  }

  private async activate(params: unknown, options: CallOptions): Promise<SkillResult> {
    if (!isMap(params)) return error("INVALID_PARAM", "the tool input must be an object with a name");
    for (const key of Object.keys(params))
      if (Object.prototype.hasOwnProperty.call(ALIASES, key))
        return error("INVALID_PARAM", `unknown parameter "${key}": ${ALIASES[key]}`);
    const name = params.name;
    if (typeof name !== "string" || name === "") return error("INVALID_PARAM", "name must be a non-empty string");
    // §3.4: error messages echo the requested name (quoted, so a control character cannot start a line of its own).
    if (name.length > 64)
      return error("INVALID_PARAM", `skill name ${JSON.stringify(name)} is longer than 64 characters`, { name });
    if (!KEBAB.test(name))
      return error("INVALID_PARAM", `skill name must be lowercase-kebab-case: ${JSON.stringify(name)}`, { name });
    const args = params.arguments;
    if (
      args !== undefined &&
      typeof args !== "string" &&
      !(isMap(args) && Object.values(args).every((v) => typeof v === "string"))
    )
      return error("INVALID_PARAM", `skill "${name}": arguments must be a string or an object of strings`, { name });
    const skill = this.found.skills.find((s) => s.name === name);
    if (!skill) {
      const broken = this.found.broken.get(name);
      if (broken) return this.brokenResult(broken);
      return this.notFound(name);
    }
    const declared = isMap(skill.frontmatter.arguments);
    if (typeof args === "string" && declared)
      return error(
        "INVALID_PARAM",
        `skill ${name} expects named arguments: ${Object.keys(skill.frontmatter.arguments as object).join(", ")}`,
        { name },
      );
    if (isMap(args) && !declared)
      return error("INVALID_PARAM", `skill ${name} does not accept named arguments`, { name });
    const at = this.loaded.get(name);
    if (at !== undefined)
      return {
        kind: "already_loaded",
        name,
        at_turn: at,
        output: `(Skill "${name}" is already active in this session. Body was loaded at turn ${at}. No new content was added.)`,
      } as SkillResult;
    return this.gateAndLoad(skill, args, declared, options);
  }

  private brokenResult(b: Broken): SkillResult {
    const path = b.code === "INVALID_FRONTMATTER" ? `${b.dir}/SKILL.md` : b.dir;
    const what =
      b.code === "INVALID_FRONTMATTER"
        ? `skill "${b.name}" has malformed YAML frontmatter.`
        : `skill "${b.name}": ${b.reason}`;
    return error(b.code, what, { name: b.name, path, reason: b.reason });
  }

  private notFound(name: string): SkillResult {
    const siblings = this.found.skills
      .map((s) => ({ n: s.name, sim: 1 - levenshtein(name, s.name) / Math.max(name.length, s.name.length) }))
      .filter((x) => x.sim >= 0.6)
      .sort((a, b) => b.sim - a.sim)
      .slice(0, 3)
      .map((x) => x.n);
    return {
      kind: "not_found",
      name,
      siblings,
      output: `(No skill matches "${name}". Did you mean: ${siblings.join(", ")}? Run with a listed name from the catalog.)`,
    } as SkillResult;
  }

  private async gateAndLoad(
    skill: Skill,
    args: unknown,
    declared: boolean,
    options: CallOptions,
  ): Promise<SkillResult> {
    const { name } = skill;
    const roots = this.config.skill_roots;
    const again = readSkill(name, skill.dir, roots);
    if ("code" in again) return this.brokenResult(again);
    if (!inside(skill.dir, roots))
      return error("OUTSIDE_WORKSPACE", `skill "${name}" resolves outside every configured root`, {
        name,
        path: skill.dir,
      });
    const patterns = this.config.sensitive_patterns ?? ["**/.env/**", "**/secrets/**"];
    const sensitive = patterns.some(
      (p) =>
        minimatch(skill.dir, p, { dot: true }) ||
        minimatch(`${skill.dir}/`, p, { dot: true }) ||
        minimatch(`${skill.dir}/x`, p, { dot: true }),
    );
    const hook = this.options.hook;
    if (sensitive && !hook)
      return error("SENSITIVE", `skill "${name}" is in a sensitive location`, { name, path: skill.dir });
    if (skill.frontmatter["disable-model-invocation"] === true && options.invocation !== "user")
      return error("DISABLED", `skill "${name}" can only be invoked by the user`, { name });
    const trusted = (this.config.skill_trust?.trusted_roots ?? []).some((r) => r === roots[skill.root_index]);
    const policy = this.config.skill_trust?.untrusted_project_skills ?? "hook_required";
    const warnings: string[] = [];
    if (hook) {
      const fm = {
        ...again.frontmatter,
        ...(again.frontmatter["allowed-tools"] !== undefined
          ? { allowed_tools: again.frontmatter["allowed-tools"] }
          : {}),
      };
      let answer: PermissionDecision | string;
      try {
        answer = await hook({
          tool: "skill",
          action: "activate",
          path: skill.dir,
          always_patterns: [`Skill(name:${name})`],
          metadata: {
            name,
            root_index: skill.root_index,
            frontmatter: fm,
            reason: trusted ? "normal" : "untrusted_project_skill",
          },
        } as never);
      } catch {
        answer = "deny";
      }
      if (answer !== "allow" && answer !== "allow_once")
        return error("PERMISSION_DENIED", `the permission hook did not allow skill "${name}"`, { name });
    } else if (this.config.permission?.unsafeAllowSkillWithoutHook !== true) {
      if (!trusted || policy === "hook_required")
        return error("NOT_TRUSTED", `skill "${name}" needs a permission hook to approve it`, { name });
    } else if (!trusted && policy === "warn") warnings.push(`skill "${name}" is not from a trusted root`);
    const body = substitute(again.body, args, declared);
    const { resources, more } = listResources(skill.dir, roots);
    const bytes = Buffer.byteLength(body, "utf8");
    const fmText = stringify(again.frontmatter).replace(/\n$/, "");
    const res = resources.length
      ? `<resources>\n${[...resources, ...(more ? [`(... ${more} more)`] : [])].join("\n")}\n</resources>\n`
      : "";
    const output = `<skill name="${name}" dir="${skill.dir}">\n<frontmatter>\n${fmText}\n</frontmatter>\n<instructions>\n${body}\n</instructions>\n${res}</skill>\n(Skill "${name}" activated. Body is ${bytes} bytes. Scripts available via bash(${skill.dir}/scripts/<name>). References via read(${skill.dir}/references/<name>).)`;
    this.loaded.set(name, options.turn ?? 1);
    return {
      kind: "ok",
      name,
      dir: skill.dir,
      body,
      frontmatter: again.frontmatter,
      resources,
      bytes,
      output,
      ...(warnings.length ? { warnings } : {}),
    } as SkillResult;
  }
}

export function createSession(config: SessionConfig, options: SessionOptions = {}): SessionHandle {
  return new Session(config, options);
}
