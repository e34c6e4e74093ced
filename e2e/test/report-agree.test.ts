// Issue 28 items 10 and deliver 6: a shared link to a trial keeps its meaning when a model or a scenario is added
// (anchors name what they show, URL-safe, one-to-one), and the terminal, Markdown and HTML reports say the same numbers
// for every cell, whatever -k asks for (the Markdown used to leave out pass@1 and its interval under -k 5).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli.ts";
import { anchorPart, cellAnchor, trialAnchor } from "../report-html.ts";

const dir = mkdtempSync(join(tmpdir(), "skill-e2e-agree-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(name: string, ...argv: string[]) {
  let out = "";
  const files = { json: join(dir, `${name}.json`), md: join(dir, `${name}.md`), html: join(dir, `${name}.html`) };
  const code = await main(
    [
      ...argv,
      "--transcripts",
      join(dir, `${name}-t`),
      "--json",
      files.json,
      "--markdown",
      files.md,
      "--html",
      files.html,
    ],
    { stdout: (x) => void (out += x), stderr: { write: () => true, isTTY: false } },
  );
  expect(code).toBe(0);
  return {
    out,
    report: JSON.parse(readFileSync(files.json, "utf8")),
    md: readFileSync(files.md, "utf8"),
    html: readFileSync(files.html, "utf8"),
  };
}

const ids = (html: string) => [...html.matchAll(/<details class="(?:cellsec|trial)" id="([^"]+)"/g)].map((m) => m[1]!);

describe("report anchors", () => {
  it("are #<scenario>-<model>-<trial>, URL-safe, one-to-one, and the same when a model and a scenario are added", async () => {
    const one = await run("one", "--model", "scripted:good", "-n", "2", "--scenario", "SK2");
    const two = await run("two", "--model", "scripted:bad,scripted:good", "-n", "2", "--scenario", "SK1,SK2");
    const before = ids(one.html);
    expect(before).toEqual([cellAnchor("SK2", "scripted:good"), "SK2-scripted~3agood-1", "SK2-scripted~3agood-2"]);
    // Every anchor of the first report names the same cell or trial in the bigger one.
    for (const id of before) expect(ids(two.html)).toContain(id);
    expect(new Set(ids(two.html)).size).toBe(ids(two.html).length);
    for (const id of ids(two.html)) expect(id).toMatch(/^[A-Za-z0-9._~-]+$/);
    expect(two.html).toContain(`href="#${cellAnchor("SK1", "scripted:bad")}"`);
    // One-to-one: ids that differ only where a lossy slug would merge them stay apart.
    expect(anchorPart("ollama:qwen3:8b")).not.toBe(anchorPart("ollama:qwen3-8b"));
    expect(trialAnchor("SK1", "m-1", 2)).not.toBe(cellAnchor("SK1", "m-1-2"));
  }, 120_000);
});

describe("the terminal, Markdown and HTML reports", () => {
  it("say the same numbers for every cell, pass@1 and its interval included under -k 5", async () => {
    const r = await run("k5", "--model", "scripted:bad,scripted:good", "-n", "3", "-k", "5", "--scenario", "SK1,SK2");
    for (const c of r.report.cells) {
      const p1 = (c.passed / c.n).toFixed(2);
      const ci = [c.pass1Interval95.low.toFixed(2), c.pass1Interval95.high.toFixed(2)];
      const exercised = `${c.exercised}/${c.trials - c.errors}`;
      const row = r.out
        .split("\n")
        .find((l) => l.trimStart().startsWith(c.model) && r.out.indexOf(l) > r.out.indexOf(`${c.scenario} `))!;
      expect(row, `terminal ${c.scenario} × ${c.model}`).toMatch(
        new RegExp(`${c.passed}/${c.n}\\s+${p1}\\s+${ci[0]}–${ci[1]}\\s+n/a\\s+n/a\\s+${exercised}`),
      );
      const mdRow = r.md.split("\n").find((l) => l.startsWith(`| ${c.scenario} `))!;
      const mdCell = mdRow.split(" | ")[1 + r.report.models.findIndex((m: { id: string }) => m.id === c.model)]!;
      expect(mdCell, `markdown ${c.scenario} × ${c.model}`).toContain(
        `${c.passed}/${c.n} · pass@1 ${p1} [${ci[0]}, ${ci[1]}] · pass@5 n/a · pass^5 n/a · exercised ${exercised}`,
      );
      const td = r.html
        .slice(r.html.indexOf(`<td class="cell" data-scenario="${c.scenario}" data-model="${c.model}">`))
        .split("</td>")[0]!;
      expect(td, `html ${c.scenario} × ${c.model}`).toContain(
        `<b class="passed">${c.passed}</b>/<b class="n">${c.n}</b>`,
      );
      expect(td).toContain(`pass@1 <b class="pass1">${p1}</b> <span class="ci95">[${ci[0]}, ${ci[1]}]</span>`);
      expect(td).toContain(`pass@5 <b>n/a</b>`);
      expect(td).toContain(`exercised <b class="exercised">${exercised}</b>`);
    }
  }, 120_000);
});
