#!/usr/bin/env node
// `npm run compat`: the compatibility page. Thin: parse flags, run conformance/compat/ (install every
// implementation folder, every suite under every profile, discovery and activation timing), write
// docs/compatibility.md, .json and .html. Minutes, network for npm ci: never part of `npm test`.
// Split over a CI matrix: `--harness <h> --json-out <file>` per job, then `--merge <files…>` builds the page.
//   exit 0  the page was written (whatever the implementations scored)
//   exit 2  usage error
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PACKAGE_ROOT } from "../package-root.ts";
import { DEFAULT_JOBS, DEFAULT_PARALLEL, runCompat } from "../conformance/compat/index.ts";
import type { CompatResult } from "../conformance/compat/types.ts";
import { headlineSection, renderMarkdown } from "../conformance/compat/render-markdown.ts";
import { caseIndex, findingsPage } from "../conformance/compat/findings.ts";
import { renderDocs } from "../conformance/docs/render.ts";
import { PROVIDERS } from "../e2e/providers/index.ts";
import { renderHtml } from "../conformance/compat/render-html.ts";
import { mergeResults } from "../conformance/compat/merge.ts";
import { findTargets } from "../conformance/compat/targets.ts";

const USAGE = `usage: npm run compat -- [options]

  --only <ids>       comma-separated implementation ids (reference, rust, mastra, deepagents, …); default every one found
  --harness <h>      the same, by harness folder (implementations/<h>/: every row of it), or reference / rust
  --json-out <file>  write only this run's JSON there (one job of a CI matrix), not the page
  --merge <files…>   run nothing: build the page from the --json-out files of several jobs
  --allow-mixed-commits  with --merge: keep parts made from different kit commits (each row names its commit)
  --list             run nothing: print the harnesses (reference, rust, each folder) as a JSON array, e.g. for a
                     CI matrix (one job each: docs/compat-workflow.yml)
  --parallel <n>     targets run at once, each its own process (default ${DEFAULT_PARALLEL})
  --jobs <n>         cases at once within each target's run (the conformance CLI's --jobs; default ${DEFAULT_JOBS});
                     cases whose verdict is timed run alone in their run, and their reruns after every run
  --no-install       use each harness folder's node_modules as it is (default: npm ci in each)
  --resume <dir>     the work directory an interrupted run printed: the reports it finished are used, the rest run
  --no-reruns        do not run load-dependent cases once more (each row lists them as not rerun)
  --skills <n>       generated skills for the discovery and activation figures (default 1000; 0: no timing)
  --calls <n>        first activations timed per implementation (default 200)
  --out <dir>        where compatibility.{md,json,html} go (default docs/)
  --render <json>    run nothing: render the .md and .html again from a compatibility.json written earlier
  --help`;

