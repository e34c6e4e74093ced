// Argument substitution (§9, R5): one left-to-right pass, so substituted text is never re-scanned;
// placeholders with nothing to put in them stay literal. Values stay data (R146): each substituted value has its
// unsafe characters escaped (R147's set, as R91 writes them) and its '<' written as &lt;, so an argument can neither
// start a line nor open or close the wrapper. Bounded (R145, X4): the pieces are measured as they are chosen and
// the result is refused over substituted_body_max_bytes before it is ever built.
import { LIMITS } from "../schemas/index.ts";
import { escapeUnsafe } from "../schemas/messages.ts";
import type { Arguments } from "./params.ts";

const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$\{([^{}\s]+)\}|\$(\d+)/g;
const LT = /</g;

/** R146: a value as it enters the body. */
export function argumentText(value: string): string {
  const escaped = escapeUnsafe(value);
  return escaped.includes("<") ? escaped.replace(LT, "&lt;") : escaped;
}

export type Substituted = { ok: true; body: string } | { ok: false; limit: number };

/** The value a placeholder takes, or undefined when it stays literal. `pick` sees the raw match and its groups. */
type Pick = (
  match: string,
  index0: string | undefined,
  named: string | undefined,
  index1: string | undefined,
) => string | undefined;

function pickerFor(args: Arguments, declared: ReadonlySet<string>): Pick {
  if (typeof args === "string") {
    const tokens = args.split(/\s+/).filter((t) => t.length > 0);
    return (match, index0, _named, index1) => {
      if (index0 !== undefined) return tokens[Number(index0)];
      if (index1 !== undefined) {
        const n = Number(index1);
        return n >= 1 ? tokens[n - 1] : undefined;
      }
      return match === "$ARGUMENTS" ? args : undefined;
    };
  }
  // The map form of $ARGUMENTS: key=value pairs; keys are declared names (R4 refuses others), values are escaped.
  const pairs = Object.entries(args)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  return (match, _i0, named) => {
    if (match === "$ARGUMENTS") return pairs;
    if (named !== undefined && declared.has(named) && Object.prototype.hasOwnProperty.call(args, named))
      return args[named];
    return undefined;
  };
}

export function substitute(body: string, args: Arguments | undefined, declared: ReadonlySet<string>): Substituted {
  if (args === undefined) return { ok: true, body };
  const pick = pickerFor(args, declared);
  const limit = LIMITS.substituted_body_max_bytes;
  // Each distinct value is escaped and measured once, however often it is placed.
  const made = new Map<string, { text: string; bytes: number }>();
  const parts: string[] = [];
  let bytes = 0;
  let last = 0;
  for (const m of body.matchAll(PLACEHOLDER)) {
    const raw = pick(m[0], m[1], m[2], m[3]);
    if (raw === undefined) continue; // stays literal: part of the next literal run
    let v = made.get(raw);
    if (v === undefined) {
      const text = argumentText(raw);
      v = { text, bytes: Buffer.byteLength(text, "utf8") };
      made.set(raw, v);
    }
    const lit = body.slice(last, m.index);
    bytes += Buffer.byteLength(lit, "utf8") + v.bytes;
    if (bytes > limit) return { ok: false, limit };
    parts.push(lit, v.text);
    last = m.index + m[0].length;
  }
  const rest = body.slice(last);
  if (bytes + Buffer.byteLength(rest, "utf8") > limit) return { ok: false, limit };
  parts.push(rest);
  return { ok: true, body: parts.join("") };
}
