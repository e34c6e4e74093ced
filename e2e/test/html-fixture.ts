// A report to render, shared by the HTML tests: a scripted run (passing and failing cells, two trials each) through
// the real CLI, then one transcript rewritten the way a hostile model or skill could write it — markup in the user
// prompt, the assistant's text and reasoning, a tool name, a tool's arguments and output, the skill tool description
// and a provenance field — re-scored from the transcripts into JSON and HTML. Not a test file itself.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../cli.ts";
import { findTranscripts } from "../run.ts";

/** Markup a transcript may hold; each would change the page if it were not escaped. */
export const PAYLOADS = [
  `</pre></div></details><script>document.documentElement.setAttribute("data-pwned","script")</script>`,
  `<img src=x onerror="document.documentElement.setAttribute('data-pwned','img')">`,
  `"><svg onload="document.documentElement.setAttribute('data-pwned','svg')">`,
  `'><a href="https://evil.example/x" id="evil">click</a>`,
  `</style></title><iframe src="https://evil.example/"></iframe><style>`,
  `&lt;already-escaped&gt; &amp; stays as typed`,
];
export const HOSTILE = PAYLOADS.join(" ");

export interface HtmlFixture {
  html: string;
  json: string;
  /** The rewritten transcript. */
  hostile: string;
  out: string;
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, {
    stdout: (s) => void (out += s),
    stderr: { write: (s: string) => ((err += s), true), isTTY: false },
  });
  return { code, out, err };
}

/** Every text a person reads in the viewer gets the payloads; the structure (types, steps, ids) stays valid. */
function poison(line: string): string {
  const ev = JSON.parse(line);
  switch (ev.type) {
    case "meta":
      ev.served = { digest: HOSTILE, quantization: "Q4_K_M" };
      break;
    case "catalog":
      ev.toolDescription += `\n${HOSTILE}`;
      break;
    case "user":
      ev.content += `\n${HOSTILE}`;
      break;
    case "assistant":
      ev.text = `${ev.text}\n${HOSTILE}`;
      ev.reasoning = [{ text: HOSTILE }];
      ev.toolCalls = ev.toolCalls.map((c: { name: string; arguments: object }) => ({
        ...c,
        name: c.name === "skill" ? c.name : `${c.name}${PAYLOADS[1]}`,
        arguments: { ...c.arguments, note: HOSTILE },
      }));
      break;
    case "tool":
      ev.output += `\n${HOSTILE}`;
      break;
  }
  return JSON.stringify(ev);
}

/** Runs, poisons the first transcript of scripted:bad SK1, re-scores into `dir`/report.{json,html}. */
export async function makeHtmlFixture(dir: string): Promise<HtmlFixture> {
  const transcripts = join(dir, "t");
  const run = await cli([
    "--model",
    "scripted:good",
    "--model",
    "scripted:bad",
    "-n",
    "2",
    "-k",
    "1,2",
    "--scenario",
    "SK1,SK5",
    "--transcripts",
    transcripts,
  ]);
  if (run.code !== 0) throw new Error(`scripted run failed: ${run.err}`);
  const hostile = findTranscripts(transcripts).find((f) => f.endsWith(join("scripted_bad", "SK1-001.jsonl")))!;
  writeFileSync(hostile, readFileSync(hostile, "utf8").trimEnd().split("\n").map(poison).join("\n") + "\n");
  const html = join(dir, "report.html");
  const json = join(dir, "report.json");
  const r = await cli(["--rescore", transcripts, "-k", "1,2", "--json", json, "--html", html]);
  if (r.code !== 0) throw new Error(`re-score failed: ${r.err}`);
  return { html, json, hostile, out: r.out };
}