async function main(argv: string[]): Promise<number> {
  let values, positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        only: { type: "string" },
        harness: { type: "string" },
        "json-out": { type: "string" },
        merge: { type: "boolean", default: false },
        list: { type: "boolean", default: false },
        "allow-mixed-commits": { type: "boolean", default: false },
        "no-install": { type: "boolean", default: false },
        resume: { type: "string" },
        "no-reruns": { type: "boolean", default: false },
        skills: { type: "string", default: "1000" },
        calls: { type: "string", default: "200" },
        parallel: { type: "string", default: String(DEFAULT_PARALLEL) },
        jobs: { type: "string", default: String(DEFAULT_JOBS) },
        out: { type: "string", default: join(PACKAGE_ROOT, "docs") },
        render: { type: "string" },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) return (console.log(USAGE), 0);
  const skills = Number(values.skills),
    calls = Number(values.calls),
    parallel = Number(values.parallel),
    jobs = Number(values.jobs);
  if (!Number.isInteger(skills) || skills < 0 || ![calls, parallel, jobs].every((n) => Number.isInteger(n) && n >= 1)) {
    console.error(`--skills wants an integer ≥ 0, and --calls, --parallel and --jobs one ≥ 1\n\n${USAGE}`);
    return 2;
  }
  const out = resolve(values.out);
  if (values.render) {
    await write(out, JSON.parse(readFileSync(resolve(values.render), "utf8")) as CompatResult);
    return 0;
  }
  if (values.list) {
    // Rust even when not built here: its CI job builds it first (docs/compat-workflow.yml).
    const ids = findTargets(PACKAGE_ROOT)
      .filter((t) => !t.missing || t.id === "rust")
      .map((t) => t.folder ?? t.id);
    console.log(JSON.stringify([...new Set(ids)]));
    return 0;
  }
  if (values.merge) {
    if (!positionals.length) return (console.error(`--merge wants the JSON files of the jobs\n\n${USAGE}`), 2);
    await write(
      out,
      mergeResults(
        positionals.map((f) => JSON.parse(readFileSync(resolve(f), "utf8")) as CompatResult),
        { allowMixedCommits: values["allow-mixed-commits"] },
      ),
    );
    return 0;
  }
  if (positionals.length) return (console.error(`unexpected argument ${positionals[0]}\n\n${USAGE}`), 2);
  const only = [values.only, values.harness]
    .filter(Boolean)
    .join(",")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const r = await runCompat({
    root: PACKAGE_ROOT,
    earlierSeconds: earlierSeconds(join(out, "compatibility.json")),
    ...(only.length ? { only } : {}),
    install: !values["no-install"],
    ...(values.resume ? { resume: resolve(values.resume) } : {}),
    ...(values["no-reruns"] ? { reruns: false } : {}),
    skills,
    calls,
    parallel,
    jobs,
    log: (l) => console.error(`compat: ${l}`),
  });
  if (values["json-out"]) {
    const file = resolve(values["json-out"]);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(r, null, 2) + "\n");
    console.log(`wrote ${file} (merge the jobs' files with --merge)`);
  } else await write(out, r);
  console.log(`in ${(r.duration_ms / 1000).toFixed(0)} s`);
  return 0;
}

/** Each row's suite-run seconds in the page an earlier run wrote (none when there is no page, or it has no times). */
function earlierSeconds(file: string): Record<string, number> | undefined {
  try {
    const r = JSON.parse(readFileSync(file, "utf8")) as CompatResult;
    const known = r.implementations.flatMap((i) => (typeof i.seconds?.run === "number" ? [[i.id, i.seconds.run]] : []));
    return known.length ? Object.fromEntries(known) : undefined;
  } catch {
    return undefined;
  }
}

async function write(out: string, r: CompatResult): Promise<void> {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "compatibility.json"), JSON.stringify(r, null, 2) + "\n");
  writeFileSync(join(out, "compatibility.md"), renderMarkdown(r));
  writeFileSync(join(out, "compatibility.html"), renderHtml(r));
  // docs/findings/<harness>.md, one per harness with findings, regenerated (a stale page of a fixed harness goes);
  // the hand-checked <harness>.observed.md pages beside them are their authors' and stay.
  const dir = join(out, "findings");
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith(".md") && !f.endsWith(".observed.md")) rmSync(join(dir, f));
  const cases = caseIndex();
  for (const i of r.implementations) {
    const page = i.id === "reference" || i.id === "rust" ? undefined : findingsPage(r, i, cases);
    if (page) writeFileSync(join(dir, `${i.id}.md`), page);
  }
  console.log(`wrote ${join(out, "compatibility.md")}, .json, .html and findings/`);
  // The README's table and findings list, when this is the repository's own page: written by the one generator of
  // the README's regions (npm run docs, conformance/docs/), from the JSON just written.
  if (resolve(out) === resolve(PACKAGE_ROOT, "docs")) {
    for (const p of await renderDocs(
      PACKAGE_ROOT,
      PROVIDERS.map((x) => x.name),
    ))
      writeFileSync(p.file, p.text);
    console.log("updated README.md's compat-table and findings regions (npm run docs)");
  }
}

process.exitCode = await main(process.argv.slice(2));
