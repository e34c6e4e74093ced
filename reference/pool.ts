// A bounded-concurrency worker pool: map items through an async function, at most `limit` in flight,
// results in input order. Discovery reads skill dirs through it (LIMITS.discovery_concurrency); the
// discovery benchmark's I/O floor uses the same pool so the two are compared like with like.
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  });
  await Promise.all(workers);
  return out;
}
