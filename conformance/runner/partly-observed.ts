// Owns what a case shows of a rule when some of its checks were at values the harness does not produce (decision
// K124). Such a check neither fails nor passes: a mismatch at such a place has effect not_observable, and a check
// that passes there passes vacuously (a warning excluded from a list the harness never fills). A rule with such a
// check in a case is only partly observed there: what could be seen held, the rest could not be seen, so the case is
// no evidence that the rule holds. A case whose every rule under judgement is partly observed, or checked only at
// calls the harness cannot be given (K120), is skipped, not observable here; a rule passes only where some case saw
// every check of it (runner/verdicts.ts). Used by the runner (case.ts) and by re-judging (compat/rescore.ts). Pure.
import { activeOwn, checkKeys, expectationsOf, resolveRules, type Judge } from "./rules.ts";
import type { Mismatch } from "./types.ts";
import { keyAtUnobservedPlace } from "./unobserved.ts";
import { unobservedCaseReason, type UnobservedCall } from "./unobserved-call.ts";

/** Each rule with a not_observable mismatch, and the place of its first. */
export function unseenAt(mismatches: readonly Mismatch[]): Map<string, string> {
  const where = new Map<string, string>();
  for (const m of mismatches)
    if (m.effect === "not_observable") for (const id of m.rules) if (!where.has(id)) where.set(id, m.at);
  return where;
}

/**
 * Each rule that has a check at a value the harness does not produce (its driver's `unobserved`), with where: from
 * the case file (a check key whose place is unobserved, whether it then passed or not) and from the run's mismatches
 * (effect not_observable). Rule id → the first such place.
 */
export function partlyObserved(
  c: { catalog?: unknown; calls: ReadonlyArray<{ expect: unknown }> },
  unobserved: readonly string[] | undefined,
  mismatches: readonly Mismatch[],
): Map<string, string> {
  const where = unseenAt(mismatches);
  if (!unobserved?.length) return where;
  for (const { at, exp } of expectationsOf(c))
    for (const k of checkKeys(exp))
      if (keyAtUnobservedPlace(unobserved, k))
        for (const id of resolveRules(exp.rules, k)) if (!where.has(id)) where.set(id, `${at}: ${k}`);
  return where;
}

/** Whether no rule the case is judged on (under `j`) was seen whole: each is partly observed or K120-unobserved. */
export function noneSeenWhole(
  own: readonly string[],
  j: Judge,
  unobservedRules: readonly string[],
  partly: readonly string[],
): boolean {
  const active = activeOwn(own, j);
  return active.length > 0 && active.every((id) => unobservedRules.includes(id) || partly.includes(id));
}

/** The reason of a case skipped that way (compat/cells.ts counts a skip starting "not observable here" as such). */
export function noneSeenWholeReason(
  own: readonly string[],
  j: Judge,
  calls: readonly UnobservedCall[],
  unobservedRules: readonly string[],
  partly: ReadonlyMap<string, string>,
): string {
  const active = activeOwn(own, j);
  if (active.every((id) => unobservedRules.includes(id))) return unobservedCaseReason(calls);
  const each = active.map((id) =>
    unobservedRules.includes(id) ? `${id} only at calls the harness cannot be given` : `${id} at ${partly.get(id)}`,
  );
  return `not observable here: every rule the case tests has a check at a value the harness does not produce (${each.join("; ")}); what could be seen is in its mismatches`;
}
