// The in-process face of the contract: what a TypeScript implementation of the skill tool exports, and the
// interface every driver (in-process or JSON-RPC over stdio) produces. The reference implements it; conformance/
// and e2e/ reach any implementation only through it. Types come from the JSON Schemas beside it.
import type {
  Catalog,
  InitializeResult,
  PermissionDecision,
  PermissionRequest,
  SessionConfig,
  SkillResult,
} from "./index.ts";

/** The harness's permission hook (§5.6). The kit scripts it per case and records what it was asked. */
export type PermissionHook = (request: PermissionRequest) => PermissionDecision | Promise<PermissionDecision>;

/** The process environment a case runs its session in (conformance-case.schema.json environment): absolute paths. */
export interface SessionEnvironment {
  /** HOME (and XDG_CONFIG_HOME = home/.config) as the session should see it. */
  home: string;
  /** The working directory as the session should see it. */
  cwd: string;
}

export interface SessionOptions {
  /** Present iff config.permission.hook is true. */
  hook?: PermissionHook;
  /** Present iff the case declares an environment: where HOME and the working directory are for this session. */
  environment?: SessionEnvironment;
}

export interface CallOptions {
  /** Who initiated the activation: the model (a tool call) or the user (a harness slash command). */
  invocation: "model" | "user";
  /** The harness's turn number, when it has one (design.md D9). */
  turn?: number;
}

export interface SessionHandle {
  catalog(): Promise<Catalog>;
  /** params is the raw tool input, exactly as the model produced it: it may be anything. */
  call(params: unknown, options: CallOptions): Promise<SkillResult>;
  close(): Promise<void>;
}

/** implementationInfo as conformance/README.md shows it: the wire's fields, flat (decision K50). */
export interface FlatImplementationInfo {
  name: string;
  version: string;
  language: string;
  specVersion?: string;
  capabilities?: InitializeResult["capabilities"];
}

/** What an in-process TS implementation exports (as named exports of its module). */
export interface InProcessModule {
  implementationInfo?: InitializeResult | FlatImplementationInfo | (() => InitializeResult | FlatImplementationInfo);
  createSession(config: SessionConfig, options: SessionOptions): SessionHandle | Promise<SessionHandle>;
}

export interface Implementation {
  readonly info: InitializeResult;
  createSession(config: SessionConfig, options: SessionOptions): Promise<SessionHandle>;
  /** Release the implementation (reap a child process). Idempotent. */
  dispose(): Promise<void>;
  /**
   * Optional: true when dispose() ends every piece of work the implementation still has running (a child process is
   * killed). In-process work cannot be stopped: a case that leaves some running after close() ends such a run.
   */
  readonly isolated?: boolean;
  /** Optional: the tail of what the implementation wrote to stderr, shown with a case it errored (a hang included). */
  stderrTail?(): string;
}
