// Owns building the one compatibility page's data from several partial runs (`npm run compat -- --harness <h>
// --json-out <file>`, one CI job per harness): their implementations in the page's order (reference, rust,
// then the harness rows by folder), each once, and the rules any of them fails. Refuses parts made by
// different kits or profiles, which would put incomparable cells side by side. Pure.
import type { CompatResult, ImplementationResult } from "./types.ts";

const rank = (i: ImplementationResult): [number, string] => [
  i.id === "reference" ? 0 : i.id === "rust" ? 1 : 2,
  `${i.folder ?? i.id}\u0000${i.id === i.folder ? "" : i.id}`,
];

/** `allowMixedCommits`: parts from different kit commits are kept (a rerun of one harness later), each row then
 *  naming the commit it was made from; otherwise they are refused. */
export function mergeResults(parts: readonly CompatResult[], opts: { allowMixedCommits?: boolean } = {}): CompatResult {
  if (!parts.length) throw new Error("merge: no partial results given");
  const [first] = parts as [CompatResult, ...CompatResult[]];
  const mixed = parts.some((p) => p.kit.version !== first.kit.version || p.kit.commit !== first.kit.commit);
  for (const p of parts) {
    if (mixed && !opts.allowMixedCommits)
      throw new Error(
        `merge: parts from different kits (${first.kit.commit ?? first.kit.version} and ${p.kit.commit ?? p.kit.version})`,
      );
    if (p.profiles.join() !== first.profiles.join())
      throw new Error(
        `merge: parts judged under different profiles (${first.profiles.join()} and ${p.profiles.join()})`,
      );
  }
  const byId = new Map<string, ImplementationResult>();
  for (const p of parts)
    for (const i of p.implementations)
      // A row that a page merged earlier already names its own commit keeps it (a page merged again).
      if (!byId.has(i.id))
        byId.set(i.id, mixed && p.kit.commit && !i.kit_commit ? { ...i, kit_commit: p.kit.commit } : i);
  const implementations = [...byId.values()].sort((a, b) => {
    const [ra, ka] = rank(a),
      [rb, kb] = rank(b);
    return ra - rb || (ka < kb ? -1 : ka > kb ? 1 : 0);
  });
  const rules = Object.assign({}, ...parts.map((p) => p.rules ?? {}));
  return {
    ...first,
    generated_at: parts
      .map((p) => p.generated_at)
      .sort()
      .at(-1)!,
    implementations,
    ...(Object.keys(rules).length ? { rules } : {}),
    // The jobs' own run times added up: what the page cost on one machine, whatever ran in parallel.
    duration_ms: parts.reduce((n, p) => n + p.duration_ms, 0),
    ...(parts.length > 1 ? { merged: parts.reduce((n, p) => n + (p.merged ?? 1), 0) } : {}),
  };
}
