// Owns running a compat run's targets side by side: at most `width` at once, each its own child process (the kit's
// command line, run-suites.ts), results kept by index so the page lists targets in their order whatever order they
// finished in. Nothing here is shared between two targets but the machine.

/** `task(item, i)` for every item, at most `width` running at any time; results in the items' order. */
export async function inPool<T, R>(
  items: readonly T[],
  width: number,
  task: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  return out;
}
