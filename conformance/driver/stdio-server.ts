// Generic stdio server: serveStdio(mod) turns any in-process module (createSession + implementationInfo)
// into a JSON-RPC 2.0 implementation on stdin/stdout, the server side of conformance/PROTOCOL.md.
// When a session's config.permission.hook is true, the session's hook sends permission/ask to the
// client (the kit) and awaits its decision. stdout carries protocol lines only; logs go to stderr.
import type { Readable, Writable } from "node:stream";
import type { PermissionDecision, PermissionRequest, SessionConfig } from "../../schemas/index.ts";
import { SPEC_VERSION } from "../../schemas/index.ts";
import { fromModule } from "./in-process.ts";
import {
  LineSplitter,
  RpcErrorCode,
  checkEnvelope,
  checkParams,
  checkResult,
  encode,
  isMethod,
  isNotification,
  isRequest,
  type Id,
  type RpcError,
  type RpcMessage,
  type RpcRequest,
} from "./jsonrpc.ts";
import type { InProcessModule, SessionHandle, SessionOptions } from "../../schemas/implementation.ts";

export interface ServeOptions {
  input?: Readable;
  output?: Writable;
  /** Where diagnostics go. Default: process.stderr. */
  log?: (line: string) => void;
}

class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * Serve `mod` until the client sends shutdown or closes stdin. Resolves once the last answer is
 * written; the caller then exits (scripts/reference-driver.ts calls process.exit(0)).
 */
