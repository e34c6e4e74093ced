// Synthetic skill trees for the discovery, activation and memory benchmarks: N skill directories in a
// fresh temp dir, each a realistic SKILL.md (10 frontmatter fields incl. allowed-tools and a metadata
// mapping, a ~2 KB markdown body) and, for some, scripts/, references/ and assets/ files. Deterministic
// (seeded), so two runs measure the same bytes. 10,000 skills take 1–3 s on a 2-core VM.
//   await generateSkills(10_000) → { root, names, dir, dispose() }
//   await sharedSkillTree(n)      one tree per n per process, shared by all entries, removed at exit
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mulberry32, pick } from "../conformance/fuzz/seeded-random.ts";

export interface SkillTree {
  /** The temp dir holding everything (removed by dispose). */
  dir: string;
  /** The skill root to configure: one subdirectory per skill. Real path (no symlinks). */
  root: string;
  /** Skill names (= directory names), sorted by code point as the catalog sorts them. */
  names: string[];
  /** Total bytes of all SKILL.md files written. */
  skillMdBytes: number;
  /** Number of resource files (scripts/, references/, assets/) written. */
  resourceFiles: number;
  dispose(): void;
  /** The same, through the thread pool (faster for 10,000 dirs than the exit-time rmSync). */
  disposeAsync(): Promise<void>;
}

export interface GenerateOptions {
  seed?: number;
  /** Target size of the markdown body, in bytes (default 2048). */
  bodyBytes?: number;
}

const WORDS = [
  "api",
  "audit",
  "build",
  "cache",
  "changelog",
  "ci",
  "code",
  "commit",
  "config",
  "csv",
  "data",
  "deploy",
  "design",
  "docs",
  "docker",
  "email",
  "eval",
  "excel",
  "fix",
  "format",
  "git",
  "graph",
  "http",
  "i18n",
  "image",
  "infra",
  "json",
  "k8s",
  "lint",
  "log",
  "markdown",
  "metrics",
  "migrate",
  "mock",
  "notes",
  "pdf",
  "perf",
  "plan",
  "pptx",
  "profile",
  "python",
  "query",
  "release",
  "report",
  "review",
  "rust",
  "schema",
  "security",
  "slides",
  "sql",
  "style",
  "test",
  "trace",
  "triage",
  "types",
  "ui",
  "upgrade",
  "video",
  "web",
  "xlsx",
  "yaml",
];
const TOOLS = [
  "Read",
  "Grep",
  "Glob",
  "Edit",
  "Write",
  "WebFetch",
  "Bash(git log:*)",
  "Bash(git diff:*)",
  "Bash(npm test:*)",
  "Bash(python3 scripts/*.py:*)",
  "Bash(jq:*)",
];
const LICENSES = ["MIT", "Apache-2.0", "BSD-3-Clause", "Proprietary. LICENSE.txt has complete terms"];
const TEAMS = ["platform", "data-eng", "devex", "security", "docs", "ml-infra", "frontend", "sre"];
const SENTENCES = [
  "Read the relevant files before changing anything, and keep a list of what you touched.",
  "Prefer small, reviewable steps; run the project's checks after each one and stop at the first failure.",
  "When the request is ambiguous, state the assumption you make in one sentence and carry on.",
  "Never print secrets, tokens or the contents of .env files, even when a tool returns them.",
  "Use the helper scripts in scripts/ instead of re-implementing their logic inline.",
  "Consult references/ for the house conventions; they win over general best practice.",
  "Summarise the result for the user in at most five bullet points, with file paths in backticks.",
  "If a command fails twice with the same error, report it with the exact output instead of retrying.",
  "Keep generated output deterministic: sort keys, fix seeds, and avoid timestamps in artefacts.",
  "Check the input size first; for anything above a few megabytes, work on a sample and say so.",
];

function skillName(i: number, r: () => number): string {
  // kebab-case, unique by the zero-padded index, ≤ 64 chars.
  return `${pick(r, WORDS)}-${pick(r, WORDS)}-${String(i).padStart(5, "0")}`;
}

