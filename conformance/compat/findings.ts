// Owns the findings ready to send upstream (docs/findings/<harness>.md) and the README's list of them, both
// generated from a compatibility run's results (compatibility.json), never written by hand: one finding per spec
// rule a harness fails, with a minimal reproduction (a shell script making the case's tree, the session config
// and the tool input the model sent, and the exact kit command driving the harness), the rule, the spec
// section, the harness version and what was observed. The tree comes from the kit's own case and fixture files.
import { existsSync, readFileSync, readdirSync, lstatSync, readlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { SetupStep } from "../../schemas/index.ts";
import { loadCases, type LoadedCase } from "../runner/load.ts";
import { fixtureDir } from "../runner/workspace.ts";
import { shellQuote } from "./targets.ts";
import type { CompatResult, Finding, ImplementationResult } from "./types.ts";

/** Shell single-quoting: the text exactly, whatever it holds. */
const q = shellQuote;
/** Shell double-quoting with the case's placeholders live: `${tmp}` is the script's $T, `${i}` a loop's $i. */
export const dq = (s: string): string =>
  `"${s
    .split("${tmp}")
    .map((part) =>
      part
        .split("${i}")
        .map((x) => x.replace(/[\\"`$]/g, (ch) => `\\${ch}`))
        .join("$i"),
    )
    .join("$T")}"`;
const at = (rel: string): string => dq(`\${tmp}/${rel}`);

/** Shell lines recreating a fixture tree under "$T" (files byte for byte, directories, symlinks as stored). */
export function treeLines(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const rel = relative(dir, full);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out.push(`ln -s ${q(readlinkSync(full))} ${at(rel)}`);
      else if (st.isDirectory()) {
        out.push(`mkdir -p ${at(rel)}`);
        walk(full);
      } else out.push(`printf %s ${q(readFileSync(full).toString("base64"))} | base64 -d > ${at(rel)}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/**
 * A loop of setup steps as one node program (thousands of links or dirs would be thousands of processes in sh):
 * `${tmp}` is its first argument, `${i}` the index, each step done as runner/workspace.ts does it.
 */
function loopScript(count: number, steps: readonly SetupStep[]): string {
  return [
    `const fs=require("fs"),path=require("path"),T=process.argv[1],steps=${JSON.stringify(steps)};`,
    `const sub=(s,i)=>String(s).split("\${tmp}").join(T).split("\${i}").join(String(i)),at=(p,i)=>path.join(T,sub(p,i));`,
    `for(let i=0;i<${count};i++)for(const s of steps){`,
    `if(s.op==="mkdir")fs.mkdirSync(at(s.path,i),{recursive:true});`,
    `else if(s.op==="link")fs.linkSync(at(s.target,i),at(s.path,i));`,
    `else if(s.op==="symlink"){fs.mkdirSync(path.dirname(at(s.path,i)),{recursive:true});fs.symlinkSync(sub(s.target,i),at(s.path,i));}`,
    `else if(s.op==="write"){fs.mkdirSync(path.dirname(at(s.path,i)),{recursive:true});fs.writeFileSync(at(s.path,i),s.utf8!==undefined?sub(s.utf8,i):Buffer.from(s.base64??"","base64"));}`,
    `else if(s.op==="chmod")fs.chmodSync(at(s.path,i),parseInt(s.mode,8));`,
    `else if(s.op==="remove")fs.rmSync(at(s.path,i),{recursive:true,force:true});}`,
  ].join("");
}

/** Shell lines for the case's setup steps (what runner/workspace.ts applies after copying the fixture). */
export function setupLines(steps: readonly SetupStep[]): string[] {
  return steps.flatMap((s): string[] => {
    const step = s as Record<string, unknown> & { op: string };
    const rel = String(step.path ?? "");
    const p = at(rel);
    const mk = dirname(rel) === "." ? [] : [`mkdir -p ${at(dirname(rel))}`];
    switch (step.op) {
      case "loop":
        return [`node -e ${q(loopScript(Number(step.count), step.steps as SetupStep[]))} "$T"`];
      case "symlink":
        return [...mk, `ln -s ${dq(String(step.target))} ${p}`];
      case "link":
        return [`ln ${at(String(step.target))} ${p}`];
      case "mkdir":
        return [`mkdir -p ${p}`];
      case "chmod":
        return [`chmod ${String(step.mode)} ${p}`];
      case "remove":
        return [`rm -rf ${p}`];
      case "mkfifo":
        return [...mk, `mkfifo ${p}`];
      case "rename": {
        // To a name that is raw bytes (maybe not UTF-8): printf's octal escapes write them exactly.
        const bytes = Buffer.from(String(step.name_hex), "hex");
        const name = [...bytes].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
        return [`mv ${p} "$(dirname ${p})/$(printf '${name}')"`];
      }
      case "write": {
        // Text with the case's placeholders is written with them live; other text as exact bytes.
        if (typeof step.utf8 === "string" && /\$\{(tmp|i)\}/.test(step.utf8))
          return [...mk, `printf %s ${dq(step.utf8)} > ${p}`];
        if (typeof step.utf8 === "string")
          return [...mk, `printf %s ${q(Buffer.from(step.utf8, "utf8").toString("base64"))} | base64 -d > ${p}`];
        if (typeof step.base64 === "string") return [...mk, `printf %s ${q(step.base64)} | base64 -d > ${p}`];
        const gen = `const c=${JSON.stringify(step.repeat)};process.stdout.write(${JSON.stringify(step.head ?? "")});for(const x of [].concat(c))process.stdout.write(String(x.text).repeat(x.times));process.stdout.write(${JSON.stringify(step.tail ?? "")})`;
        return [...mk, `node -e ${q(gen)} > ${p}`];
      }
      default:
        return [`# setup step ${JSON.stringify(step)} (see the case file)`];
    }
  });
}