export function serveStdio(mod: InProcessModule, options: ServeOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const impl = fromModule(mod, "stdio-server");

  const sessions = new Map<string, SessionHandle>();
  const asks = new Map<Id, { resolve: (d: PermissionDecision) => void; reject: (e: Error) => void }>();
  let initialized = false;
  let sessionCounter = 0;
  let askCounter = 0;
  let stopping = false;

  const write = (m: RpcMessage) =>
    new Promise<void>((resolve) => {
      output.write(encode(m), () => resolve());
    });

  const askClient = (sessionId: string, request: PermissionRequest): Promise<PermissionDecision> => {
    const id = `ask-${++askCounter}`;
    return new Promise<PermissionDecision>((resolve, reject) => {
      asks.set(id, { resolve, reject });
      void write({ jsonrpc: "2.0", id, method: "permission/ask", params: { sessionId, request } });
    });
  };

  const handlers: Record<string, (params: Record<string, unknown>) => Promise<unknown>> = {
    async initialize(params) {
      if (params.specVersion !== SPEC_VERSION)
        log(`warning: kit speaks spec ${String(params.specVersion)}, this implementation ${SPEC_VERSION}`);
      initialized = true;
      return impl.info;
    },
    async "session/create"(params) {
      const config = params.config as SessionConfig;
      const sessionId = `s${++sessionCounter}`;
      const hook =
        config.permission?.hook === true ? (request: PermissionRequest) => askClient(sessionId, request) : undefined;
      const environment = params.environment as SessionOptions["environment"];
      sessions.set(sessionId, await impl.createSession(config, environment ? { hook, environment } : { hook }));
      return { sessionId };
    },
    async "session/catalog"(params) {
      return await session(params).catalog();
    },
    async "skill/call"(params) {
      const options: { invocation: "model" | "user"; turn?: number } = {
        invocation: params.invocation as "model" | "user",
      };
      if (typeof params.turn === "number") options.turn = params.turn;
      return await session(params).call(params.params, options);
    },
    async "session/close"(params) {
      await session(params).close();
      sessions.delete(params.sessionId as string);
      return {};
    },
    async shutdown() {
      stopping = true;
      for (const [id, s] of sessions) {
        sessions.delete(id);
        await s.close().catch(() => {});
      }
      await impl.dispose();
      return {};
    },
  };

  function session(params: Record<string, unknown>): SessionHandle {
    const s = sessions.get(params.sessionId as string);
    if (!s) throw new RpcFault(RpcErrorCode.UnknownSession, `unknown session ${String(params.sessionId)}`);
    return s;
  }

  return new Promise<void>((resolveServe) => {
    let inFlight = 0;
    let inputEnded = false;
    const finish = () => {
      input.removeListener("data", onData);
      input.pause();
      for (const a of asks.values()) a.reject(new Error("client went away"));
      resolveServe();
    };
    const maybeFinish = () => {
      if ((stopping || inputEnded) && inFlight === 0) finish();
    };

    const handleRequest = async (req: RpcRequest) => {
      const fail = (error: RpcError) => write({ jsonrpc: "2.0", id: req.id, error });
      if (!isMethod(req.method) || req.method === "permission/ask") {
        return fail({ code: RpcErrorCode.MethodNotFound, message: `method not found: ${req.method}` });
      }
      if (!initialized && req.method !== "initialize") {
        return fail({ code: RpcErrorCode.NotInitialized, message: "initialize first" });
      }
      const params = req.params ?? {};
      const valid = checkParams(req.method, params);
      if (!valid.valid)
        return fail({ code: RpcErrorCode.InvalidParams, message: `invalid ${req.method} params: ${valid.errors}` });
      try {
        const result = await handlers[req.method]!(params);
        const ok = checkResult(req.method, result);
        if (!ok.valid) log(`warning: this implementation's ${req.method} result does not validate: ${ok.errors}`);
        await write({ jsonrpc: "2.0", id: req.id, result });
      } catch (err) {
        if (err instanceof RpcFault) return fail({ code: err.code, message: err.message, data: err.data });
        const e = err instanceof Error ? err : new Error(String(err));
        log(`${req.method} threw: ${e.stack ?? e.message}`);
        return fail({ code: RpcErrorCode.InternalError, message: `${req.method} threw: ${e.message}` });
      }
    };

    const onLine = (line: string) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        void write({
          jsonrpc: "2.0",
          id: null,
          error: { code: RpcErrorCode.ParseError, message: "parse error: not JSON" },
        });
        return;
      }
      if (!checkEnvelope(message).valid) {
        const id = (message as { id?: unknown } | null)?.id;
        const safeId = typeof id === "number" || typeof id === "string" ? id : null;
        void write({
          jsonrpc: "2.0",
          id: safeId,
          error: { code: RpcErrorCode.InvalidRequest, message: "not a JSON-RPC 2.0 message" },
        });
        return;
      }
      const m = message as RpcMessage;
      if (isNotification(m)) return;
      if (isRequest(m)) {
        inFlight++;
        void handleRequest(m).finally(() => {
          inFlight--;
          maybeFinish();
        });
        return;
      }
      // A response: the kit's answer to one of our permission/ask requests.
      const waiting = m.id === null ? undefined : asks.get(m.id);
      if (!waiting) {
        log(`warning: response with unknown id ${JSON.stringify(m.id)}`);
        return;
      }
      asks.delete(m.id as Id);
      if ("error" in m) {
        // The kit's hook failed: the implementation sees a throwing hook and must fail closed.
        waiting.reject(new Error(`permission/ask failed: ${m.error.message}`));
        return;
      }
      const ok = checkResult("permission/ask", m.result);
      if (!ok.valid) waiting.reject(new Error(`invalid permission/ask result: ${ok.errors}`));
      else waiting.resolve((m.result as { decision: PermissionDecision }).decision);
    };

    const lines = new LineSplitter(onLine);
    const onData = (chunk: string | Buffer) => lines.push(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
    if ("setEncoding" in input && typeof input.setEncoding === "function") input.setEncoding("utf8");
    input.on("data", onData);
    input.once("end", () => {
      inputEnded = true;
      for (const a of asks.values()) a.reject(new Error("client closed stdin"));
      asks.clear();
      maybeFinish();
    });
  });
}
