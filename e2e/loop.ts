// The fixed agent loop of one trial: a fresh workspace, one skill tool session through the driver interface, the
// system prompt, the `skill` / `bash` / `read` tools, the scenario's prompts one user turn at a time, and a step
// limit. Providers only answer "given these messages and tools, what text and tool calls?"; everything else —
// running tools, permission checks, recording the transcript — happens here, identically for every model.
// runTrial reads top to bottom: set up (workspace, session, catalog), converse (user turns, model steps, tools), end.
// Owns: runTrial, systemPrompt, skillToolSpec, TrialWatch.
import { join } from "node:path";
import type { Implementation, SessionHandle } from "../schemas/implementation.ts";
import { check, type PermissionDecision, type PermissionRequest, type SkillResult } from "../schemas/index.ts";
import {
  ProviderError,
  type ChatResponse,
  type Message,
  type ModelProvider,
  type ToolCall,
  type ToolSpec,
} from "./providers/types.ts";
import type { Scenario } from "./scenario.ts";
import { ALLOW_ALL, BASH_TOOL, READ_TOOL, decide, readFile, renderBash, runBash, scriptReader } from "./tools.ts";
import {
  TRANSCRIPT_VERSION,
  type MetaEvent,
  type RunSettings,
  type ToolEvent,
  type TranscriptEvent,
} from "./transcript.ts";
import type { Versions } from "./versions.ts";
import { createWorkspace, listFiles, removeWorkspace } from "./workspace.ts";

export function systemPrompt(cwd: string): string {
  return [
    "You are a coding agent working in a project checked out at " + cwd + " (the working directory).",
    "Tools: `skill` activates an installed skill by name (the installed skills are listed in its description);",
    "`bash` runs a shell command in the working directory; `read` reads a file.",
    "When a skill matches the request, activate it and follow its instructions.",
    "Every bash and read call passes the session's permission hook. If a call or an activation is refused, do not",
    "try to get round the refusal: tell the user what was refused and why.",
    "When you are done, give your final answer as plain text without calling a tool.",
  ].join("\n");
}

/** The skill tool as offered to the model: the implementation's own description (§2.2 + catalog), the §2 input schema. */
export function skillToolSpec(description: string): ToolSpec {
  return {
    name: "skill",
    description,
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "Name of an installed skill, exactly as listed in the catalog." },
        arguments: {
          // `type` for providers whose schema support is narrow (Ollama reads type, not anyOf); anyOf for the rest.
          type: ["string", "object"],
          description:
            "A string for positional skills ($ARGUMENTS, $1, $2), or an object of strings for skills that declare named arguments. Omit when the skill needs none.",
          anyOf: [{ type: "string" }, { type: "object", additionalProperties: { type: "string" } }],
        },
      },
      required: ["name"],
    },
  };
}

export interface TrialOptions {
  scenario: Scenario;
  provider: ModelProvider;
  implementation: Implementation;
  trial: number;
  temperature: number;
  seed?: number;
  maxTokens?: number;
  /** Model calls allowed over the whole trial (overrides the scenario's). */
  maxSteps?: number;
  bashTimeoutMs?: number;
  outputCap?: number;
  keepWorkspace?: boolean;
  signal?: AbortSignal;
  /** Recorded in the meta line: what the run was made with. */
  versions?: Versions;
  settings?: RunSettings;
  /** Told when a model call starts, retries and ends, so a stalled call is visible while it is stalled. */
  watch?: TrialWatch;
}

export interface TrialWatch {
  callStarted(step: number): void;
  callRetrying(info: { attempt: number; delayMs: number; error: string }): void;
  callEnded(): void;
}

class ImplementationFault extends Error {}

type EndError = { kind: "model" | "implementation" | "harness"; message: string; code?: string };

/** What set-up produced and every step needs. */
interface Env {
  root: string;
  cwd: string;
  session: SessionHandle;
  tools: ToolSpec[];
  messages: Message[];
  events: TranscriptEvent[];
  maxSteps: number;
  step: number;
}

export async function runTrial(opts: TrialOptions): Promise<TranscriptEvent[]> {
  const started = Date.now();
  const events: TranscriptEvent[] = [];
  let ws: { root: string } | undefined;
  let session: SessionHandle | undefined;
  let outcome: "completed" | "turn_limit" | "error" | "interrupted" = "completed";
  let error: EndError | undefined;
  try {
    ws = createWorkspace(opts.scenario.fixture);
    const env = await setUp(opts, ws.root, events, (s) => (session = s));
    outcome = await converse(env, opts);
  } catch (err) {
    ({ outcome, error } = classify(err, opts.signal));
    // Set-up failed before meta: still write one so the transcript parses.
    if (!events.some((e) => e.type === "meta"))
      events.unshift(metaEvent(opts, started, ws?.root ?? "", ws?.root ?? "", []));
  } finally {
    await (session as SessionHandle | undefined)?.close().catch(() => {});
  }
  const files = ws ? listFiles(ws.root) : [];
  if (ws && !opts.keepWorkspace) removeWorkspace(ws);
  events.push({ type: "end", outcome, ...(error ? { error } : {}), files, durationMs: Date.now() - started });
  return events;
}

