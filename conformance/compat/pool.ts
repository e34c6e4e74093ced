// Owns running a compat run's targets side by side: at most `width` at once, each its own child process (the kit's
// command line, run-suites.ts), results kept by index so the page lists targets in their order whatever order they
// finished in; the order they start in is longest first when an earlier run's times are known. Nothing here is
// shared between two targets but the machine.

/**
 * The order to start items in: those an earlier run took longest on first, so the longest does not start last and
 * leave one slot running alone at the end; items with no earlier time first of all (they may be the longest), in
 * their own order. `seconds(i)`: item i's earlier time, undefined when not known.
 */
export function longestFirst(n: number, seconds: (i: number) => number | undefined): number[] {
  const known = (i: number) => seconds(i) !== undefined;
  const idx = Array.from({ length: n }, (_, i) => i);
  return [...idx.filter((i) => !known(i)), ...idx.filter(known).sort((a, b) => seconds(b)! - seconds(a)!)];
}

/**
 * `task(item, i)` for every item, at most `width` running at any time, started in `order` (default: the items');
 * results in the items' order.
 */
export async function inPool<T, R>(
  items: readonly T[],
  width: number,
  task: (item: T, i: number) => Promise<R>,
  order: readonly number[] = items.map((_, i) => i),
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < order.length) {
      const i = order[next++]!;
      out[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  return out;
}