/** The kit command that drives this implementation through the one case (its driver as the page names it). */
export function kitCommand(i: ImplementationResult, caseId: string): string {
  const exec = /^\(in (implementations\/[^)]+)\) (.*)$/.exec(i.driver);
  const target =
    i.id === "reference" ? "--reference" : exec ? `--exec ${q(`cd ${exec[1]} && ${exec[2]}`)}` : `--driver ${i.driver}`;
  return `npm run conformance -- ${target} --suite all --filter ${caseId} --profile spec`;
}

const json = (v: unknown): string => JSON.stringify(v, null, 2) ?? "undefined";
const clip = (s: string, n = 1200): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** One finding's section: the rule, its spec section, the harness version, what was observed, and the repro. */
function findingSection(i: ImplementationResult, f: Finding, c: LoadedCase | undefined): string[] {
  const calls = c?.calls ?? [];
  const idx = Number(/^calls\[(\d+)\]/.exec(f.at)?.[1] ?? NaN);
  const call = Number.isInteger(idx)
    ? (calls[idx] as { params?: unknown; concurrent?: unknown } | undefined)
    : undefined;
  const script = c
    ? [
        "#!/bin/sh",
        `# ${c.id}: ${c.title}`,
        "set -eu",
        'T="$(mktemp -d)"',
        ...treeLines(fixtureDir(c.fixture, c.suite)),
        ...setupLines(c.setup ?? []),
        'echo "$T"',
      ]
    : [];
  return [
    // An explicit anchor: a heading's own id differs between renderers (GitHub drops the dots).
    `<a id="${findingAnchor(f.rule)}"></a>`,
    "",
    `### \`${f.rule}\``,
    "",
    `- **Rule** (spec, ${f.level}): ${f.statement}`,
    `- **Spec**: ${f.cites.join(", ")}`,
    `- **Harness**: ${i.name} ${i.version}${
      i.pins
        ? ` (${Object.entries(i.pins)
            .map(([p, v]) => `\`${p}@${v}\``)
            .join(", ")})`
        : ""
    }`,
    `- **Case**: \`${f.case}\`${c ? ` (${c.title})` : ""}; also shown by ${f.cases.filter((x) => x !== f.case).join(", ") || "no other case"}`,
    `- **Observed** at \`${f.at}\`: ${f.what}`,
    "",
    "```text",
    `expected: ${clip(json(f.expected))}`,
    `actual:   ${clip(json(f.actual))}`,
    "```",
    "",
    ...(script.length
      ? [
          "Reproduction: make the tree (prints its directory, `$T`):",
          "",
          "```sh",
          ...script,
          "```",
          "",
          `The session (\`$T\` for \`\${tmp}\`): \`${JSON.stringify(c!.config)}\`${call ? `; the tool input the model sent (call ${idx}): \`${JSON.stringify(call.params ?? call.concurrent)}\`` : ""}.`,
          "",
          "Run it through the harness (from a clone of the kit, after `npm ci` in the harness folder):",
          "",
          "```sh",
          kitCommand(i, f.case),
          "```",
          "",
        ]
      : []),
  ];
}

export const findingAnchor = (rule: string): string => rule.toLowerCase().replace(/[^a-z0-9-]+/g, "-");

/** docs/findings/<id>.md of one implementation, or undefined when it fails no spec rule. */
export function findingsPage(
  r: CompatResult,
  i: ImplementationResult,
  cases: ReadonlyMap<string, LoadedCase> = caseIndex(),
): string | undefined {
  if (!i.findings?.length) return undefined;
  return (
    [
      `# Findings: ${i.id}`,
      "",
      "<!-- Generated by `npm run compat` (conformance/compat/findings.ts) from docs/compatibility.json. Do not edit by hand. -->",
      "",
      `Every spec rule ${i.name} ${i.version} fails under \`--profile spec\` (kit ${r.kit.version}${r.kit.commit ? `, commit ${r.kit.commit.slice(0, 12)}` : ""}, ${r.generated_at.slice(0, 10)}), one finding each: the rule, the spec section, the harness version, what was observed, and a minimal reproduction (a script making the case's tree, the session and the tool input, and the kit command driving the harness through its driver, \`${i.driver}\`). The driver's README says what real code runs and how each value is obtained.`,
      "",
      ...i.findings.flatMap((f) => findingSection(i, f, cases.get(f.case))),
    ]
      .join("\n")
      .trimEnd() + "\n"
  );
}

export function caseIndex(): Map<string, LoadedCase> {
  return new Map(loadCases("all").map((c) => [c.id, c]));
}

/** The README's list: each harness's findings, each linked to its reproduction. Reference and Rust are the kit's own. */
export function findingsList(r: CompatResult, base = "docs/findings"): string {
  const lines: string[] = [];
  for (const i of r.implementations) {
    if (i.id === "reference" || i.id === "rust" || !i.findings?.length) continue;
    const links = i.findings.map((f) => `[\`${f.rule}\`](${base}/${i.id}.md#${findingAnchor(f.rule)})`);
    lines.push(`- **${i.id}** (${i.name} ${i.version}): ${links.join(", ")}`);
  }
  return lines.length ? lines.join("\n") : "- none";
}

/** `text` with the block between `<!-- name:start -->` and `<!-- name:end -->` replaced (the markers kept). */
export function replaceBlock(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`,
    end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start),
    b = text.indexOf(end);
  if (a < 0 || b < a) return text;
  return `${text.slice(0, a + start.length)}\n${body.trim()}\n${text.slice(b)}`;
}
