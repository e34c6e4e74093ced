// Owns which implementations the compatibility run covers and how each is reached: the reference
// (in-process module), the Rust crate's driver when it is built, and every harness folder under
// implementations/ that has a package.json. This is the registry of harnesses: a new harness is one folder,
// implementations/<id>/, whose package.json pins the harness and names its driver:
//   "skillConformance": { "driver": "driver.mjs" }        a JS module exporting createSession (default)
//   "skillConformance": { "exec": "node server.mjs" }     a command speaking the stdio protocol, run in the folder
//   "args": ["--timeout", "60000"]                        extra options for the kit's CLI (a slow harness; its own
//                                                         "--jobs", "4" for one that mostly waits: compat's --jobs then
//                                                         leaves it alone)
//   "runTimeoutMs": 3600000                               the whole run's cap (default 60 min)
//   "rows": [{ "id": "mastra-localskillsource", "driver": "driver-local-source.mjs", "note": "…" }]
//                                                         more rows from the same install (another configuration)
// Its pinned harness versions are its package.json dependencies, shown on the page as the versions it was made from.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface Target {
  id: string;
  /** "reference": the kit's own (--reference; the CLI refuses it under another name, R100); "module": a JS driver
   *  module (a compatibility run serves it over stdio: stdioCommand); "exec": a stdio command line. */
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
  /** The harness folder it comes from (`--harness <folder>` runs every row of it). */
  folder?: string;
  /** Extra options for the kit's CLI, from the folder's package.json (e.g. a longer --timeout). */
  args?: string[];
  /** What this row's configuration is, when a folder has more than one. */
  note?: string;
  /** The cap on its whole run (default run-suites.ts's RUN_CAP_MS, 60 min). */
  runTimeoutMs?: number;
}

interface RowConfig {
  runTimeoutMs?: number;
  id?: string;
  driver?: string;
  exec?: string;
  args?: string[];
  note?: string;
}

interface FolderConfig extends RowConfig {
  rows?: RowConfig[];
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** One row of a harness folder: its driver module (default driver.mjs) or its exec command. */
function rowTarget(root: string, folder: string, cfg: RowConfig, pins: Record<string, string>): Target {
  const dir = join(root, "implementations", folder);
  const id = cfg.id ?? folder;
  const base = {
    id,
    folder,
    installDir: dir,
    pins,
    ...(cfg.args?.length ? { args: [...cfg.args] } : {}),
    ...(cfg.note ? { note: cfg.note } : {}),
    ...(cfg.runTimeoutMs ? { runTimeoutMs: cfg.runTimeoutMs } : {}),
  };
  if (cfg.exec)
    return {
      ...base,
      kind: "exec",
      spec: `cd ${shellQuote(dir)} && ${cfg.exec}`,
      display: `(in implementations/${folder}) ${cfg.exec}`,
    };
  const mod = join(dir, cfg.driver ?? "driver.mjs");
  const t: Target = { ...base, kind: "module", spec: mod, display: relative(root, mod) };
  return existsSync(mod) ? t : { ...t, missing: `no driver module ${relative(root, mod)}` };
}

/** A harness folder's targets: its own row, then the extra rows its package.json lists (same install). */
export function folderTargets(root: string, folder: string): Target[] {
  const pkg = readJson(join(root, "implementations", folder, "package.json"));
  if (!pkg) return [];
  const cfg = (pkg.skillConformance ?? {}) as FolderConfig;
  const pins = { ...((pkg.dependencies ?? {}) as Record<string, string>) };
  const { rows = [], ...own } = cfg;
  return [
    rowTarget(root, folder, { ...own, id: folder }, pins),
    ...rows.map((r) => rowTarget(root, folder, { args: own.args, runTimeoutMs: own.runTimeoutMs, ...r }, pins)),
  ];
}

/** A harness folder's own row (the first of folderTargets). */
export function folderTarget(root: string, id: string): Target | undefined {
  return folderTargets(root, id)[0];
}

/** Every target, reference first, then Rust, then the harness folders by name; `only` filters by id. */
export function findTargets(root: string, only?: readonly string[]): Target[] {
  const out: Target[] = [
    {
      id: "reference",
      kind: "reference",
      spec: join(root, "reference", "index.ts"),
      display: "--reference (reference/index.ts)",
    },
  ];
  const rustBin = join(root, "implementations", "rust", "target", "release", "skill-driver");
  out.push({
    id: "rust",
    kind: "exec",
    spec: rustBin,
    display: relative(root, rustBin),
    ...(existsSync(rustBin)
      ? {}
      : { missing: "its driver is built by bash implementations/rust/build.sh, not run here" }),
  });
  const implDir = join(root, "implementations");
  const folders = existsSync(implDir)
    ? readdirSync(implDir)
        .filter((d) => d !== "rust" && statSync(join(implDir, d)).isDirectory())
        .sort()
    : [];
  for (const folder of folders) out.push(...folderTargets(root, folder));
  // `only` names rows or whole harness folders (every row of it).
  return only?.length
    ? out.filter((t) => only.includes(t.id) || (t.folder !== undefined && only.includes(t.folder)))
    : out;
}

/** `s` as one word of a POSIX shell command line. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

/** The command line serving a target over stdio: an exec target as it is; a module (and the reference) through
 *  scripts/reference-driver.ts. */
export function stdioCommand(root: string, t: Target): string {
  if (t.kind === "exec") return t.spec;
  // With no module, reference-driver serves the kit's reference: the one way it answers as the reference.
  return `${shellQuote(process.execPath)} --import tsx ${shellQuote(join(root, "scripts", "reference-driver.ts"))}${t.kind === "module" ? ` ${shellQuote(t.spec)}` : ""}`;
}

/**
 * The target as a compatibility run drives it: a module over stdio (stdioCommand), every other as it is. A harness
 * left running at a case's deadline is then killed with its process and the next case gets a fresh one; in-process
 * it could not be stopped, and every case after it was lost (S24's FIFO held gemini-cli, mastra and deepagents so).
 */
export function servedOverStdio(root: string, t: Target): Target {
  return t.kind === "module" ? { ...t, kind: "exec", spec: stdioCommand(root, t) } : t;
}
