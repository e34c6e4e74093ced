// Owns which implementations the compatibility run covers and how each is reached: the reference
// (in-process module), the Rust crate's driver when it is built, and every harness folder under
// implementations/ that has a package.json. A folder names its driver in package.json:
//   "skillConformance": { "driver": "driver.mjs" }        a JS module exporting createSession (default)
//   "skillConformance": { "exec": "node server.mjs" }     a command speaking the stdio protocol, run in the folder
// Its pinned harness versions are its package.json dependencies, shown on the page as the versions it was made from.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface Target {
  id: string;
  /** "reference": the kit's own (--reference; the CLI refuses it under another name, R100); "module": loaded by
   *  --driver (in-process); "exec": a stdio command line. */
  kind: "reference" | "module" | "exec";
  /** Absolute module path, or the command line. */
  spec: string;
  /** How the page names the driver, relative to the repo. */
  display: string;
  /** The folder to `npm ci` in first (harness folders only). */
  installDir?: string;
  pins?: Record<string, string>;
  /** Why it cannot run (e.g. the Rust driver is not built): reported, never silently dropped. */
  missing?: string;
}

interface FolderConfig {
  driver?: string;
  exec?: string;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A harness folder's target: its driver module (default driver.mjs) or its exec command. */
export function folderTarget(root: string, id: string): Target | undefined {
  const dir = join(root, "implementations", id);
  const pkg = readJson(join(dir, "package.json"));
  if (!pkg) return undefined;
  const cfg = (pkg.skillConformance ?? {}) as FolderConfig;
  const pins = { ...((pkg.dependencies ?? {}) as Record<string, string>) };
  const base = { id, installDir: dir, pins };
  if (cfg.exec) return { ...base, kind: "exec", spec: `cd '${dir.replace(/'/g, "'\\''")}' && ${cfg.exec}`, display: `(in implementations/${id}) ${cfg.exec}` };
  const mod = join(dir, cfg.driver ?? "driver.mjs");
  const t: Target = { ...base, kind: "module", spec: mod, display: relative(root, mod) };
  return existsSync(mod) ? t : { ...t, missing: `no driver module ${relative(root, mod)}` };
}

/** Every target, reference first, then Rust, then the harness folders by name; `only` filters by id. */
export function findTargets(root: string, only?: readonly string[]): Target[] {
  const out: Target[] = [{ id: "reference", kind: "reference", spec: join(root, "reference", "index.ts"), display: "--reference (reference/index.ts)" }];
  const rustBin = join(root, "implementations", "rust", "target", "release", "skill-driver");
  out.push({
    id: "rust",
    kind: "exec",
    spec: rustBin,
    display: relative(root, rustBin),
    ...(existsSync(rustBin) ? {} : { missing: "its driver is built by bash implementations/rust/build.sh, not run here" }),
  });
  const implDir = join(root, "implementations");
  const folders = existsSync(implDir) ? readdirSync(implDir).filter((d) => d !== "rust" && statSync(join(implDir, d)).isDirectory()).sort() : [];
  for (const id of folders) {
    const t = folderTarget(root, id);
    if (t) out.push(t);
  }
  return only?.length ? out.filter((t) => only.includes(t.id)) : out;
}
