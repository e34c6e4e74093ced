// Owns the prototype-pollution guard: a snapshot of the own properties of the built-in prototypes the
// kit's process shares with an in-process implementation, taken before a case, compared after it; every
// change (a key added, removed or redefined) is reported and undone so the next case starts clean.
// Over a subprocess driver the implementation runs in another process, so only the kit side is covered.

type Snapshot = Array<{
  label: string;
  target: object;
  extensible: boolean;
  props: Map<string | symbol, PropertyDescriptor>;
}>;

const GUARDED: ReadonlyArray<readonly [string, object]> = [
  ["Object.prototype", Object.prototype],
  ["Array.prototype", Array.prototype],
  ["Function.prototype", Function.prototype],
  ["String.prototype", String.prototype],
  ["Number.prototype", Number.prototype],
  ["Boolean.prototype", Boolean.prototype],
  ["Symbol.prototype", Symbol.prototype],
  ["RegExp.prototype", RegExp.prototype],
  ["Promise.prototype", Promise.prototype],
  ["Map.prototype", Map.prototype],
  ["Set.prototype", Set.prototype],
  ["Error.prototype", Error.prototype],
  ["Date.prototype", Date.prototype],
  ["Object", Object],
  ["JSON", JSON],
];

export function snapshotPrototypes(): Snapshot {
  return GUARDED.map(([label, target]) => ({
    label,
    target,
    extensible: Object.isExtensible(target),
    props: new Map(Reflect.ownKeys(target).map((k) => [k, Object.getOwnPropertyDescriptor(target, k)!])),
  }));
}

const keyName = (k: string | symbol): string => (typeof k === "symbol" ? `[${k.description ?? "symbol"}]` : k);

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    Object.is(a.value, b.value) &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable
  );
}

/** The changes since the snapshot ("Object.prototype.polluted added"), each undone where the property allows it. */
export function restorePrototypes(snapshot: Snapshot): string[] {
  const changes: string[] = [];
  for (const { label, target, extensible, props } of snapshot) {
    if (extensible && !Object.isExtensible(target)) changes.push(`${label} made non-extensible (cannot be undone)`);
    const now = new Set(Reflect.ownKeys(target));
    for (const k of now) {
      const before = props.get(k);
      const desc = Object.getOwnPropertyDescriptor(target, k)!;
      if (!before) {
        const undone = Reflect.deleteProperty(target, k);
        changes.push(`${label}.${keyName(k)} added${undone ? "" : " (cannot be undone)"}`);
      } else if (!sameDescriptor(before, desc)) {
        let undone = false;
        try {
          Object.defineProperty(target, k, before);
          undone = true;
        } catch {
          // non-configurable now: reported as not undone
        }
        changes.push(`${label}.${keyName(k)} changed${undone ? "" : " (cannot be undone)"}`);
      }
    }
    for (const [k, before] of props) {
      if (now.has(k)) continue;
      let undone = false;
      try {
        Object.defineProperty(target, k, before);
        undone = true;
      } catch {
        // target no longer extensible
      }
      changes.push(`${label}.${keyName(k)} removed${undone ? "" : " (cannot be undone)"}`);
    }
  }
  return changes;
}
