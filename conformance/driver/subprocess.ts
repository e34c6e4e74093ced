// Subprocess driver: spawns any executable that speaks newline-delimited JSON-RPC 2.0 on stdin/stdout
// (conformance/PROTOCOL.md) and adapts it to the Implementation interface. It owns the client side of
// the wire: the initialize handshake, per-request deadlines, schema checks of every message in both
// directions, answering permission/ask with the session's hook, and reaping the child (always).
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import type { Catalog, InitializeResult, PermissionDecision, SessionConfig, SkillResult } from "../../schemas/index.ts";
import { KIT_VERSION, SPEC_VERSION } from "../../schemas/index.ts";
import { dataPath } from "../../package-root.ts";
import { DriverError } from "./errors.ts";
import {
  LineSplitter,
  RpcErrorCode,
  TailBuffer,
  checkEnvelope,
  checkParams,
  checkResult,
  encode,
  excerpt,
  isMethod,
  isNotification,
  isRequest,
  type Id,
  type Method,
  type RpcError,
  type RpcMessage,
  type RpcRequest,
} from "./jsonrpc.ts";
import type {
  CallOptions,
  Implementation,
  PermissionHook,
  SessionHandle,
  SessionOptions,
} from "../../schemas/implementation.ts";

export interface SpawnOptions {
  cwd?: string;
  /** Added to (and overriding) the kit's environment. */
  env?: Record<string, string | undefined>;
  /** Deadline for every request after initialize. Default 5000 ms. */
  requestTimeoutMs?: number;
  /**
   * Deadline for the initialize handshake (process start-up included). Default: requestTimeoutMs when given (the
   * CLI's --timeout governs the handshake too), else 20000 ms (a cold start of a big harness).
   */
  startupTimeoutMs?: number;
  /** How the driver is named in reports and messages. Default: the command line. */
  label?: string;
  /**
   * Sees every protocol line, "->" kit to implementation, "<-" back. Default: when SKILL_DRIVER_TRACE
   * names a file, lines are appended there (handy when writing a driver in another language).
   */
  trace?: (direction: "->" | "<-", line: string) => void;
}

function envTrace(): SpawnOptions["trace"] {
  const file = process.env.SKILL_DRIVER_TRACE;
  if (!file) return undefined;
  return (direction, line) => appendFileSync(file, `${direction} ${line}\n`);
}

/** How the child ended, once it has. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** true when dispose() had to SIGKILL it (it did not exit on shutdown / end of stdin). */
  killed: boolean;
}

export interface SubprocessImplementation extends Implementation {
  readonly pid: number;
  readonly label: string;
  /** Resolves when the child has exited and been reaped. */
  readonly exited: Promise<ExitInfo>;
  /** The last ~2 KB of the child's stderr. */
  stderrTail(): string;
}

const STDERR_TAIL = 2048;

/** The first few distinct schema errors (a union reports every branch's complaint). */
function firstErrors(errors: string, max = 4): string {
  const all = [...new Set(errors.split("; "))];
  return all.slice(0, max).join("; ") + (all.length > max ? ` (and ${all.length - max} more)` : "");
}
const SHUTDOWN_GRACE_MS = 1000;
/** The handshake's deadline when neither startupTimeoutMs nor requestTimeoutMs is given. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 20_000;

/**
 * The methods whose result is the implementation's answer, judged by the runner against its own schema and
 * rules (a schema-invalid result fails the rule it breaks, and the case's other checks still run), exactly as
 * in-process. Every other result is the protocol's: a schema-invalid one breaks the connection.
 */
const ANSWERS: ReadonlySet<Method> = new Set<Method>(["skill/call", "session/catalog"]);

// Every live child's process group, so that no child outlives the kit, whatever way the kit ends.
const live = new Set<number>();
let exitHooksInstalled = false;

/** Kill the child's process group; `orLeader` also tries the pid alone (only while it is not yet reaped). */
function killGroup(pid: number, orLeader = true): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    if (!orLeader) return;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on("exit", () => {
    for (const pid of live) killGroup(pid);
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(sig, () => {
      for (const pid of live) killGroup(pid);
      // Keep the default meaning of the signal when nobody else handles it.
      if (process.listenerCount(sig) === 0) process.exit(128 + (sig === "SIGINT" ? 2 : sig === "SIGTERM" ? 15 : 1));
    });
  }
}

interface Pending {
  method: Method;
  resolve: (result: unknown) => void;
  reject: (err: DriverError) => void;
  timer: NodeJS.Timeout;
}

interface RemoteSession {
  config: SessionConfig;
  hook?: PermissionHook;
}

