// The fixed agent loop of one trial: a fresh workspace, one skill tool session through the driver interface, the
// system prompt, the `skill` / `bash` / `read` tools, the scenario's prompts one user turn at a time, and a step
// limit. Providers only answer "given these messages and tools, what text and tool calls?"; everything else —
// running tools, permission checks, recording the transcript — happens here, identically for every model.
// Owns: runTrial, SYSTEM_PROMPT, skillToolSpec.
import { join } from "node:path";
import type { Implementation, SessionHandle } from "../schemas/implementation.ts";
import type { PermissionDecision, PermissionRequest, SkillResult } from "../schemas/index.ts";
import { ProviderError, type Message, type ModelProvider, type ToolCall, type ToolSpec } from "./providers/types.ts";
import type { Scenario } from "./scenario.ts";
import { ALLOW_ALL, BASH_TOOL, READ_TOOL, decide, readFile, renderBash, runBash } from "./tools.ts";
import { TRANSCRIPT_VERSION, type ToolEvent, type TranscriptEvent } from "./transcript.ts";
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
}

class ImplementationFault extends Error {}

export async function runTrial(opts: TrialOptions): Promise<TranscriptEvent[]> {
  const { scenario, provider, implementation } = opts;
  const started = Date.now();
  const events: TranscriptEvent[] = [];
  const maxSteps = opts.maxSteps ?? scenario.maxSteps ?? 16;
  const bashTimeoutMs = opts.bashTimeoutMs ?? 15_000;
  const outputCap = opts.outputCap ?? 16_000;

  let ws: { root: string } | undefined;
  let session: SessionHandle | undefined;
  let outcome: "completed" | "turn_limit" | "error" = "completed";
  let error: { kind: "model" | "implementation" | "harness"; message: string; code?: string } | undefined;

  // One shape for the transcript's meta line, whether set-up got as far as the workspace or not.
  const meta = (workspace: string, cwd: string, skillRoots: string[]) => ({
    type: "meta" as const,
    version: TRANSCRIPT_VERSION,
    scenario: scenario.id,
    model: provider.id,
    modelKind: provider.kind,
    trial: opts.trial,
    temperature: opts.temperature,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(provider.sampling ? { sampling: provider.sampling } : {}),
    implementation: implementation.info.implementation,
    workspace,
    cwd,
    skillRoots,
    maxSteps,
    startedAt: new Date(started).toISOString(),
  });

  try {
    ws = createWorkspace(scenario.fixture);
    await scenario.setup?.(ws.root);
    const root = ws.root;
    const cwd = join(root, scenario.cwd ?? ".");
    const roots = scenario.skillRoots.map((r) => join(root, r));
    const config = scenario.config(roots);
    const hookFn = scenario.hook;
    if (hookFn) config.permission = { ...config.permission, hook: true };
    events.push(meta(root, cwd, roots));

    const hook = hookFn
      ? (request: PermissionRequest): PermissionDecision => {
          const decision = hookFn(request);
          events.push({ type: "hook", request, decision });
          return decision;
        }
      : undefined;
    const catalog = await implCall(async () => {
      session = await implementation.createSession(config, hook ? { hook } : {});
      return await session.catalog();
    });
    events.push({
      type: "catalog",
      toolDescription: catalog.tool_description,
      entries: catalog.entries.map((e) => ({ name: e.name, dir: e.dir, description: e.description })),
      warnings: catalog.warnings,
    });

    const tools = [skillToolSpec(catalog.tool_description), BASH_TOOL, READ_TOOL];
    const system = systemPrompt(cwd);
    const messages: Message[] = [{ role: "system", content: system }];
    events.push({ type: "system", content: system });
    const policy = scenario.toolPolicy ?? ALLOW_ALL;
    let step = 0;

    const runTool = async (c: ToolCall): Promise<ToolEvent> => {
      const base = { type: "tool" as const, step, callId: c.id, tool: c.name, input: c.arguments };
      if (c.name === "skill") {
        const result: SkillResult = await implCall(() => session!.call(c.arguments, { invocation: "model" }));
        return { ...base, output: result.output, isError: result.kind === "error", skill: result };
      }
      if (c.name === "bash" || c.name === "read") {
        const key = c.name === "bash" ? "command" : "path";
        const value = (c.arguments as Record<string, unknown> | null)?.[key];
        if (typeof value !== "string" || value === "") {
          return { ...base, output: `Error: ${c.name} needs a string "${key}" argument`, isError: true };
        }
        const permission = decide(policy, c.name, value);
        if (permission.decision === "deny") {
          const output = `Permission denied: the session's permission hook refused this ${c.name} call (${permission.rule}).`;
          if (c.name === "bash") {
            return { ...base, output, isError: true, permission, bash: { command: value, exitCode: null, timedOut: false, truncated: false, output: "" } };
          }
          return { ...base, output, isError: true, permission, read: { path: value, resolved: value, ok: false, error: "denied" } };
        }
        if (c.name === "bash") {
          const record = await runBash(value, { cwd, home: root, timeoutMs: bashTimeoutMs, outputCap });
          return { ...base, output: renderBash(record, bashTimeoutMs), isError: record.exitCode !== 0, permission, bash: record };
        }
        const { record, output } = readFile(value, cwd, root, outputCap);
        return { ...base, output, isError: !record.ok, permission, read: record };
      }
      return { ...base, output: `Error: there is no tool named "${c.name}". Available tools: skill, bash, read.`, isError: true };
    };

    turns: for (const [i, prompt] of scenario.prompts.entries()) {
      const turn = i + 1;
      messages.push({ role: "user", content: prompt });
      events.push({ type: "user", turn, content: prompt });
      for (;;) {
        if (step >= maxSteps) {
          outcome = "turn_limit";
          break turns;
        }
        step++;
        const res = await provider.chat(
          {
            messages,
            tools,
            temperature: opts.temperature,
            ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
            ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
            context: { scenario: scenario.id, trial: opts.trial },
          },
          opts.signal,
        );
        events.push({
          type: "assistant",
          step,
          turn,
          text: res.text,
          toolCalls: res.toolCalls,
          stopReason: res.stopReason,
          ...(res.attempts !== undefined ? { attempts: res.attempts } : {}),
          ...(res.usage ? { usage: res.usage } : {}),
          ...(res.raw !== undefined ? { raw: res.raw } : {}),
        });
        messages.push({ role: "assistant", content: res.text, toolCalls: res.toolCalls });
        if (res.toolCalls.length === 0) break;
        for (const c of res.toolCalls) {
          const ev = await runTool(c);
          events.push(ev);
          messages.push({ role: "tool", toolCallId: c.id, name: c.name, content: ev.output, ...(ev.isError ? { isError: true } : {}) });
        }
      }
    }
  } catch (err) {
    outcome = "error";
    if (err instanceof ProviderError) error = { kind: "model", message: err.message, code: err.code };
    else if (err instanceof ImplementationFault) error = { kind: "implementation", message: err.message };
    else error = { kind: "harness", message: err instanceof Error ? err.stack ?? err.message : String(err) };
    if (!events.some((e) => e.type === "meta")) {
      // Set-up failed before meta: still write one so the transcript parses.
      events.unshift(meta(ws?.root ?? "", ws?.root ?? "", []));
    }
  } finally {
    const s = session as SessionHandle | undefined;
    if (s) await s.close().catch(() => {});
  }
  const files = ws ? listFiles(ws.root) : [];
  if (ws && !opts.keepWorkspace) removeWorkspace(ws);
  events.push({ type: "end", outcome, ...(error ? { error } : {}), files, durationMs: Date.now() - started });
  return events;
}

async function implCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    throw new ImplementationFault(`skill tool implementation failed: ${e.message}`, { cause: e });
  }
}
