// What a scenario is (SK1–SK8): a fixture, the session it runs under, the prompts, a checker over the transcript,
// and the scripted policies that exercise the checker (one good, several bad). Also the view a scripted policy
// gets of the conversation — built only from the messages a model would see, so a policy cannot cheat.
// Owns: Scenario, Verdict, Policy, PolicyView, Step, and the helpers policies use to read skill tool output.
import type { PermissionDecision, PermissionRequest, SessionConfig, SkillResult } from "../schemas/index.ts";
import type { ChatRequest, Message } from "./providers/types.ts";
import type { ErrorKind, Outcome } from "./score.ts";
import type { ToolPolicy } from "./tools.ts";
import type { Trial } from "./transcript.ts";

export type { ErrorKind, Outcome };

/** What a checker says about one trial (the outcomes are explained in score.ts). */
export interface Verdict {
  outcome: Outcome;
  /** One line saying what the model did. */
  reason: string;
  /** Whether the situation the scenario tests arose in this trial (e.g. a DISABLED result, a denied rm -rf). */
  exercised: boolean;
  /** For outcome error. */
  errorKind?: ErrorKind;
}

export interface Scenario {
  id: string;
  title: string;
  /** The §13.2 text this scenario implements. */
  spec: string;
  /** Folder under fixtures/e2e/ copied into the workspace. */
  fixture: string;
  /** Skill roots, relative to the workspace, highest precedence first. */
  skillRoots: string[];
  /** Working directory relative to the workspace ("." by default). */
  cwd?: string;
  /** The session config, given the absolute skill roots. */
  config(roots: string[]): SessionConfig;
  /** The skill activation hook (§5.6), when the scenario configures one. */
  hook?: (request: PermissionRequest) => PermissionDecision;
  /** Permission policy for bash/read (default: allow everything inside the workspace). */
  toolPolicy?: ToolPolicy;
  /**
   * Per-trial set-up after the fixture is copied: fills the fixture's {{placeholders}} with the trial's values (see
   * scenarios/nonce.ts) and e.g. makes a git history. The checker recomputes the same values from the transcript's
   * workspace path, so a saved transcript still re-scores offline.
   */
  setup?(workspace: string): Promise<void>;
  /** User messages, one per user turn. */
  prompts: string[];
  /** Model calls allowed over the whole trial. */
  maxSteps?: number;
  check(trial: Trial): Verdict;
  good: Policy;
  /** Bad policies by name (`scripted:bad-<name>`); the first is the scenario's characteristic mistake (`scripted:bad`). */
  bad: Record<string, BadPolicy>;
}

export interface BadPolicy {
  /** The mistake it makes, for docs and reports. */
  mistake: string;
  play: Policy;
}

export type Step =
  { text: string; calls?: undefined } | { text?: string; calls: { name: string; arguments: unknown }[] };

export type Policy = (view: PolicyView) => Step;

export interface Exchange {
  tool: string;
  input: unknown;
  output: string;
  /** A skill call's structured result when the loop recorded one (scripted:* in-process); a wire carries text only. */
  result?: SkillResult;
}

/** What a scripted policy needs of a skill result: its kind, error code, siblings, dir and body. */
export interface SkillView {
  kind: SkillResult["kind"];
  code?: string;
  siblings?: string[];
  dir?: string;
  body?: string;
}

/**
 * A skill call's result as a policy reads it: from the structured result (kind, code, siblings, dir, body), so a
 * self-test never depends on an implementation's wording. Only a loopback wire test, where the loop's record does not
 * travel and the implementation is the kit's reference, falls back to reading the reference's rendering.
 */
export function skillResult(e: Exchange | undefined): SkillView | undefined {
  if (!e || e.tool !== "skill") return undefined;
  const r = e.result;
  if (r) {
    if (r.kind === "ok") return { kind: "ok", dir: r.dir, body: r.body };
    if (r.kind === "not_found") return { kind: "not_found", siblings: [...r.siblings] };
    if (r.kind === "error") return { kind: "error", code: r.code };
    return { kind: r.kind };
  }
  const dir = skillDirOf(e.output);
  if (dir !== undefined) return { kind: "ok", dir, body: e.output };
  const code = errorCodeOf(e.output);
  if (code) return { kind: "error", code };
  if (/Did you mean:/.test(e.output)) return { kind: "not_found", siblings: siblingsOf(e.output) };
  return /already/i.test(e.output) ? { kind: "already_loaded" } : { kind: "not_found", siblings: [] };
}