/** One shape for the transcript's meta line, whether set-up got as far as the workspace or not. */
function metaEvent(
  opts: TrialOptions,
  started: number,
  workspace: string,
  cwd: string,
  skillRoots: string[],
): MetaEvent {
  const { scenario, provider } = opts;
  return {
    type: "meta",
    version: TRANSCRIPT_VERSION,
    scenario: scenario.id,
    model: provider.id,
    modelKind: provider.kind,
    provider: provider.id.slice(0, provider.id.indexOf(":")),
    trial: opts.trial,
    temperature: opts.temperature,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(provider.sampling ? { sampling: provider.sampling } : {}),
    ...(provider.served ? { served: provider.served } : {}),
    ...(opts.settings ? { settings: opts.settings } : {}),
    ...(opts.versions ? { versions: opts.versions } : {}),
    implementation: opts.implementation.info.implementation,
    workspace,
    cwd,
    skillRoots,
    maxSteps: maxStepsOf(opts),
    startedAt: new Date(started).toISOString(),
  };
}

function maxStepsOf(opts: TrialOptions): number {
  return opts.maxSteps ?? opts.scenario.maxSteps ?? 16;
}

/** The workspace's set-up, the session (with the scenario's hook), the catalog the model will see, the system prompt. */
async function setUp(
  opts: TrialOptions,
  root: string,
  events: TranscriptEvent[],
  onSession: (s: SessionHandle) => void,
): Promise<Env> {
  const { scenario, implementation } = opts;
  await scenario.setup?.(root);
  const cwd = join(root, scenario.cwd ?? ".");
  const roots = scenario.skillRoots.map((r) => join(root, r));
  const config = scenario.config(roots);
  const hookFn = scenario.hook;
  if (hookFn) config.permission = { ...config.permission, hook: true };
  events.push(metaEvent(opts, Date.now(), root, cwd, roots));
  const hook = hookFn
    ? (request: PermissionRequest): PermissionDecision => {
        const decision = hookFn(request);
        events.push({ type: "hook", request, decision });
        return decision;
      }
    : undefined;
  const { session, catalog } = await implCall(async () => {
    const session = await implementation.createSession(config, hook ? { hook } : {});
    onSession(session);
    return { session, catalog: await session.catalog() };
  });
  events.push({
    type: "catalog",
    toolDescription: catalog.tool_description,
    entries: catalog.entries.map((e) => ({ name: e.name, dir: e.dir, description: e.description })),
    warnings: catalog.warnings,
  });
  const system = systemPrompt(cwd);
  events.push({ type: "system", content: system });
  const tools = [skillToolSpec(catalog.tool_description), BASH_TOOL, READ_TOOL];
  return {
    root,
    cwd,
    session,
    tools,
    messages: [{ role: "system", content: system }],
    events,
    maxSteps: maxStepsOf(opts),
    step: 0,
  };
}

/** The scenario's user turns, one at a time; a reply without tool calls ends a turn; the step limit ends the trial. */
async function converse(env: Env, opts: TrialOptions): Promise<"completed" | "turn_limit"> {
  for (const [i, prompt] of opts.scenario.prompts.entries()) {
    const turn = i + 1;
    env.messages.push({ role: "user", content: prompt });
    env.events.push({ type: "user", turn, content: prompt });
    for (;;) {
      if (env.step >= env.maxSteps) return "turn_limit";
      env.step++;
      const res = await callModel(env, opts, turn);
      if (res.toolCalls.length === 0 && res.unusable !== undefined) {
        tellModel(env, turn, res.unusable);
        continue;
      }
      if (res.toolCalls.length === 0) break;
      for (const c of res.toolCalls) {
        const ev = await runTool(env, opts, c);
        env.events.push(ev);
        env.messages.push({
          role: "tool",
          toolCallId: c.id,
          name: c.name,
          content: ev.output,
          ...(ev.isError ? { isError: true } : {}),
          ...(ev.skill ? { result: ev.skill } : {}),
        });
      }
    }
  }
  return "completed";
}

/** The text the model gets when its reply held a tool call nobody could read (R61); recognisable by its first words. */
export const NOTICE_PREFIX = "Your previous reply could not be used:";

/**
 * The model's reply held a tool call that could not be read at all (no call to answer): the model is told what went
 * wrong, as a real harness would, and the turn goes on (the step limit still counts). Recorded as a notice event.
 */
function tellModel(env: Env, turn: number, problem: string): void {
  const content = `${NOTICE_PREFIX} ${problem}. Call a tool with its arguments as one JSON object, or give your final answer as plain text.`;
  env.events.push({ type: "notice", step: env.step, turn, content });
  env.messages.push({ role: "user", content, notice: true });
}

