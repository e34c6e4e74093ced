// Issue 22 item 4, R95: how many real descriptions lose the sentence saying when to use the skill when the
// catalog cuts them to fit the budget (R22), with the plain cut (before R95) and with the trigger kept (after).
// Reads every SKILL.md of the repositories in bench/trigger-corpus.json at their recorded commits from git
// mirrors (<mirror>/<owner>+<name>/repo, default /work/.mirror), parses it with the reference, shows the
// description as the catalog does, and counts. `--write-fixture` refreshes fixtures/catalog/trigger-cut.json,
// the descriptions that lost their trigger phrase before R95 (reference/test/catalog.test.ts keeps them kept).
//   npx tsx bench/triggers.ts [--mirror DIR] [--json] [--write-fixture]
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { LIMITS } from "../schemas/index.ts";
import { message } from "../schemas/messages.ts";
import { TRIGGER, catalogLine, escapeCatalogText, shownDescription, triggerSentence } from "../reference/catalog.ts";
import { parseSkillMd } from "../reference/frontmatter.ts";
import { PACKAGE_ROOT as REPO_ROOT } from "../package-root.ts";

interface Corpus {
  repos: { repo: string; commit: string }[];
}
export interface TriggerCount {
  skills: number;
  cut: number;
  cutWithTrigger: number;
  /** The trigger phrase itself falls after the cut: the model never sees when to use the skill. */
  phraseLostBefore: number;
  phraseLostAfter: number;
  /** The trigger sentence is not shown whole. */
  sentenceCutBefore: number;
  sentenceCutAfter: number;
  overBudgetAfter: number;
}

/** The plain R22 cut, as before R95: the longest prefix of whole units within the byte bound, then "…". */
function plainCut(escaped: string): string {
  const max = LIMITS.catalog_entry_description_max_bytes;
  if (Buffer.byteLength(escaped, "utf8") <= max) return escaped;
  const unit = /&(?:amp|lt|gt|quot|#39);|\\u[0-9a-f]{4}|[\ud800-\udbff][\udc00-\udfff]|[^]/y;
  let bytes = 0;
  let end = 0;
  for (let m = unit.exec(escaped); m !== null; m = unit.exec(escaped)) {
    const b = Buffer.byteLength(m[0], "utf8");
    if (bytes + b > max) break;
    bytes += b;
    end = unit.lastIndex;
  }
  return message("format.catalog_cut", { head: escaped.slice(0, end) });
}

export interface Described {
  repo: string;
  commit: string;
  path: string;
  name: string;
  description: string;
}

/** Every SKILL.md's name and description the reference accepts (a name that differs from its dir is read under its own name). */
function readCorpus(mirror: string, corpus: Corpus): { skills: Described[]; refused: number } {
  const skills: Described[] = [];
  let refused = 0;
  for (const { repo, commit } of corpus.repos) {
    const git = join(mirror, repo.replace("/", "+"), "repo");
    const paths = execFileSync("git", ["-C", git, "ls-tree", "-r", "--name-only", commit], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    })
      .split("\n")
      .filter((p) => p === "SKILL.md" || p.endsWith("/SKILL.md"));
    for (const path of paths) {
      const text = execFileSync("git", ["-C", git, "show", `${commit}:${path}`], {
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
      const dir = basename(dirname(path));
      let r = parseSkillMd(text, dir);
      if (!r.ok && r.code === "NAME_MISMATCH") {
        const named = /^name:\s*["']?([a-z0-9-]+)/m.exec(text);
        if (named) r = parseSkillMd(text, named[1]!);
      }
      if (!r.ok) {
        refused++;
        continue;
      }
      skills.push({ repo, commit, path, name: r.frontmatter.name, description: r.frontmatter.description });
    }
  }
  return { skills, refused };
}

export function countTriggers(skills: readonly Described[]): { count: TriggerCount; lost: Described[] } {
  const c: TriggerCount = {
    skills: skills.length,
    cut: 0,
    cutWithTrigger: 0,
    phraseLostBefore: 0,
    phraseLostAfter: 0,
    sentenceCutBefore: 0,
    sentenceCutAfter: 0,
    overBudgetAfter: 0,
  };
  const lost: Described[] = [];
  for (const s of skills) {
    const escaped = escapeCatalogText(s.description);
    const before = plainCut(escaped);
    const after = shownDescription(escaped);
    const line =
      Buffer.byteLength(catalogLine({ name: s.name, description: s.description, frontmatter: {} } as never), "utf8") +
      1;
    if (Math.ceil(line / LIMITS.bytes_per_token_estimate) > LIMITS.catalog_tokens_per_skill_budget) c.overBudgetAfter++;
    if (before === escaped) continue;
    c.cut++;
    const t = triggerSentence(escaped);
    const m = TRIGGER.exec(escaped);
    if (!t || !m) continue;
    c.cutWithTrigger++;
    const phrase = m[0];
    const sentence = escaped.slice(t.start, t.end);
    // The phrase is shown when the shown text holds it at the match's place (before) or anywhere (after: it moved).
    const phraseBefore = m.index + phrase.length <= before.length - 1;
    if (!phraseBefore) {
      c.phraseLostBefore++;
      lost.push(s);
    }
    if (!TRIGGER.test(after)) c.phraseLostAfter++;
    if (!before.includes(sentence)) c.sentenceCutBefore++;
    if (!after.includes(sentence)) c.sentenceCutAfter++;
  }
  return { count: c, lost };
}

function main(): void {
  const args = process.argv.slice(2);
  const mirrorAt = args.indexOf("--mirror");
  const mirror = mirrorAt >= 0 ? args[mirrorAt + 1]! : "/work/.mirror";
  const corpus = JSON.parse(readFileSync(join(REPO_ROOT, "bench", "trigger-corpus.json"), "utf8")) as Corpus;
  const { skills, refused } = readCorpus(mirror, corpus);
  const { count, lost } = countTriggers(skills);
  if (args.includes("--write-fixture")) {
    const fixture = {
      about:
        "Descriptions from bench/trigger-corpus.json's repositories whose trigger phrase fell after the plain R22 cut (bench/triggers.ts --write-fixture); each with its repository, commit and path.",
      skills: lost,
    };
    writeFileSync(join(REPO_ROOT, "fixtures", "catalog", "trigger-cut.json"), JSON.stringify(fixture, null, 2) + "\n");
  }
  if (args.includes("--json")) {
    console.log(JSON.stringify({ repos: corpus.repos, refused, ...count }, null, 2));
    return;
  }
  console.log(
    `${corpus.repos.length} repositories, ${skills.length + refused} SKILL.md, ${skills.length} accepted (${refused} refused)`,
  );
  console.log(
    `shown cut (description over ${LIMITS.catalog_entry_description_max_bytes} bytes): ${count.cut}, of which with a trigger sentence: ${count.cutWithTrigger}`,
  );
  console.log(`trigger phrase after the cut:     before R95 ${count.phraseLostBefore}, after ${count.phraseLostAfter}`);
  console.log(
    `trigger sentence not shown whole: before R95 ${count.sentenceCutBefore}, after ${count.sentenceCutAfter}`,
  );
  console.log(
    `catalog lines over the ${LIMITS.catalog_tokens_per_skill_budget}-token budget after R95: ${count.overBudgetAfter}`,
  );
}

// Run as a script (npx tsx bench/triggers.ts), not when imported.
if (process.argv[1] !== undefined && basename(process.argv[1]) === "triggers.ts") main();
