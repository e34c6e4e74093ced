// Owns what a case shows of a rule when some of its checks were at values the harness does not produce (decision
// K124). Such a check is a mismatch with effect not_observable: it neither fails nor passes. A rule with one in a case
// is only partly observed there: what could be seen held, the rest could not be seen, so the case is no evidence that
// the rule holds. A case whose every rule under judgement is partly observed is skipped, not observable here; a rule
// passes only where some case saw every check of it (runner/verdicts.ts). Pure.
import { activeOwn, type Judge } from "./rules.ts";
import type { Mismatch } from "./types.ts";

/** The rules with a check at a value the harness does not produce, in a case's mismatches (in first-seen order). */
export function partlyObservedRules(mismatches: readonly Mismatch[]): string[] {
  const ids = new Set<string>();
  for (const m of mismatches) if (m.effect === "not_observable") for (const id of m.rules) ids.add(id);
  return [...ids];
}

/** Whether every rule the case is judged on (under `j`) is only partly observed in it. */
export function ownAllPartlyObserved(own: readonly string[], j: Judge, partly: readonly string[]): boolean {
  const active = activeOwn(own, j);
  return active.length > 0 && active.every((id) => partly.includes(id));
}

/** The reason of a case skipped that way (compat/cells.ts counts a skip starting "not observable here" as such). */
export function partlyObservedReason(own: readonly string[], j: Judge, mismatches: readonly Mismatch[]): string {
  const where = activeOwn(own, j).map((id) => {
    const at = mismatches.find((m) => m.effect === "not_observable" && m.rules.includes(id))!.at;
    return `${id} at ${at}`;
  });
  return `not observable here: every rule the case tests has a check at a value the harness does not produce (${where.join("; ")}); what could be seen is in its mismatches`;
}