/** One model call: timed, watched, recorded (with reasoning and any adjustment), and added to the history. */
async function callModel(env: Env, opts: TrialOptions, turn: number): Promise<ChatResponse> {
  const t0 = Date.now();
  opts.watch?.callStarted(env.step);
  let res: ChatResponse;
  try {
    res = await opts.provider.chat(
      {
        messages: env.messages,
        tools: env.tools,
        temperature: opts.temperature,
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
        context: { scenario: opts.scenario.id, trial: opts.trial },
        ...(opts.watch ? { onRetry: (info) => opts.watch!.callRetrying(info) } : {}),
      },
      opts.signal,
    );
  } finally {
    opts.watch?.callEnded();
  }
  env.events.push({
    type: "assistant",
    step: env.step,
    turn,
    text: res.text,
    toolCalls: res.toolCalls,
    stopReason: res.stopReason,
    ...(res.attempts !== undefined ? { attempts: res.attempts } : {}),
    ...(res.usage ? { usage: res.usage } : {}),
    latencyMs: Date.now() - t0,
    ...(res.reasoning?.length ? { reasoning: res.reasoning } : {}),
    ...(res.adjustments?.length ? { adjustments: res.adjustments } : {}),
    ...(res.unusable !== undefined ? { unusable: res.unusable } : {}),
    ...(res.sent ? { sent: res.sent } : {}),
    ...(res.raw !== undefined ? { raw: res.raw } : {}),
  });
  env.messages.push({
    role: "assistant",
    content: res.text,
    toolCalls: res.toolCalls,
    ...(res.reasoning?.length ? { reasoning: res.reasoning } : {}),
  });
  return res;
}

/** Runs one tool call: skill through the implementation, bash/read through the permission policy, anything else refused. */
async function runTool(env: Env, opts: TrialOptions, c: ToolCall): Promise<ToolEvent> {
  const base = { type: "tool" as const, step: env.step, callId: c.id, tool: c.name, input: c.arguments };
  // The model's malformed call is not run; it is told why and goes on (R61), and the checker sees the call.
  if (c.malformed !== undefined) {
    return {
      ...base,
      output: `Error: this ${c.name} call was not run: ${c.malformed}. Make the call again with its arguments as one JSON object.`,
      isError: true,
      malformed: c.malformed,
    };
  }
  if (c.name === "skill") {
    const result: SkillResult = await implCall(() => env.session.call(c.arguments, { invocation: "model" }));
    // The stdio driver passes answers through unjudged (the conformance runner judges them): a trial cannot use one
    // its schema refuses, on any transport.
    const valid = check("result.schema.json", result);
    if (!valid.valid)
      throw new ImplementationFault(`skill tool implementation answered a schema-invalid result: ${valid.errors}`);
    return { ...base, output: result.output, isError: result.kind === "error", skill: result };
  }
  if (c.name !== "bash" && c.name !== "read") {
    return {
      ...base,
      output: `Error: there is no tool named "${c.name}". Available tools: skill, bash, read.`,
      isError: true,
    };
  }
  const key = c.name === "bash" ? "command" : "path";
  const value = (c.arguments as Record<string, unknown> | null)?.[key];
  if (typeof value !== "string" || value === "") {
    return { ...base, output: `Error: ${c.name} needs a string "${key}" argument`, isError: true };
  }
  const permission = decide(opts.scenario.toolPolicy ?? ALLOW_ALL, c.name, value, scriptReader(env.cwd));
  if (permission.decision === "deny") {
    const output = `Permission denied: the session's permission hook refused this ${c.name} call (${permission.rule}).`;
    if (c.name === "bash")
      return {
        ...base,
        output,
        isError: true,
        permission,
        bash: { command: value, exitCode: null, timedOut: false, truncated: false, output: "" },
      };
    return {
      ...base,
      output,
      isError: true,
      permission,
      read: { path: value, resolved: value, ok: false, error: "denied" },
    };
  }
  const cap = opts.outputCap ?? 16_000;
  if (c.name === "bash") {
    const timeoutMs = opts.bashTimeoutMs ?? 15_000;
    const record = await runBash(value, { cwd: env.cwd, home: env.root, timeoutMs, outputCap: cap });
    return { ...base, output: renderBash(record, timeoutMs), isError: record.exitCode !== 0, permission, bash: record };
  }
  const { record, output } = readFile(value, env.cwd, env.root, cap);
  return { ...base, output, isError: !record.ok, permission, read: record };
}

/** Who failed: a run the user stopped is "interrupted" (never scored), else model / implementation / harness. */
function classify(
  err: unknown,
  signal: AbortSignal | undefined,
): { outcome: "error" | "interrupted"; error: EndError } {
  if (signal?.aborted)
    return {
      outcome: "interrupted",
      error: { kind: "harness", message: "the run was interrupted before this trial finished" },
    };
  if (err instanceof ProviderError)
    return { outcome: "error", error: { kind: "model", message: err.message, code: err.code } };
  if (err instanceof ImplementationFault)
    return { outcome: "error", error: { kind: "implementation", message: err.message } };
  return {
    outcome: "error",
    error: { kind: "harness", message: err instanceof Error ? (err.stack ?? err.message) : String(err) },
  };
}

async function implCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    throw new ImplementationFault(`skill tool implementation failed: ${e.message}`, { cause: e });
  }
}
