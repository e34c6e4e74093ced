// Owns what a run tests: the targets named on the command line and how each is reached. A target is always named
// (`--driver <module>`, `--exec "<command>"`, or `--reference` for the kit's own reference) and always the one tested:
//   - a path (./x, ../x, /abs/x) is resolved against the user's directory only; missing, it is a TargetError
//     (one line, exit 2), never looked up in the kit's own folder (which used to test the reference: a false green);
//   - a bare name is a file in the user's directory if one is there, else a package installed where the user is;
//   - `--reference` loads the reference from the kit's own installation, wherever it is installed;
//   - an implementation that answers as the kit's reference is refused unless the run said `--reference`.
// The first open of a target is made before the run (primed), so the header can name what is under test and a
// refused target costs nothing; that open is then the run's first, and its real time is kept for the report.
// One path for both command lines (skill-conformance and skill-e2e, decision K51): openTargets() opens and checks
// every target, and a target that cannot be opened (a module that does not load, a driver that exits, closes stdout,
// stays silent or answers initialize wrongly) is a TargetError, exit 2, with the driver's stderr tail: nothing ran.
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { codePath } from "../package-root.ts";
import type { Implementation } from "../schemas/implementation.ts";
import { DriverError } from "./driver/errors.ts";
import { loadModule } from "./driver/in-process.ts";
import { spawnImplementation } from "./driver/subprocess.ts";

export type Target = { kind: "module"; spec: string } | { kind: "exec"; command: string } | { kind: "reference" };

/** The name the kit's reference gives itself in implementationInfo / initialize (reference/index.ts). */
export const REFERENCE_NAME = "skill-tool-reference";

/** A target the command line names wrongly: reported as one line, exit 2, before anything runs. */
export class TargetError extends Error {}

export interface Opener {
  open: () => Promise<Implementation>;
  /** How reports name the way the implementation was reached. */
  label: string;
}

const isPathLike = (spec: string) => isAbsolute(spec) || /^\.\.?([/\\]|$)/.test(spec);

/** The file a `--driver` names, resolved only where the user is (see the header). */
export function resolveModule(spec: string, cwd: string): string {
  if (!spec.trim())
    throw new TargetError("--driver is empty: name the module to test (e.g. --driver ./dist/my-impl.js)");
  const asFile = resolve(cwd, spec);
  if (isPathLike(spec)) {
    if (!existsSync(asFile)) throw new TargetError(`--driver ${spec}: no such file ${asFile} (build it first?)`);
    return asFile;
  }
  if (existsSync(asFile)) return asFile;
  try {
    return createRequire(join(cwd, "noop.js")).resolve(spec);
  } catch {
    throw new TargetError(
      `--driver ${spec}: no file ${asFile} and no package "${spec}" installed where the command runs`,
    );
  }
}

/**
 * The plainly wrong `--exec` command lines, caught before the run: empty (an unset $DRIVER in CI), or a program given
 * as a path that does not exist or cannot be executed. Anything the shell would expand is left to the shell.
 */
