// Owns the README's table of decision scopes (region decisions-table): for each file of schemas/decisions/, what it
// binds (the file's own description), the ids it holds today as ranges, and the id a new entry takes (the next number
// of the scope's prefix, R counted over every scope since old R ids live in all of them). Derived from the files, so
// the ids a merge appends can never leave the table behind. Pure: the files' contents in, the table out.
import type { DecisionFile } from "../../schemas/types.gen.ts";

const PREFIX: Record<string, string> = { contract: "R", reference: "X", kit: "K", e2e: "E" };

interface Id {
  prefix: string;
  n: number;
}

const parse = (id: string): Id | undefined => {
  const m = /^([A-Z]+)(\d+)$/.exec(id);
  return m ? { prefix: m[1]!, n: Number(m[2]) } : undefined;
};

/** "D1–D11, R1–R9, R12" for a list of ids: runs of consecutive numbers under one prefix, in the order first seen. */
export function idRanges(ids: readonly string[]): string {
  const byPrefix = new Map<string, number[]>();
  for (const id of ids) {
    const p = parse(id);
    if (p) byPrefix.set(p.prefix, [...(byPrefix.get(p.prefix) ?? []), p.n]);
  }
  const out: string[] = [];
  for (const [prefix, ns] of byPrefix) {
    const sorted = [...new Set(ns)].sort((a, b) => a - b);
    for (let i = 0; i < sorted.length;) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
      out.push(i === j ? `${prefix}${sorted[i]}` : `${prefix}${sorted[i]}–${prefix}${sorted[j]}`);
      i = j + 1;
    }
  }
  return out.join(", ");
}

/** The next free id of a scope: its prefix, one above the highest number of that prefix in any scope's file. */
export function nextId(scope: string, files: readonly DecisionFile[]): string {
  const prefix = PREFIX[scope] ?? "R";
  const used = files
    .flatMap((f) => f.decisions.map((d) => parse(d.id)))
    .filter((p): p is Id => p?.prefix === prefix)
    .map((p) => p.n);
  return `${prefix}${Math.max(0, ...used) + 1}`;
}

export function decisionsTable(files: readonly DecisionFile[]): string {
  const rows = files.map((f) => {
    const file = `[\`${f.scope}.json\`](schemas/decisions/${f.scope}.json)`;
    const binds = f.description.replace(/\|/g, "\\|").replace(/\n/g, " ");
    return `| \`${f.scope}\` | ${file} | ${binds} | ${idRanges(f.decisions.map((d) => d.id))} | ${nextId(f.scope, files)} |`;
  });
  return ["| scope | file | what it binds | ids today | a new entry takes |", "|---|---|---|---|---|", ...rows].join(
    "\n",
  );
}