/**
 * What every driver needs to render a result in the kit's words, wherever the kit is installed (decision K52): the
 * kit's version and the absolute path of its schemas/messages.json, both in the initialize params and in the
 * driver's environment (SKILL_KIT_VERSION, SKILL_KIT_MESSAGES), so a driver can read the table before it answers.
 */
export function kitHandoff(): { kitVersion: string; messagesPath: string } {
  return { kitVersion: KIT_VERSION, messagesPath: dataPath("schemas", "messages.json") };
}

/** The environment variables of kitHandoff(). */
export function kitEnv(): Record<string, string> {
  const h = kitHandoff();
  return { SKILL_KIT_VERSION: h.kitVersion, SKILL_KIT_MESSAGES: h.messagesPath };
}

/**
 * Spawn `commandLine` through the shell, perform the initialize handshake and return the implementation.
 * Throws DriverError (blame implementation) when the child does not start, does not answer initialize in
 * time, or answers it wrongly; the child is reaped before the error is thrown.
 */
export async function spawnImplementation(
  commandLine: string,
  opts: SpawnOptions = {},
): Promise<SubprocessImplementation> {
  const conn = new Connection(commandLine, opts);
  try {
    const info = (await conn.request(
      "initialize",
      { ...kitHandoff(), specVersion: SPEC_VERSION },
      opts.startupTimeoutMs ?? opts.requestTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
    )) as InitializeResult;
    if (info.specVersion !== SPEC_VERSION) {
      throw conn.fault(
        `initialize: implementation speaks spec version ${JSON.stringify(info.specVersion)}, the kit expects ${JSON.stringify(SPEC_VERSION)}`,
      );
    }
    conn.info = info;
  } catch (err) {
    await conn.dispose();
    // Reaped, its stderr is drained: a failed handshake shows all the child said, even what came after the deadline.
    if (err instanceof DriverError && err.blame === "implementation")
      throw new DriverError(err.message, err.blame, conn.stderrTail());
    throw err;
  }
  return conn;
}

class Connection implements SubprocessImplementation {
  info!: InitializeResult;
  /** dispose() kills the process group: nothing of a case outlives it. */
  readonly isolated = true;
  readonly pid: number;
  readonly label: string;
  readonly exited: Promise<ExitInfo>;

  private readonly child: ChildProcess;
  private readonly stderr = new TailBuffer(STDERR_TAIL);
  private readonly pending = new Map<Id, Pending>();
  private readonly sessions = new Map<string, RemoteSession>();
  private readonly requestTimeoutMs: number;
  private readonly trace: SpawnOptions["trace"];
  private nextId = 1;
  /** Set once the connection is unusable: every later request fails with this reason. */
  private broken: DriverError | undefined;
  private exitInfo: ExitInfo | undefined;
  private killedByUs = false;
  /** The child's "exit" event came (its "close", with the exit status, follows once stdout and stderr are drained). */
  private hasExited = false;
  private disposing: Promise<void> | undefined;
  private resolveExited: (info: ExitInfo) => void = () => {};