export function checkExecCommand(command: string, cwd: string): void {
  const words = command.trim().split(/\s+/).filter(Boolean);
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift(); // VAR=value assignments
  const program = words[0];
  if (program === undefined)
    throw new TargetError(
      `--exec "${command}" names no command: give the driver's command line (e.g. --exec ./target/release/my-skill-driver)`,
    );
  if (!program.includes("/") || /[`$'"\\|;&<>(){}*?~[\]]/.test(program)) return;
  const file = resolve(cwd, program);
  if (!existsSync(file)) throw new TargetError(`--exec ${program}: no such file ${file} (build it first?)`);
  const st = statSync(file);
  if (st.isDirectory()) throw new TargetError(`--exec ${program}: ${file} is a directory, not a driver`);
  if (process.platform !== "win32" && (st.mode & 0o111) === 0)
    throw new TargetError(`--exec ${program}: ${file} is not executable (chmod +x?)`);
}

/** How to open a target. Resolving (and the checks above) happens here, before anything runs. */
export function opener(t: Target, opts: { cwd: string; timeoutMs?: number | undefined }): Opener {
  if (t.kind === "reference") {
    const file = codePath("reference/index");
    return { open: () => loadModule(file), label: "the kit's reference (--reference, in-process)" };
  }
  if (t.kind === "module") {
    const file = resolveModule(t.spec, opts.cwd);
    return { open: () => loadModule(file), label: t.spec };
  }
  checkExecCommand(t.command, opts.cwd);
  return {
    open: () =>
      spawnImplementation(t.command, {
        label: t.command,
        cwd: opts.cwd,
        ...(opts.timeoutMs !== undefined ? { requestTimeoutMs: opts.timeoutMs } : {}),
      }),
    label: t.command,
  };
}

/** The first open's outcome and the real time it took (spawn and handshake, or the module's import). */
export type FirstOpen = ({ ok: true; impl: Implementation } | { ok: false; error: unknown }) & { ms: number };

/**
 * Opens once now; the run's first open() gets that same result (the implementation, or the same failure, so a dead
 * driver is not started twice), later ones open afresh.
 */
export function primed(o: Opener): Opener & { first: Promise<FirstOpen> } {
  const t0 = performance.now();
  let pending: Promise<Implementation> | undefined = o.open();
  const ms = () => Math.round(performance.now() - t0);
  const first = pending.then(
    (impl): FirstOpen => ({ ok: true, impl, ms: ms() }),
    (error: unknown): FirstOpen => ({ ok: false, error, ms: ms() }),
  );
  return {
    ...o,
    first,
    open: () => {
      const p = pending;
      pending = undefined;
      return p ?? o.open();
    },
  };
}

/** Whether an implementation answers as the kit's own reference. */
export function isKitReference(info: Implementation["info"] | undefined): boolean {
  return info?.implementation.name === REFERENCE_NAME;
}

/** `name version (language)` of an implementation, for headers. */
export function describe(info: Implementation["info"]): string {
  const i = info.implementation;
  return `${i.name} ${i.version} (${i.language})`;
}

/** A target opened and checked: what reports call it, and how long its first open (the handshake) took. */
export interface OpenedTarget extends Opener {
  described: string;
  info: Implementation["info"];
  /** The real time of the first open: spawn and initialize, or the module's import. */
  openMs: number;
}

export interface OpenTargetsOptions {
  cwd: string;
  timeoutMs?: number | undefined;
  /** The command line said --reference: an implementation answering as the kit's reference is allowed. */
  reference: boolean;
}

/** Why a first open failed, in one line plus the driver's stderr tail (when it does not already say it). */
export function openFailure(label: string, kind: Target["kind"], error: unknown, ms: number): string {
  const msg = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  if (kind !== "exec") return `cannot load --driver ${label}: ${msg}`;
  const tail = error instanceof DriverError && error.stderr ? error.stderr.trim() : "";
  const lines = tail ? tail.split("\n").slice(-12) : [];
  const shown =
    lines.length && !msg.includes(lines[lines.length - 1]!)
      ? `; its stderr ends:\n${lines.map((l) => `  | ${l}`).join("\n")}`
      : tail
        ? ""
        : " (it wrote nothing to stderr)";
  return `cannot start --exec ${label}: ${msg} (after ${ms} ms; nothing was run)${shown}`;
}

/**
 * Opens each target once (primed), every one resolved before any is started, and checks it: one that cannot be
 * opened, or that answers as the kit's reference when the command line did not say --reference, is a TargetError
 * (every opened one disposed first). The same for skill-conformance and skill-e2e.
 */
export async function openTargets(targets: readonly Target[], opts: OpenTargetsOptions): Promise<OpenedTarget[]> {
  const opened = targets.map((t) => primed(opener(t, opts)));
  const refuse = async (message: string): Promise<never> => {
    await Promise.all(
      opened.map((x) => x.first.then((f) => (f.ok ? f.impl.dispose() : undefined)).catch(() => undefined)),
    );
    throw new TargetError(message);
  };
  const out: OpenedTarget[] = [];
  for (const [i, o] of opened.entries()) {
    const first = await o.first;
    const t = targets[i]!;
    if (!first.ok) return refuse(openFailure(o.label, t.kind, first.error, first.ms));
    // --reference targets are the reference by name; any other target answering as it needs the word too.
    if (t.kind !== "reference" && isKitReference(first.impl.info) && !opts.reference) {
      return refuse(
        `${o.label} answers as the kit's own reference (${describe(first.impl.info)}), not an implementation of yours; to test the reference, say --reference`,
      );
    }
    out.push({
      ...o,
      described: `${describe(first.impl.info)} via ${o.label}`,
      info: first.impl.info,
      openMs: first.ms,
    });
  }
  return out;
}