function body(name: string, r: () => number, target: number, hasScripts: boolean, hasRefs: boolean): string {
  const title = name
    .split("-")
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
  const parts: string[] = [`# ${title}\n`, `Use this skill to ${pick(r, SENTENCES).toLowerCase()}\n`, "## Steps\n"];
  let step = 1;
  while (parts.join("\n").length < target * 0.55) parts.push(`${step++}. ${pick(r, SENTENCES)}`);
  parts.push("", "## Arguments\n", "The user's request follows: $ARGUMENTS\n");
  if (hasScripts)
    parts.push(
      "## Scripts\n",
      "```bash\npython3 scripts/run.py --input \"$1\" --format json | jq '.items[] | {id, status}'\n```\n",
    );
  if (hasRefs)
    parts.push(
      "## References\n",
      "- `references/conventions.md`: naming, layout and review rules.\n- `references/faq.md`: known pitfalls.\n",
    );
  parts.push("## Notes\n");
  while (parts.join("\n").length < target) parts.push(`- ${pick(r, SENTENCES)}`);
  return parts.join("\n") + "\n";
}

function skillMd(
  name: string,
  i: number,
  r: () => number,
  bodyBytes: number,
  hasScripts: boolean,
  hasRefs: boolean,
): string {
  const tools = [...new Set(Array.from({ length: 2 + Math.floor(r() * 4) }, () => pick(r, TOOLS)))];
  const toolsYaml =
    i % 2 === 0 ? `allowed-tools: ${tools.join(", ")}` : `allowed-tools:\n${tools.map((t) => `  - "${t}"`).join("\n")}`;
  const named = i % 10 === 3; // a tenth declare (optional) named arguments instead of an argument-hint
  const hint = named
    ? "arguments:\n  target:\n    type: string\n    required: false\n    description: file or directory to work on"
    : `argument-hint: "[path] [--${pick(r, WORDS)}]"`;
  const fm = [
    "---",
    `name: ${name}`,
    `description: >-\n  ${pick(r, SENTENCES)} Use when the user asks about ${name.split("-").slice(0, 2).join(" or ")}\n  work in this repository, or mentions ${pick(r, WORDS)} and ${pick(r, WORDS)} files.`,
    `license: ${pick(r, LICENSES)}`,
    `version: "${1 + Math.floor(r() * 3)}.${Math.floor(r() * 10)}.${Math.floor(r() * 20)}"`,
    `compatibility: Requires git and python3 >= 3.10; network access is optional.`,
    hint,
    toolsYaml,
    `user-invocable: true`,
    `disable-model-invocation: false`,
    "metadata:",
    `  owner: ${pick(r, TEAMS)}-team`,
    `  short-description: ${pick(r, WORDS)} helper`,
    `  tags: [${pick(r, WORDS)}, ${pick(r, WORDS)}, ${pick(r, WORDS)}]`,
    `  updated: "2026-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 10)}"`,
    "---",
    "",
  ].join("\n");
  return fm + body(name, r, bodyBytes, hasScripts, hasRefs);
}

/**
 * Where trees go: $SKILL_BENCH_TMPDIR, else /dev/shm when it is a writable directory (Linux tmpfs:
 * creating 10,000 dirs on this VM's ext4 /tmp takes 4–9 s against ~1 s, and reads are served from the
 * page cache either way once warm), else os.tmpdir().
 */
export function benchTmpdir(): string {
  const env = process.env["SKILL_BENCH_TMPDIR"];
  if (env) return env;
  try {
    if (statSync("/dev/shm").isDirectory()) {
      accessSync("/dev/shm", constants.W_OK);
      return "/dev/shm";
    }
  } catch {
    // not Linux, or not writable
  }
  return tmpdir();
}

type Planned = { path: string; text: string; mode?: number } | { mkdir: string };

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/**
 * Write n synthetic skills under a fresh temp dir (see benchTmpdir). The contents are
 * planned first (seeded, so deterministic), then written 32 skills at a time through the thread pool.
 */
