// One trial's transcript: the JSONL event shapes the agent loop writes, reading them back, and the queries checkers
// ask of a transcript (which tool calls were made, what the skill tool returned, what the model finally said).
// Owns: TranscriptEvent, Trial, parseTranscript / serialiseTranscript, and the query helpers. Plain JSON only, so a
// saved transcript can be re-scored offline with no model, no implementation and no workspace.
import type { InitializeResult, PermissionDecision, PermissionRequest, SkillResult } from "../schemas/index.ts";
import type { ServedModel } from "./providers/registry.ts";
import type { Reasoning, SamplingApplied, StopReason, ToolCall } from "./providers/types.ts";
import type { Versions } from "./versions.ts";

/** 2: meta carries versions and settings; assistant events carry latency, reasoning and adjustments; "interrupted". */
export const TRANSCRIPT_VERSION = 2;

export interface MetaEvent {
  type: "meta";
  version: number;
  scenario: string;
  /** The model spec as given (`ollama:qwen3:8b`, `scripted:good`). */
  model: string;
  /** "scripted" transcripts are harness self-tests, never model results. */
  modelKind: "real" | "scripted";
  trial: number;
  temperature: number;
  seed?: number;
  /** What the provider can actually pass on (a Bedrock seed never reaches the model). */
  sampling?: SamplingApplied;
  /** What served the model (digest, quantisation, server version; model id or ARN and region; base URL), from the probe. */
  served?: ServedModel;
  /** Provider name (ollama, bedrock, scripted) and every request setting that shapes the model's answers. */
  provider?: string;
  settings?: RunSettings;
  /** Kit version and the hashes of this scenario's checker and fixture when the trial ran (versions.ts). */
  versions?: Versions;
  implementation: InitializeResult["implementation"];
  /** Absolute path of the throw-away workspace (deleted after the trial unless kept). */
  workspace: string;
  /** Where bash runs and relative read paths resolve. */
  cwd: string;
  skillRoots: string[];
  maxSteps: number;
  startedAt: string;
}

/** The request settings recorded with every trial and report (absent = not set, the provider's default applies). */
export interface RunSettings {
  maxTokens?: number;
  think?: boolean | "low" | "medium" | "high";
  numCtx?: number;
  maxSteps?: number;
}

export interface CatalogEvent {
  type: "catalog";
  toolDescription: string;
  entries: { name: string; dir: string; description: string }[];
  warnings: string[];
}

export interface BashRecord {
  command: string;
  /** null when the command never ran (denied, malformed input). */
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
  output: string;
}

export interface ReadRecord {
  /** As the model gave it. */
  path: string;
  /** Absolute, after resolving against cwd (before symlinks). */
  resolved: string;
  ok: boolean;
  error?: string;
}

export interface ToolEvent {
  type: "tool";
  step: number;
  callId: string;
  /** The tool the model named (may be one that does not exist). */
  tool: string;
  /** The call's arguments exactly as the model produced them. */
  input: unknown;
  /** The text sent back to the model. */
  output: string;
  isError: boolean;
  /** For a skill call: the implementation's structured result. */
  skill?: SkillResult;
  bash?: BashRecord;
  read?: ReadRecord;
  /** For bash/read: the session permission policy's answer and the rule that gave it. */
  permission?: { decision: "allow" | "deny"; rule: string };
  /** Set when the model's call was malformed and not run (R61): the problem the model was told. */
  malformed?: string;
}

/** The loop told the model its reply held a tool call nobody could read (R61); the turn went on. */
export interface NoticeEvent {
  type: "notice";
  step: number;
  turn: number;
  content: string;
}

export type TranscriptEvent =
  | MetaEvent
  | CatalogEvent
  | { type: "system"; content: string }
  | { type: "user"; turn: number; content: string }
  | {
      type: "assistant";
      step: number;
      turn: number;
      text: string;
      toolCalls: ToolCall[];
      stopReason: StopReason;
      attempts?: number;
      usage?: { inputTokens?: number; outputTokens?: number };
      /** Wall time of this model call, retries included. */
      latencyMs?: number;
      /** The model's reasoning (Ollama thinking, Bedrock reasoningContent), replayed in the history. */
      reasoning?: Reasoning[];
      /** What the adapter changed about the request (e.g. a dropped field and the retry that followed). */
      adjustments?: string[];
      /** The sampling settings this call's request actually carried, as named on the wire. */
      sent?: Record<string, unknown>;
      /** The reply held a tool call that could not be read at all (R61): the problem; a notice event follows. */
      unusable?: string;
      /** Provider extras for debugging (stop reason on the wire, a reasoning model's thinking); never read by checkers. */
      raw?: unknown;
    }
  | ToolEvent
  | NoticeEvent
  | { type: "hook"; request: PermissionRequest; decision: PermissionDecision }
  | {
      type: "end";
      /** interrupted: the run was stopped (Ctrl-C) mid-trial; such a transcript is never scored. */
      outcome: "completed" | "turn_limit" | "error" | "interrupted";
      /** For outcome error: who failed. model = the provider/transport; implementation = the skill tool; harness = us. */
      error?: { kind: "model" | "implementation" | "harness"; message: string; code?: string };
      /** Workspace files (relative, sorted) when the trial ended, for checks on what the agent changed. */
      files: string[];
      durationMs: number;
    };

