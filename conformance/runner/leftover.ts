// Owns the work a case leaves running when it is cut off at its deadline: every promise the implementation
// handed the case is tracked until it settles; after close() the case waits (bounded) for what is still pending,
// since PROTOCOL.md requires close() to answer a session's pending calls promptly; what is still pending then is
// reported; and the case's temp dir is removed only once its work has settled (or when the kit exits), so that
// nothing is deleted under running work and the name is never handed to a later case (mkdtemp never reuses a
// name that exists).
import { rmSync } from "node:fs";

/** Temp dirs whose case left work running: removed when it settles, or when the process exits. */
const deferred = new Set<string>();
let exitHook = false;

function removeAtExit(dir: string): void {
  deferred.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const d of deferred) {
      try {
        rmSync(d, { recursive: true, force: true });
      } catch {
        // best effort: the process is going away
      }
    }
  });
}

/** What was still pending when the case stopped waiting for it. */
export interface Leftover {
  /** Promises of the implementation still unsettled after close() and the grace. */
  pending: number;
  /** How long the case waited after close(). */
  waited_ms: number;
}

export class WorkTracker {
  private readonly pending = new Set<Promise<unknown>>();

  /** Track a value the implementation returned; a promise counts until it settles. Returns it unchanged. */
  track<T>(value: T): T {
    if (value instanceof Promise) {
      const p: Promise<unknown> = value;
      this.pending.add(p);
      const done = () => this.pending.delete(p);
      p.then(done, done);
    }
    return value;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Wait until nothing is pending or `ms` has passed; undefined when everything settled. */
  async drain(ms: number): Promise<Leftover | undefined> {
    if (this.pending.size === 0) return undefined;
    const t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<"expired">((r) => {
      timer = setTimeout(() => r("expired"), ms);
    });
    try {
      while (this.pending.size > 0) {
        if ((await Promise.race([Promise.allSettled([...this.pending]), expired])) === "expired") break;
      }
    } finally {
      clearTimeout(timer);
    }
    return this.pending.size
      ? { pending: this.pending.size, waited_ms: Math.round(performance.now() - t0) }
      : undefined;
  }

  /** Run `cleanup` now when nothing is pending, else once everything settles (and at the latest when the kit exits). */
  cleanupWhenSettled(dir: string, cleanup: () => void): void {
    if (this.pending.size === 0) {
      cleanup();
      return;
    }
    removeAtExit(dir);
    void Promise.allSettled([...this.pending]).then(() => {
      deferred.delete(dir);
      cleanup();
    });
  }
}