export async function generateSkills(n: number, opts: GenerateOptions = {}): Promise<SkillTree> {
  const r = mulberry32(opts.seed ?? 0x5ca1ab1e); // seeded: the same seed gives the same tree
  const bodyBytes = opts.bodyBytes ?? 2048;
  const dir = realpathSync(mkdtempSync(join(benchTmpdir(), `skill-bench-${n}-`)));
  const root = join(dir, "skills");
  mkdirSync(root);
  const names: string[] = [];
  const plans: Planned[][] = [];
  let skillMdBytes = 0;
  let resourceFiles = 0;
  for (let i = 0; i < n; i++) {
    const name = skillName(i, r);
    names.push(name);
    const sd = join(root, name);
    const plan: Planned[] = [{ mkdir: sd }];
    // About a third have scripts/, a third references/, one in twenty assets/.
    const hasScripts = r() < 0.33;
    const hasRefs = r() < 0.33;
    const hasAssets = r() < 0.05;
    const text = skillMd(name, i, r, bodyBytes, hasScripts, hasRefs);
    plan.push({ path: join(sd, "SKILL.md"), text });
    skillMdBytes += Buffer.byteLength(text);
    if (hasScripts) {
      plan.push({ mkdir: join(sd, "scripts") });
      plan.push({
        path: join(sd, "scripts", "run.py"),
        text: "#!/usr/bin/env python3\nimport json, sys\nprint(json.dumps({'items': [], 'args': sys.argv[1:]}))\n",
        mode: 0o755,
      });
      resourceFiles += 1;
      if (r() < 0.5) {
        plan.push({
          path: join(sd, "scripts", "check.sh"),
          text: "#!/bin/sh\nset -eu\nexec git status --short\n",
          mode: 0o755,
        });
        resourceFiles += 1;
      }
    }
    if (hasRefs) {
      plan.push({ mkdir: join(sd, "references") });
      plan.push({
        path: join(sd, "references", "conventions.md"),
        text: `# Conventions for ${name}\n\n${SENTENCES.join("\n")}\n`,
      });
      plan.push({ path: join(sd, "references", "faq.md"), text: `# FAQ\n\n- ${pick(r, SENTENCES)}\n` });
      resourceFiles += 2;
    }
    if (hasAssets) {
      plan.push({ mkdir: join(sd, "assets") });
      plan.push({ path: join(sd, "assets", "template.json"), text: JSON.stringify({ name, version: 1 }) + "\n" });
      resourceFiles += 1;
    }
    plans.push(plan);
  }
  // Each skill's steps in order (mkdir before its files); skills in parallel.
  await mapLimit(plans, 32, async (plan) => {
    for (const step of plan) {
      if ("mkdir" in step) await mkdir(step.mkdir);
      else await writeFile(step.path, step.text, step.mode !== undefined ? { mode: step.mode } : {});
    }
  });
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let disposed = false;
  return {
    dir,
    root,
    names,
    skillMdBytes,
    resourceFiles,
    dispose() {
      if (disposed) return;
      disposed = true;
      rmSync(dir, { recursive: true, force: true });
    },
    async disposeAsync() {
      if (disposed) return;
      disposed = true;
      await rm(dir, { recursive: true, force: true, maxRetries: 2 });
    },
  };
}

const shared = new Map<number, Promise<SkillTree>>();
const made: SkillTree[] = [];
let exitHook = false;

/**
 * One tree of n skills per process, shared by every benchmark that asks for the same n (generating
 * 10,000 skills once, not per entry). Removed at process exit, or earlier by disposeSharedTrees[Async]().
 */
export function sharedSkillTree(n: number): Promise<SkillTree> {
  let t = shared.get(n);
  if (!t) {
    if (!exitHook) {
      exitHook = true;
      process.once("exit", disposeSharedTrees);
    }
    t = generateSkills(n).then((tree) => (made.push(tree), tree));
    shared.set(n, t);
  }
  return t;
}

export function disposeSharedTrees(): void {
  for (const t of made.splice(0)) t.dispose();
  shared.clear();
}

/** Remove the shared trees now (call at the end of a run; the exit hook then has nothing left to do). */
export async function disposeSharedTreesAsync(): Promise<void> {
  await Promise.all([...shared.values()]);
  shared.clear();
  await Promise.all(made.splice(0).map((t) => t.disposeAsync()));
}