  constructor(commandLine: string, opts: SpawnOptions) {
    this.label = opts.label ?? commandLine;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 5000;
    this.trace = opts.trace ?? envTrace();
    installExitHooks();
    this.child = spawn(commandLine, {
      shell: true,
      cwd: opts.cwd,
      env: { ...process.env, ...kitEnv(), ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so dispose() can kill the shell and everything it started.
      detached: true,
    });
    this.pid = this.child.pid ?? -1;
    if (this.pid > 0) live.add(this.pid);

    // Whatever the shell left behind in its group goes with it.
    this.child.once("exit", () => {
      this.hasExited = true;
      if (this.pid > 0) killGroup(this.pid, false);
    });
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.resolveExited = resolve;
      // "close" (not "exit"): stdout and stderr are drained, so the stderr tail is complete.
      this.child.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
        this.exitInfo = { code, signal, killed: this.killedByUs };
        live.delete(this.pid);
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        // 127 is the shell's "command not found": its complaint (the last stderr line) is the whole story, in one line.
        const shell = code === 127 ? this.stderrTail().trim().split("\n").pop() : undefined;
        const message =
          code === 127
            ? `implementation exited with code 127 (command not found${shell ? `: ${shell}` : "?"})`
            : `implementation ${how}`;
        this.breakWith(new DriverError(message, "implementation", this.stderrTail()));
        resolve(this.exitInfo);
      });
    });
    this.child.once("error", (err) => {
      this.breakWith(
        new DriverError(`could not start implementation: ${err.message}`, "implementation", this.stderrTail()),
      );
      if (this.pid < 0) {
        this.exitInfo = { code: null, signal: null, killed: false };
        this.resolveExited(this.exitInfo);
      }
    });

    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (chunk: string) => this.stderr.push(chunk));
    this.child.stdin!.on("error", () => {
      // EPIPE when the child is gone: the exit handler reports it.
    });
    const lines = new LineSplitter(
      (line) => this.onLine(line),
      64 * 1024 * 1024,
      (head) => this.breakWith(this.fault(`a line on stdout exceeds 64 MiB: ${excerpt(head)}`)),
    );
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (chunk: string) => lines.push(chunk));
    this.child.stdout!.on("end", () => {
      const rest = lines.rest();
      if (rest.trim() !== "") this.onLine(rest);
      this.onStdoutEnd();
    });
  }

  stderrTail(): string {
    return this.stderr.tail();
  }

  /**
   * stdout ended. A child that exits closes it too: then its exit status (the "close" event, right after) is the
   * reason. One that closes stdout and lives on can never answer again: the connection breaks now (after a short
   * grace for its exit to arrive), not at the deadline of whatever is pending (20 s for initialize).
   */
  private onStdoutEnd(): void {
    if (this.hasExited || this.broken) return;
    setTimeout(() => {
      if (this.exitInfo || this.broken) return;
      const waiting = [...this.pending.values()][0]?.method;
      this.breakWith(
        this.fault(
          `implementation closed its stdout${waiting ? ` before answering ${waiting}` : ""} (it is still running)`,
        ),
      );
    }, 200).unref();
  }

  /** A DriverError blaming the implementation, carrying the stderr tail. */
  fault(message: string): DriverError {
    return new DriverError(message, "implementation", this.stderrTail());
  }

  // ---- Implementation -------------------------------------------------------------------------------

  async createSession(config: SessionConfig, options: SessionOptions): Promise<SessionHandle> {
    const { sessionId } = (await this.request(
      "session/create",
      options.environment ? { config, environment: options.environment } : { config },
    )) as { sessionId: string };
    if (this.sessions.has(sessionId))
      throw this.fault(`session/create returned sessionId ${JSON.stringify(sessionId)}, which is already open`);
    this.sessions.set(sessionId, { config, hook: options.hook });
    let closed = false;
    return {
      catalog: async () => (await this.request("session/catalog", { sessionId })) as Catalog,
      call: async (params: unknown, callOptions: CallOptions) => {
        const p: Record<string, unknown> = {
          sessionId,
          // JSON has no undefined: a missing tool input travels as null.
          params: params === undefined ? null : params,
          invocation: callOptions.invocation,
        };
        if (callOptions.turn !== undefined) p.turn = callOptions.turn;
        return (await this.request("skill/call", p)) as SkillResult;
      },
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await this.request("session/close", { sessionId });
        } finally {
          this.sessions.delete(sessionId);
        }
      },
    };
  }

  dispose(): Promise<void> {
    this.disposing ??= this.doDispose();
    return this.disposing;
  }

  private async doDispose(): Promise<void> {
    if (!this.exitInfo && !this.broken) {
      try {
        await this.request("shutdown", {}, SHUTDOWN_GRACE_MS);
      } catch {
        // a broken or slow implementation: it is killed below
      }
    }
    this.child.stdin!.end();
    if (!this.exitInfo && this.broken) {
      // It broke the protocol (hung, garbage, crashed half-way): no grace.
      this.killedByUs = true;
      killGroup(this.pid);
    } else if (!this.exitInfo) {
      const timer = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), SHUTDOWN_GRACE_MS).unref());
      if ((await Promise.race([this.exited, timer])) === "timeout") {
        this.killedByUs = true;
        killGroup(this.pid);
      }
    }
    await this.exited;
    this.breakWith(new DriverError("implementation was disposed", "kit"));
  }

  // ---- requests -------------------------------------------------------------------------------------

  request(method: Method, params: Record<string, unknown>, timeoutMs = this.requestTimeoutMs): Promise<unknown> {
    if (this.broken) return Promise.reject(this.broken);
    const ok = checkParams(method, params);
    if (!ok.valid) return Promise.reject(new DriverError(`kit sent invalid ${method} params: ${ok.errors}`, "kit"));
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A late answer would arrive with an id nobody waits for: the connection is done.
        this.breakWith(this.fault(`no response to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  private send(message: RpcMessage): void {
    if (this.exitInfo || !this.child.stdin!.writable) return;
    const line = encode(message);
    this.trace?.("->", line.trimEnd());
    this.child.stdin!.write(line);
  }

  /** Fail every pending request and every later one with `err` (the first reason wins). */
  private breakWith(err: DriverError): void {
    if (!this.broken) this.broken = err;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(this.broken);
    }
  }

  private onLine(line: string): void {
    this.trace?.("<-", line);
    if (this.broken) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.breakWith(this.fault(`non-JSON on stdout: ${excerpt(line)}`));
      return;
    }
    const envelope = checkEnvelope(message);
    if (!envelope.valid) {
      this.breakWith(this.fault(`not a JSON-RPC 2.0 message on stdout: ${excerpt(line)} (${envelope.errors})`));
      return;
    }
    const m = message as RpcMessage;
    if (isRequest(m)) {
      void this.onServerRequest(m);
      return;
    }
    if (isNotification(m)) return; // server notifications (logs) are allowed and ignored
    const p = this.pending.get(m.id ?? "");
    if (m.id === null || !p) {
      const waiting = [...this.pending.keys()].join(", ") || "none";
      const what = "error" in m ? `error response ${excerpt(m.error)}` : "response";
      this.breakWith(
        this.fault(`${what} with id ${JSON.stringify(m.id)}, which matches no pending request (pending: ${waiting})`),
      );
      return;
    }
    clearTimeout(p.timer);
    this.pending.delete(m.id);
    if ("error" in m) {
      p.reject(
        this.fault(
          `${p.method} failed: JSON-RPC error ${m.error.code}: ${m.error.message}${m.error.data === undefined ? "" : ` (${excerpt(m.error.data)})`}`,
        ),
      );
      return;
    }
    const ok = ANSWERS.has(p.method) ? ({ valid: true } as const) : checkResult(p.method, m.result);
    if (!ok.valid) {
      p.reject(
        this.fault(`schema-invalid ${p.method} result: ${firstErrors(ok.errors)}; got ${excerpt(m.result, 400)}`),
      );
      return;
    }
    p.resolve(m.result);
  }

  private async onServerRequest(req: RpcRequest): Promise<void> {
    const reply = (result: unknown) => this.send({ jsonrpc: "2.0", id: req.id, result });
    const replyError = (error: RpcError) => this.send({ jsonrpc: "2.0", id: req.id, error });
    if (req.method !== "permission/ask" || !isMethod(req.method)) {
      replyError({
        code: RpcErrorCode.MethodNotFound,
        message: `the kit serves only permission/ask, not ${req.method}`,
      });
      return;
    }
    const params = req.params ?? {};
    // The envelope (which session, a request at all) is the protocol's; the request itself is the implementation's
    // answer, judged by the runner against permission-request.schema.json exactly as in-process.
    const envelopeOk = typeof params.sessionId === "string" && Object.hasOwn(params, "request");
    if (!envelopeOk) {
      const ok = checkParams("permission/ask", params);
      const errors = ok.valid ? "" : ok.errors;
      replyError({ code: RpcErrorCode.InvalidParams, message: `invalid permission/ask params: ${errors}` });
      this.breakWith(this.fault(`permission/ask with invalid params: ${errors}; got ${excerpt(params, 400)}`));
      return;
    }
    const { sessionId, request } = params as { sessionId: string; request: Parameters<PermissionHook>[0] };
    const session = this.sessions.get(sessionId);
    if (!session) {
      replyError({ code: RpcErrorCode.UnknownSession, message: `unknown session ${sessionId}` });
      this.breakWith(this.fault(`permission/ask for sessionId ${JSON.stringify(sessionId)}, which is not open`));
      return;
    }
    if (session.config.permission?.hook !== true) {
      replyError({
        code: RpcErrorCode.InvalidRequest,
        message: "this session has no permission hook (config.permission.hook is not true)",
      });
      this.breakWith(
        this.fault(
          `permission/ask on session ${sessionId}, whose config has no hook: an implementation must not ask then`,
        ),
      );
      return;
    }
    if (!session.hook) {
      replyError({ code: RpcErrorCode.InternalError, message: "the kit has no hook for this session" });
      return;
    }
    let decision: PermissionDecision;
    try {
      decision = await session.hook(request);
    } catch (err) {
      // A failing hook is answered with an error; the implementation must treat it as deny (fail closed).
      replyError({
        code: RpcErrorCode.InternalError,
        message: `permission hook failed: ${err instanceof Error ? err.message : String(err)}`,
      });
      return;
    }
    const result = { decision };
    const valid = checkResult("permission/ask", result);
    if (!valid.valid) {
      replyError({ code: RpcErrorCode.InternalError, message: "the kit's hook returned an invalid decision" });
      this.breakWith(new DriverError(`kit hook returned an invalid decision: ${valid.errors}`, "kit"));
      return;
    }
    reply(result);
  }
}
