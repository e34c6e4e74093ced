// Owns what a driver's `unobserved` list (decision K40, schemas/observations.json) does to a run: the values
// a harness never produces are left out of its answers, so a check at one of their places is "not
// observable" (neither fails nor passes), and the rules that need them are "not observable here". Pure.
import { observations, type Observation } from "../../schemas/index.ts";

/** The rows of `ids`; throws on an id the table does not have (a typo must not leave a value judged). */
export function observationRows(ids: readonly string[] | undefined): Observation[] {
  if (!ids?.length) return [];
  const table = new Map(observations().map((o) => [o.id, o]));
  const unknown = ids.filter((id) => !table.has(id));
  if (unknown.length)
    throw new Error(
      `unobserved: unknown id(s) ${unknown.join(", ")} (schemas/observations.json lists ${[...table.keys()].join(", ")})`,
    );
  return ids.map((id) => table.get(id)!);
}

/** Rule ids that are not observable for a driver declaring `ids`. */
export function unobservableRules(ids: readonly string[] | undefined): Set<string> {
  return new Set(observationRows(ids).flatMap((o) => o.rules));
}

/**
 * Where a mismatch is, as observations.json names places: `result:<field>` for a call's result (single, batch
 * member, first / rest / each), `entry:<field>` for a catalog entry, `catalog:<field>` for the catalog itself,
 * `check:<key>` for a check key (its first segments). A mismatch can be at several (its path and its key).
 */
export function placesOf(at: string, key: string): string[] {
  const out = [`check:${key}`];
  const keyHead = key.split(".")[0]!;
  if (keyHead !== key) out.push(`check:${keyHead}`);
  const call = /^calls\[\d+\](?:\[\d+\])?(?:\.(?:first|rest|each))?(?:\.result)?\.([A-Za-z_]+)/.exec(at);
  if (call) out.push(`result:${call[1]}`);
  const entry = /^catalog\.entries\[[^\]]*\]\.([A-Za-z_]+)/.exec(at);
  if (entry) out.push(`entry:${entry[1]}`);
  else {
    const cat = /^catalog\.([A-Za-z_]+)/.exec(at);
    if (cat) out.push(`catalog:${cat[1]}`);
  }
  return out;
}

/**
 * The places a check key stands for before anything is answered (a case file's key, no mismatch yet): the key itself
 * (check:<key>, check:<head>), and the result field it reads (`fields.<f>…`, `absent.<f>…` → result:<f>).
 */
export function placesOfKey(key: string): string[] {
  const out = placesOf("", key);
  const field = /^(?:fields|absent)\.([A-Za-z_]+)/.exec(key)?.[1];
  if (field) out.push(`result:${field}`);
  return out;
}

/** Whether a check key of the case file reads a place the driver declares unobserved (placesOfKey). */
export function keyAtUnobservedPlace(ids: readonly string[] | undefined, key: string): boolean {
  const rows = observationRows(ids);
  if (!rows.length) return false;
  const places = new Set(rows.flatMap((o) => o.places));
  return placesOfKey(key).some((p) => places.has(p));
}

/** Whether a mismatch at `at` with check key `key` is at a place the driver declares unobserved. */
export function atUnobservedPlace(ids: readonly string[] | undefined, at: string, key: string): boolean {
  const rows = observationRows(ids);
  if (!rows.length) return false;
  const places = new Set(rows.flatMap((o) => o.places));
  return placesOf(at, key).some((p) => places.has(p));
}
