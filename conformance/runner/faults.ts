// Owns who is to blame when a case cannot finish: an ImplFault is a throw, a hang or a broken driver of the
// implementation (with its stderr tail when it has one) or a fault of the kit; `impl` runs one step of the
// implementation under the case's deadline and turns anything that goes wrong into an ImplFault.
import { DriverError } from "../driver/errors.ts";
import { KitError } from "./workspace.ts";

/** An error thrown by (or on behalf of) the implementation, or a kit fault, with the blame and any stderr tail. */
export class ImplFault extends Error {
  constructor(
    message: string,
    readonly blame: "implementation" | "kit",
    readonly stderr?: string,
    /** A throw in-process: the top frames of its stack, where the implementation threw. */
    readonly trace?: string,
    /**
     * timeout: the step did not answer within the case's deadline (a hang, not a crash: it is judged under the
     * case's own rules, and not scored where the profile scores none of them); crash: anything else the
     * implementation did wrong instead of answering (a throw, a dead driver, a protocol violation: §3.4's
     * errors.structured under every profile).
     */
    readonly kind: "timeout" | "crash" = "crash",
  ) {
    super(message);
  }
}

/** How many frames of an in-process throw's stack a case shows. */
const STACK_FRAMES = 6;

/** The top frames of a throw's stack ("at …" lines, the message line left out); undefined without one. */
export function stackTop(e: unknown, frames = STACK_FRAMES): string | undefined {
  if (!(e instanceof Error) || typeof e.stack !== "string") return undefined;
  const lines = e.stack
    .split("\n")
    .filter((l) => /^\s+at /.test(l))
    .slice(0, frames)
    .map((l) => l.trim());
  return lines.length ? lines.join("\n") : undefined;
}

export function faultOf(e: unknown, what: string): ImplFault {
  if (e instanceof ImplFault) return e;
  // The stdio driver's own request deadline (driver/subprocess.ts: "no response to <method> within <n> ms") is a hang, like ours.
  if (e instanceof DriverError)
    return new ImplFault(
      `${what}: ${e.message}`,
      e.blame,
      e.stderr,
      undefined,
      /^no response to \S+ within \d+ ms/.test(e.message) ? "timeout" : "crash",
    );
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new ImplFault(`${what} threw ${msg}`, "implementation", undefined, stackTop(e));
}

/** Whatever ended a case early, as a fault: the kit's own errors blame the kit. */
export function toFault(e: unknown): ImplFault {
  if (e instanceof KitError) return new ImplFault(e.message, "kit");
  if (e instanceof ImplFault) return e;
  if (e instanceof DriverError) return faultOf(e, "driver");
  return new ImplFault(`kit fault: ${(e as Error)?.stack ?? String(e)}`, "kit");
}

/**
 * Await one step of the implementation under a deadline; a throw or a timeout becomes an ImplFault.
 * A timeout carries `stderr()` (the driver's stderr tail), since a hang is exactly when it says why.
 */
export async function impl<T>(
  what: string,
  ms: number,
  f: () => T | Promise<T>,
  stderr?: () => string | undefined,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(f),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new ImplFault(
                `${what} did not answer within ${ms} ms`,
                "implementation",
                stderr?.() || undefined,
                undefined,
                "timeout",
              ),
            ),
          ms,
        );
      }),
    ]);
  } catch (e) {
    throw faultOf(e, what);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