/** The body of the first skill call that loaded one (structured, see skillResult), or "". */
export function loadedBody(exchanges: readonly Exchange[]): string {
  for (const e of exchanges) {
    const r = skillResult(e);
    if (r?.kind === "ok") return r.body ?? "";
  }
  return "";
}

/** What a scripted policy knows: only what a model would see. */
export class PolicyView {
  /** 1-based user turn. */
  readonly turn: number;
  readonly user: string;
  /** Tool calls and their results in the current user turn, in order. */
  readonly exchanges: Exchange[];
  /** Tool calls and results of the whole conversation. */
  readonly history: Exchange[];
  readonly toolDescriptions: Map<string, string>;
  readonly system: string;

  constructor(req: ChatRequest) {
    const msgs: Message[] = req.messages;
    this.system = msgs[0]?.role === "system" ? msgs[0].content : "";
    let turn = 0;
    let user = "";
    let current: Exchange[] = [];
    const history: Exchange[] = [];
    const pending = new Map<string, { tool: string; input: unknown }>();
    for (const m of msgs) {
      if (m.role === "user") {
        // The loop's note about an unreadable reply is not a new user turn.
        if (m.notice) continue;
        turn++;
        user = m.content;
        current = [];
      } else if (m.role === "assistant") {
        for (const c of m.toolCalls) pending.set(c.id, { tool: c.name, input: c.arguments });
      } else if (m.role === "tool") {
        const call = pending.get(m.toolCallId);
        const ex = {
          tool: call?.tool ?? m.name,
          input: call?.input,
          output: m.content,
          ...(m.result ? { result: m.result } : {}),
        };
        current.push(ex);
        history.push(ex);
      }
    }
    this.turn = turn;
    this.user = user;
    this.exchanges = current;
    this.history = history;
    this.toolDescriptions = new Map(req.tools.map((t) => [t.name, t.description]));
  }

  /** Calls made so far this turn to `tool`. */
  calls(tool: string): Exchange[] {
    return this.exchanges.filter((e) => e.tool === tool);
  }

  last(): Exchange | undefined {
    return this.exchanges[this.exchanges.length - 1];
  }

  /** How many tool calls were made this turn. */
  get step(): number {
    return this.exchanges.length;
  }
}

export const say = (text: string): Step => ({ text });
export const call = (name: string, args: unknown, text?: string): Step => ({
  calls: [{ name, arguments: args }],
  ...(text ? { text } : {}),
});
export const skill = (args: unknown): Step => call("skill", args);
export const bash = (command: string): Step => call("bash", { command });
export const read = (path: string): Step => call("read", { path });

/** The dir attribute of a rendered `<skill name=… dir="…">` block, XML entities undone. */
export function skillDirOf(output: string): string | undefined {
  const m = /<skill\s+name="[^"]*"\s+dir="([^"]*)"/.exec(output);
  return m?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Names offered after "Did you mean:" in a not-found message. */
export function siblingsOf(output: string): string[] {
  const m = /Did you mean:\s*([^?\n]*)\?/.exec(output);
  if (!m?.[1]) return [];
  return m[1]
    .split(",")
    .map((s) => s.trim().replace(/^["'`]|["'`]$/g, ""))
    .filter((s) => s !== "" && s !== "(none)");
}

/** The `Error [CODE]` of a skill tool output, if it is an error. */
export function errorCodeOf(output: string): string | undefined {
  return /Error \[([A-Z_]+)\]/.exec(output)?.[1];
}

/** Lines of the `<resources>` block. */
export function resourcesOf(output: string): string[] {
  const m = /<resources>\n?([\s\S]*?)\n?<\/resources>/.exec(output);
  return (
    m?.[1]
      ?.split("\n")
      .map((s) => s.trim())
      .filter((s) => s !== "" && !s.startsWith("(")) ?? []
  );
}
