// Argument substitution (§9, R5): one left-to-right pass, so substituted text is never re-scanned;
// placeholders with nothing to put in them stay literal.
import type { Arguments } from "./params.ts";

const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$\{([^{}\s]+)\}|\$(\d+)/g;

export function substitute(body: string, args: Arguments | undefined, declared: ReadonlySet<string>): string {
  if (args === undefined) return body;
  if (typeof args === "string") {
    const tokens = args.split(/\s+/).filter((t) => t.length > 0);
    return body.replace(PLACEHOLDER, (match, index0?: string, _named?: string, index1?: string) => {
      if (index0 !== undefined) return tokens[Number(index0)] ?? match;
      if (index1 !== undefined) {
        const n = Number(index1);
        return n >= 1 ? (tokens[n - 1] ?? match) : match;
      }
      if (match === "$ARGUMENTS") return args;
      return match;
    });
  }
  const pairs = Object.entries(args).map(([k, v]) => `${k}=${v}`).join(" ");
  return body.replace(PLACEHOLDER, (match, _i0?: string, named?: string) => {
    if (match === "$ARGUMENTS") return pairs;
    if (named !== undefined && declared.has(named) && Object.prototype.hasOwnProperty.call(args, named)) return args[named] as string;
    return match;
  });
}
