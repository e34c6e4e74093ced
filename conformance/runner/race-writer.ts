// Owns the concurrent writer of a race (race.ts): a worker thread of the kit's process that keeps replacing one path
// of a case's temp dir with a symlink to one target, then to the other, each replacement one rename(2) of a fresh
// symlink over the path, so the path never goes missing and every open of it lands on one target or the other.
// It runs whatever the driver is (in-process or a subprocess in any language): the implementation only sees the
// tree change under it. Stopping it always leaves the path a symlink to its first target and removes its scratch
// dir, whatever state the thread was in; a writer that cannot do its job is a fault of the kit, never a verdict.
import { mkdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { KitError, inside } from "./workspace.ts";

/** Where the writer makes its links before renaming them over the path: in the temp dir, outside any case path. */
export const SCRATCH = ".kit-race";

/** How long a stop waits for the thread to finish its cycle before terminating it (the restore follows anyway). */
const STOP_WAIT_MS = 2000;

/**
 * The thread's code (plain CommonJS, run with eval: no loader, the same under tsx, vitest and a built package).
 * flags[0]: 1 asks it to stop. Between two checks of it the path goes to targets[1] and back to targets[0], so a stop
 * asked between cycles leaves the path as it found it. Both links are made before the first rename, so the path
 * points to targets[1] for one rename only: it flips as often as a symmetric cycle would, while an implementation
 * finds the first target most of the time (a try whose discovery met the second target cannot race its activation).
 * It reports how many swaps it made.
 */
const THREAD = `
const { workerData, parentPort } = require("node:worker_threads");
const { symlinkSync, renameSync } = require("node:fs");
const { path, targets, scratch, control } = workerData;
const flags = new Int32Array(control);
const a = scratch + "/a", b = scratch + "/b";
let swaps = 0;
parentPort.postMessage({ started: true });
while (Atomics.load(flags, 0) === 0) {
  symlinkSync(targets[1], a);
  symlinkSync(targets[0], b);
  renameSync(a, path);
  renameSync(b, path);
  swaps += 2;
}
parentPort.postMessage({ swaps });
`;

export interface Swap {
  /** Relative to the temp dir: a symlink to targets[0] when the writer starts. */
  path: string;
  /** The links' targets, stored verbatim (already templated). */
  targets: readonly [string, string];
}

export interface RunningWriter {
  /** Stop the thread, restore the path to a symlink to targets[0], remove the scratch; how many swaps it made. */
  stop(): Promise<number>;
}

/** Start the writer on `swap` inside `tmp`; resolves once the thread is running its loop. */
export async function startWriter(tmp: string, swap: Swap): Promise<RunningWriter> {
  const path = inside(tmp, swap.path);
  const scratch = join(tmp, SCRATCH);
  try {
    mkdirSync(scratch);
  } catch (e) {
    throw new KitError(`race: cannot make the writer's scratch dir ${scratch}: ${(e as Error).message}`);
  }
  const control = new SharedArrayBuffer(4);
  const flags = new Int32Array(control);
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { path, targets: [...swap.targets], scratch, control },
  });
  let failure: Error | undefined;
  let swaps = 0;
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.on("message", (m: { started?: boolean; swaps?: number }) => {
    if (m.started) started();
    if (typeof m.swaps === "number") swaps = m.swaps;
  });
  worker.on("error", (e) => (failure = e));
  // A thread that fails before it starts ends the wait too.
  void exited.then(() => started());
  const restore = (): void => {
    try {
      const fresh = join(scratch, "restore");
      rmSync(fresh, { force: true });
      symlinkSync(swap.targets[0], fresh);
      renameSync(fresh, path);
      rmSync(scratch, { recursive: true, force: true });
    } catch (e) {
      failure ??= e as Error;
    }
  };
  const stop = async (): Promise<number> => {
    Atomics.store(flags, 0, 1);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), STOP_WAIT_MS)));
    if ((await Promise.race([exited, late])) === "late") await worker.terminate();
    clearTimeout(timer);
    restore();
    if (failure) throw new KitError(`race: the writer swapping ${swap.path} failed: ${failure.message}`);
    return swaps;
  };
  await running;
  if (failure) {
    await stop();
  }
  return { stop };
}
