// JSON-RPC 2.0 framing shared by the subprocess client (subprocess.ts) and the generic stdio server
// (stdio-server.ts): newline-delimited messages, the method table of driver-protocol.schema.json, the
// error codes the kit uses, and schema checks of envelopes, params and results.
import { check } from "../../schemas/index.ts";

export const PROTOCOL_SCHEMA = "driver-protocol.schema.json";

/** JSON-RPC error codes used on the wire (see conformance/PROTOCOL.md). */
export const RpcErrorCode = {
  /** A line that is not JSON. */
  ParseError: -32700,
  /** JSON that is not a JSON-RPC 2.0 message. */
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  /** params do not validate against the method's $defs entry. */
  InvalidParams: -32602,
  /** The implementation threw, or the kit's hook failed. */
  InternalError: -32603,
  /** session/catalog, skill/call or session/close named a sessionId that is not open. */
  UnknownSession: -32001,
  /** A method other than initialize arrived before initialize. */
  NotInitialized: -32002,
} as const;

export type Id = number | string;
export interface RpcRequest {
  jsonrpc: "2.0";
  id: Id;
  method: string;
  params?: Record<string, unknown>;
}
export interface RpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}
export interface RpcSuccess {
  jsonrpc: "2.0";
  id: Id;
  result: unknown;
}
export interface RpcFailure {
  jsonrpc: "2.0";
  id: Id | null;
  error: RpcError;
}
export type RpcMessage = RpcRequest | RpcNotification | RpcSuccess | RpcFailure;

/** Client → server methods and the server → client permission/ask: the $defs of params and result. */
export const METHODS = {
  initialize: ["initializeParams", "initializeResult"],
  "session/create": ["sessionCreateParams", "sessionCreateResult"],
  "session/catalog": ["sessionRef", "sessionCatalogResult"],
  "skill/call": ["skillCallParams", "skillCallResult"],
  "session/close": ["sessionRef", "emptyResult"],
  shutdown: ["emptyResult", "emptyResult"],
  "permission/ask": ["permissionAskParams", "permissionAskResult"],
} as const satisfies Record<string, readonly [string, string]>;

export type Method = keyof typeof METHODS;

export function isMethod(name: string): name is Method {
  return Object.hasOwn(METHODS, name);
}

/** Validate a value against one $defs entry of the protocol schema. */
export function checkDef(def: string, value: unknown): { valid: true } | { valid: false; errors: string } {
  return check(`${PROTOCOL_SCHEMA}#/$defs/${def}`, value);
}

export function checkParams(method: Method, params: unknown) {
  return checkDef(METHODS[method][0], params);
}

export function checkResult(method: Method, result: unknown) {
  return checkDef(METHODS[method][1], result);
}

/** The envelope check (request, notification or response), before any method-specific check. */
export function checkEnvelope(value: unknown) {
  return check(PROTOCOL_SCHEMA, value);
}

export function isRequest(m: RpcMessage): m is RpcRequest {
  return "method" in m && "id" in m;
}
export function isNotification(m: RpcMessage): m is RpcNotification {
  return "method" in m && !("id" in m);
}
export function isResponse(m: RpcMessage): m is RpcSuccess | RpcFailure {
  return !("method" in m);
}

/** One message per line: JSON never contains a raw newline, so a line is a message. */
export function encode(message: RpcMessage): string {
  return JSON.stringify(message) + "\n";
}

/**
 * Splits a byte stream into lines (LF, tolerating CRLF). Feed chunks in; each complete line goes to
 * onLine. A line longer than maxLineBytes goes to onOverflow once and the rest of it is dropped.
 */
export class LineSplitter {
  private buffer = "";
  private overflowed = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes = 64 * 1024 * 1024,
    private readonly onOverflow?: (head: string) => void,
  ) {}

  push(chunk: string): void {
    const nlInChunk = chunk.indexOf("\n");
    if (nlInChunk < 0 && !this.overflowed && this.buffer.length + chunk.length <= this.maxLineBytes) {
      this.buffer += chunk; // no line ends in this chunk: nothing to scan
      return;
    }
    let text = this.buffer + chunk;
    let nl = nlInChunk < 0 ? -1 : this.buffer.length + nlInChunk;
    while (nl >= 0) {
      const line = text.slice(0, nl).replace(/\r$/, "");
      text = text.slice(nl + 1);
      if (this.overflowed) this.overflowed = false;
      else if (line.trim() !== "") this.onLine(line);
      nl = text.indexOf("\n");
    }
    if (text.length > this.maxLineBytes && !this.overflowed) {
      this.overflowed = true;
      this.onOverflow?.(text.slice(0, 200));
      text = "";
    } else if (this.overflowed) {
      text = "";
    }
    this.buffer = text;
  }

  /** What is left without a final newline (at end of stream). */
  rest(): string {
    return this.buffer;
  }
}

/** Keeps the last `limit` characters written to it (a child's stderr). */
export class TailBuffer {
  private text = "";
  constructor(private readonly limit = 2048) {}
  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit * 2);
  }
  tail(): string {
    return this.text.slice(-this.limit);
  }
}

/** A short, one-line excerpt of a value for error messages. */
export function excerpt(value: unknown, max = 200): string {
  const s = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const one = s.replace(/\s+/g, " ");
  return one.length > max ? one.slice(0, max) + "…" : one;
}