export type EndEvent = Extract<TranscriptEvent, { type: "end" }>;
export type AssistantEvent = Extract<TranscriptEvent, { type: "assistant" }>;

/** A transcript read back, with the queries checkers use. */
export class Trial {
  readonly meta: MetaEvent;
  readonly end: EndEvent | undefined;
  constructor(readonly events: readonly TranscriptEvent[]) {
    const meta = events.find((e): e is MetaEvent => e.type === "meta");
    if (!meta) throw new Error("transcript has no meta event");
    this.meta = meta;
    this.end = events.find((e): e is EndEvent => e.type === "end");
  }

  get catalog(): CatalogEvent | undefined {
    return this.events.find((e): e is CatalogEvent => e.type === "catalog");
  }

  tools(tool?: string): ToolEvent[] {
    return this.events.filter((e): e is ToolEvent => e.type === "tool" && (tool === undefined || e.tool === tool));
  }

  skillCalls(): ToolEvent[] {
    return this.tools("skill");
  }

  /** Skill calls that concern a skill: its name appears anywhere in the input, under any key or shape. */
  skillCallsAbout(name: string): ToolEvent[] {
    return this.skillCalls().filter((e) => JSON.stringify(e.input ?? null).includes(name));
  }

  bashCalls(): ToolEvent[] {
    return this.tools("bash");
  }

  reads(): ToolEvent[] {
    return this.tools("read");
  }

  assistantTurns(): AssistantEvent[] {
    return this.events.filter((e): e is AssistantEvent => e.type === "assistant");
  }

  /** The last assistant text of each user turn (the model's answer to that turn), in turn order. */
  answers(): string[] {
    const byTurn = new Map<number, string>();
    for (const a of this.assistantTurns()) if (a.text.trim() !== "") byTurn.set(a.turn, a.text);
    return [...byTurn.entries()].sort((x, y) => x[0] - y[0]).map(([, t]) => t);
  }

  /** Everything the model said, all turns. */
  allText(): string {
    return this.assistantTurns()
      .map((a) => a.text)
      .join("\n");
  }

  /** Position of an event, to ask "did X happen after Y". */
  indexOf(e: TranscriptEvent): number {
    return this.events.indexOf(e);
  }

  after(e: TranscriptEvent): TranscriptEvent[] {
    return this.events.slice(this.indexOf(e) + 1);
  }
}

export function serialiseTranscript(events: readonly TranscriptEvent[]): string {
  return events.map((e) => JSON.stringify(e)).join("\n") + "\n";
}

export function parseTranscript(text: string): Trial {
  const events: TranscriptEvent[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    try {
      events.push(JSON.parse(line) as TranscriptEvent);
    } catch (error) {
      throw new Error(`line ${i + 1}: not JSON (${(error as Error).message})`);
    }
  }
  return new Trial(events);
}

/** A skill result's label for a reason line: `ok`, `already_loaded`, `not_found`, `error DISABLED`. */
export function resultLabel(r: SkillResult | undefined): string {
  if (!r) return "no result";
  return r.kind === "error" ? `error ${r.code}` : r.kind;
}

/** The input's `name` field when it is an object with a string name. */
export function inputName(input: unknown): string | undefined {
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const name = (input as Record<string, unknown>)["name"];
    if (typeof name === "string") return name;
  }
  return undefined;
}

export function inputField(input: unknown, key: string): unknown {
  if (input && typeof input === "object" && !Array.isArray(input)) return (input as Record<string, unknown>)[key];
  return undefined;
}

/** The command of a bash call, whatever the record says. */
export function bashCommand(e: ToolEvent): string {
  if (e.bash) return e.bash.command;
  const c = inputField(e.input, "command");
  return typeof c === "string" ? c : JSON.stringify(e.input);
}
