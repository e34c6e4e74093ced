// Owns a call the harness cannot be given (decision K120): a harness with no lookup by name (Codex, deepagents) has
// no way to take a name its listing does not show, so its driver answers such a call `{ unobserved, reason }`
// (driver-protocol.schema.json $defs/unobservedCall) instead of inventing a result. Every check of that call is then
// "not observable" (neither fails nor passes its case), the rules checked only at such calls are not counted as
// checked by the case, and a case whose own rules are all of those is skipped as not observable here. Pure.
import { check, observations } from "../../schemas/index.ts";
import { checkKeys, expectationsOf, resolveRules, rulesOfCase } from "./rules.ts";

/** The answer a driver gives for a call it cannot give its harness. */
export interface UnobservedAnswer {
  unobserved: string;
  reason: string;
}

/** A call of a case answered unobserved: which, under which observation id, and why (the driver's words). */
export interface UnobservedCall {
  call: number;
  unobserved: string;
  reason: string;
}

/** The place an observation row names when the harness cannot be given a whole call (observations.json). */
export const CALL_PLACE = "call:*";

/** An unobserved answer: an object with `unobserved` and no `kind` (a result always has a kind). */
export function isUnobservedAnswer(v: unknown): v is UnobservedAnswer {
  return v !== null && typeof v === "object" && !Array.isArray(v) && "unobserved" in v && !("kind" in v);
}

/**
 * Why an unobserved answer is not one the kit accepts (undefined when it is): it must fit the protocol's shape, and
 * name an id the driver declared (initialize's `unobserved`) whose row may stand for a whole call (`call:*`).
 */
export function unobservedAnswerProblem(
  v: UnobservedAnswer,
  declared: readonly string[] | undefined,
): string | undefined {
  const shape = check("driver-protocol.schema.json#/$defs/unobservedCall", v);
  if (!shape.valid) return `an unobserved answer that does not fit $defs/unobservedCall: ${shape.errors}`;
  if (!declared?.includes(v.unobserved))
    return `answered unobserved "${v.unobserved}", which the driver does not declare (its unobserved: ${declared?.join(", ") || "none"})`;
  const row = observations().find((o) => o.id === v.unobserved);
  if (!row?.places.includes(CALL_PLACE))
    return `answered unobserved "${v.unobserved}", which cannot stand for a whole call (schemas/observations.json: only rows with place ${CALL_PLACE})`;
  return undefined;
}

type CaseLike = Parameters<typeof rulesOfCase>[0];

/** The rules one call's expectation checks (a batch's first / rest / each included). */
export function rulesOfExpect(exp: unknown): string[] {
  const ids = new Set<string>();
  for (const { exp: e } of expectationsOf({ calls: [{ expect: exp }] }))
    for (const k of checkKeys(e)) for (const id of resolveRules(e.rules, k)) ids.add(id);
  return [...ids];
}

/**
 * The rules a case checked, and those it checks only at its unobserved calls (never checked there: the harness was
 * not given the call). With no unobserved call, every rule of the case is checked.
 */
export function splitChecked(
  c: CaseLike,
  unobserved: ReadonlySet<number>,
): { checked: string[]; unobserved: string[] } {
  const all = rulesOfCase(c);
  if (!unobserved.size) return { checked: all, unobserved: [] };
  const seen = new Set(rulesOfCase({ ...c, calls: c.calls.filter((_, i) => !unobserved.has(i)) }));
  return { checked: all.filter((id) => seen.has(id)), unobserved: all.filter((id) => !seen.has(id)) };
}

/** The reason of a case skipped that way (compat/cells.ts counts a skip starting "not observable here" as such). */
export function unobservedCaseReason(calls: readonly UnobservedCall[]): string {
  return `not observable here: every rule the case tests is checked only at calls the harness cannot be given (${calls
    .map((u) => `calls[${u.call}]: ${u.unobserved}, ${u.reason}`)
    .join("; ")})`;
}
