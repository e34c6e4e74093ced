// Report paths checked before a run (issue 20 item 6): a report that cannot be written must be a one-line usage
// error before anything runs, not a crash after a finished run. Shared by both command lines (scripts/conformance.ts
// and e2e/cli.ts). Owns: outputPathsProblem, makeDirs.
import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";

/**
 * mkdir -p, one level at a time: Node 20's mkdirSync(…, {recursive: true}) loops for ever where a parent refuses with
 * ENOENT (under /proc: a report path /proc/x/r.json spun at 90% CPU, issue 28 item 6). Each level's own error is thrown.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let d = dir;
  for (; !existsSync(d); d = dirname(d)) {
    if (dirname(d) === d) break;
    missing.unshift(d);
  }
  // The nearest one there must be a directory (a file there: what mkdir -p says, ENOTDIR).
  if (existsSync(d) && !statSync(d).isDirectory())
    throw Object.assign(new Error(`${d} is not a directory`), { code: "ENOTDIR" });
  for (const m of missing) mkdirSync(m);
}

/**
 * The first problem with the given report files ([flag, file as given, absolute path]), or undefined when each can be written:
 * an empty name, two flags naming one file, a directory, a parent that is a file, no write permission. Creates the
 * missing parent directories (the writers would create them anyway).
 */
export function outputPathsProblem(
  outputs: ReadonlyArray<readonly [flag: string, file: string, path: string]>,
): string | undefined {
  const seen = new Map<string, string>();
  for (const [flag, file, path] of outputs) {
    if (!file.trim()) return `--${flag} is empty: give a file name`;
    if (seen.has(path)) return `--${flag} and --${seen.get(path)} name the same file ${file}`;
    seen.set(path, flag);
    try {
      if (existsSync(path) && statSync(path).isDirectory()) throw new Error("it is a directory");
      makeDirs(dirname(path));
      accessSync(dirname(path), constants.W_OK);
      if (existsSync(path)) accessSync(path, constants.W_OK);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why =
        e.code === "EEXIST" || e.code === "ENOTDIR"
          ? "a parent of it is a file, not a directory"
          : e.code === "ENOENT"
            ? "its directory cannot be created there"
            : (e.code ?? e.message);
      return `--${flag} ${file}: cannot be written (${why})`;
    }
  }
  return undefined;
}
