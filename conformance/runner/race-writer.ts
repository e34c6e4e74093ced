// Owns the concurrent writer of a race (race.ts): threads of the kit's process that keep replacing one path of a
// case's temp dir with a symlink to one target, then to the other, each replacement one rename(2) of a fresh symlink
// over the path, so the path never goes missing and every open of it lands on one target or the other. It runs
// whatever the driver is (in-process or a subprocess in any language): the implementation only sees the tree change
// under it. Stopping it always leaves the path a symlink to its first target and removes its scratch dir, whatever
// state the threads were in; a writer that cannot do its job is a fault of the kit, never a verdict.
import { mkdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { KitError, inside } from "./workspace.ts";

/** Where the writer makes its links before renaming them over the path: in the temp dir, outside any case path. */
export const SCRATCH = ".kit-race";

/**
 * How many threads swap the path. More than one: on a loaded machine each thread runs in the bursts the scheduler
 * gives it, and a try made while no writer runs races nothing; two threads get two shares of the CPU.
 */
const THREADS = 1;

/** How long a stop waits for a thread to finish its cycle before terminating it (the restore follows anyway). */
const STOP_WAIT_MS = 2000;

/**
 * A thread's code (plain CommonJS, run with eval: no loader, the same under tsx, vitest and a built package).
 * flags[0]: 1 asks it to stop; flags[1 + id]: the swaps it made. Between two checks of flags[0] the path goes to
 * targets[1] and back to targets[0]. Both links are made before the first rename, so the path points to targets[1]
 * for one rename only: it flips as often as a symmetric cycle would, while an implementation finds the first target
 * most of the time (a try whose discovery met the second target cannot race its activation).
 */
const THREAD = `
const { workerData, parentPort } = require("node:worker_threads");
const { symlinkSync, renameSync } = require("node:fs");
const { id, path, targets, scratch, control } = workerData;
const flags = new Int32Array(control);
const a = scratch + "/a" + id, b = scratch + "/b" + id;
let swaps = 0;
parentPort.postMessage("started");
while (Atomics.load(flags, 0) === 0) {
  symlinkSync(targets[1], a);
  symlinkSync(targets[0], b);
  renameSync(a, path);
  renameSync(b, path);
  swaps = (swaps + 2) | 0;
  Atomics.store(flags, 1 + id, swaps);
}
`;

export interface Swap {
  /** Relative to the temp dir: a symlink to targets[0] when the writer starts. */
  path: string;
  /** The links' targets, stored verbatim (already templated). */
  targets: readonly [string, string];
}

export interface RunningWriter {
  /** Stop the threads, restore the path to a symlink to targets[0], remove the scratch; how many swaps they made. */
  stop(): Promise<number>;
}

interface Thread {
  /** Resolves once the thread runs its loop (or has exited). */
  started: Promise<void>;
  exited: Promise<void>;
  worker: Worker;
}

function spawnThread(id: number, data: object, fail: (e: Error) => void): Thread {
  const worker = new Worker(THREAD, { eval: true, workerData: { ...data, id } });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const started = Promise.race([new Promise<void>((resolve) => worker.once("message", () => resolve())), exited]);
  worker.on("error", fail);
  return { started, exited, worker };
}

/** Start the writer on `swap` inside `tmp`; resolves once every thread is running its loop. */
export async function startWriter(tmp: string, swap: Swap): Promise<RunningWriter> {
  const path = inside(tmp, swap.path);
  const scratch = join(tmp, SCRATCH);
  try {
    mkdirSync(scratch);
  } catch (e) {
    throw new KitError(`race: cannot make the writer's scratch dir ${scratch}: ${(e as Error).message}`);
  }
  const control = new SharedArrayBuffer(4 * (1 + THREADS));
  const flags = new Int32Array(control);
  let failure: Error | undefined;
  const data = { path, targets: [...swap.targets], scratch, control };
  const threads = Array.from({ length: THREADS }, (_, id) => spawnThread(id, data, (e) => (failure ??= e)));
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
    await Promise.all(
      threads.map(async (t) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), STOP_WAIT_MS)));
        if ((await Promise.race([t.exited, late])) === "late") await t.worker.terminate();
        clearTimeout(timer);
      }),
    );
    restore();
    if (failure) throw new KitError(`race: the writer swapping ${swap.path} failed: ${failure.message}`);
    return flags.slice(1).reduce((n, s) => n + s, 0);
  };
  await Promise.all(threads.map((t) => t.started));
  if (failure) await stop();
  return { stop };
}
