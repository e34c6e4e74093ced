// Synthetic skill trees for the discovery, activation and memory benchmarks: N skill directories in a
// fresh temp dir, each a realistic SKILL.md (10 frontmatter fields incl. allowed-tools and a metadata
// mapping, a ~2 KB markdown body) and, for some, scripts/, references/ and assets/ files. Deterministic
// (seeded), so two runs measure the same bytes. Written synchronously: ~10,000 skills take about a second.
//   generateSkills(10_000) → { root, names, dir }     sharedSkillTree(n) memoises one tree per n per process
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
}

export interface GenerateOptions {
  seed?: number;
  /** Target size of the markdown body, in bytes (default 2048). */
  bodyBytes?: number;
}

const WORDS = [
  "api", "audit", "build", "cache", "changelog", "ci", "code", "commit", "config", "csv", "data", "deploy", "design",
  "docs", "docker", "email", "eval", "excel", "fix", "format", "git", "graph", "http", "i18n", "image", "infra", "json",
  "k8s", "lint", "log", "markdown", "metrics", "migrate", "mock", "notes", "pdf", "perf", "plan", "pptx", "profile",
  "python", "query", "release", "report", "review", "rust", "schema", "security", "slides", "sql", "style", "test",
  "trace", "triage", "types", "ui", "upgrade", "video", "web", "xlsx", "yaml",
];
const TOOLS = ["Read", "Grep", "Glob", "Edit", "Write", "WebFetch", "Bash(git log:*)", "Bash(git diff:*)", "Bash(npm test:*)", "Bash(python3 scripts/*.py:*)", "Bash(jq:*)"];
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

/** A small seeded PRNG (mulberry32): the same seed gives the same tree. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

function skillName(i: number, r: () => number): string {
  // kebab-case, unique by the zero-padded index, ≤ 64 chars.
  return `${pick(r, WORDS)}-${pick(r, WORDS)}-${String(i).padStart(5, "0")}`;
}

function body(name: string, r: () => number, target: number, hasScripts: boolean, hasRefs: boolean): string {
  const title = name.split("-").slice(0, 2).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ");
  const parts: string[] = [`# ${title}\n`, `Use this skill to ${pick(r, SENTENCES).toLowerCase()}\n`, "## Steps\n"];
  let step = 1;
  while (parts.join("\n").length < target * 0.55) parts.push(`${step++}. ${pick(r, SENTENCES)}`);
  parts.push("", "## Arguments\n", "The user's request follows: $ARGUMENTS\n");
  if (hasScripts) parts.push("## Scripts\n", "```bash\npython3 scripts/run.py --input \"$1\" --format json | jq '.items[] | {id, status}'\n```\n");
  if (hasRefs) parts.push("## References\n", "- `references/conventions.md`: naming, layout and review rules.\n- `references/faq.md`: known pitfalls.\n");
  parts.push("## Notes\n");
  while (parts.join("\n").length < target) parts.push(`- ${pick(r, SENTENCES)}`);
  return parts.join("\n") + "\n";
}

function skillMd(name: string, i: number, r: () => number, bodyBytes: number, hasScripts: boolean, hasRefs: boolean): string {
  const tools = [...new Set(Array.from({ length: 2 + Math.floor(r() * 4) }, () => pick(r, TOOLS)))];
  const toolsYaml = i % 2 === 0 ? `allowed-tools: ${tools.join(", ")}` : `allowed-tools:\n${tools.map((t) => `  - "${t}"`).join("\n")}`;
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

/** Write n synthetic skills under a fresh temp dir. */
export function generateSkills(n: number, opts: GenerateOptions = {}): SkillTree {
  const r = rng(opts.seed ?? 0x5ca1ab1e);
  const bodyBytes = opts.bodyBytes ?? 2048;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `skill-bench-${n}-`)));
  const root = join(dir, "skills");
  mkdirSync(root);
  const names: string[] = [];
  let skillMdBytes = 0;
  let resourceFiles = 0;
  for (let i = 0; i < n; i++) {
    const name = skillName(i, r);
    names.push(name);
    const sd = join(root, name);
    mkdirSync(sd);
    // About a third have scripts/, a third references/, one in twenty assets/.
    const hasScripts = r() < 0.33;
    const hasRefs = r() < 0.33;
    const hasAssets = r() < 0.05;
    const text = skillMd(name, i, r, bodyBytes, hasScripts, hasRefs);
    writeFileSync(join(sd, "SKILL.md"), text);
    skillMdBytes += Buffer.byteLength(text);
    if (hasScripts) {
      mkdirSync(join(sd, "scripts"));
      writeFileSync(join(sd, "scripts", "run.py"), "#!/usr/bin/env python3\nimport json, sys\nprint(json.dumps({'items': [], 'args': sys.argv[1:]}))\n", { mode: 0o755 });
      resourceFiles += 1;
      if (r() < 0.5) {
        writeFileSync(join(sd, "scripts", "check.sh"), "#!/bin/sh\nset -eu\nexec git status --short\n", { mode: 0o755 });
        resourceFiles += 1;
      }
    }
    if (hasRefs) {
      mkdirSync(join(sd, "references"));
      writeFileSync(join(sd, "references", "conventions.md"), `# Conventions for ${name}\n\n${SENTENCES.join("\n")}\n`);
      writeFileSync(join(sd, "references", "faq.md"), `# FAQ\n\n- ${pick(r, SENTENCES)}\n`);
      resourceFiles += 2;
    }
    if (hasAssets) {
      mkdirSync(join(sd, "assets"));
      writeFileSync(join(sd, "assets", "template.json"), JSON.stringify({ name, version: 1 }) + "\n");
      resourceFiles += 1;
    }
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let disposed = false;
  return {
    dir, root, names, skillMdBytes, resourceFiles,
    dispose() {
      if (disposed) return;
      disposed = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const shared = new Map<number, SkillTree>();
let exitHook = false;

/**
 * One tree of n skills per process, shared by every benchmark that asks for the same n (generating
 * 10,000 skills once, not per entry). Removed at process exit, or earlier by disposeSharedTrees().
 */
export function sharedSkillTree(n: number): SkillTree {
  let t = shared.get(n);
  if (!t) {
    t = generateSkills(n);
    shared.set(n, t);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", disposeSharedTrees);
    }
  }
  return t;
}

export function disposeSharedTrees(): void {
  for (const t of shared.values()) t.dispose();
  shared.clear();
}
