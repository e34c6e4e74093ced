// The HTML report in a real browser: Debian's headless Chromium loads the file (file://, so nothing could be fetched
// anyway), runs the page's script and dumps the DOM it ends with. Checked there: the page rendered and its script
// ran; no markup from the hostile transcript ran (no attribute the payloads set, no element they would add); the
// matrix holds the JSON report's numbers for every cell; a URL fragment naming a trial opens it (and its cell) and
// nothing else, and the trial shows its conversation; a screenshot comes out at the window's size. Also the issue's
// acceptance run: every scenario over a loopback Ollama (the real client), whose digest the report and page carry.
// Chromium missing: skipped with a message on a dev machine, a failure under CI=true (.ci/run installs it).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli.ts";
import { cellAnchor, trialAnchor } from "../report-html.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { fromOllamaWire, ollamaReply, ollamaShow, playPolicy, startFakeOllama } from "./fake-servers.ts";
import { makeHtmlFixture, type HtmlFixture } from "./html-fixture.ts";

const CHROMIUM = process.env["CHROMIUM"] ?? "chromium";
const found = spawnSync(CHROMIUM, ["--version"], { encoding: "utf8", timeout: 30_000 });
const available = found.status === 0;
const inCi = process.env["CI"] === "true";
if (!available && !inCi)
  console.warn(
    `report-browser.test.ts: SKIPPED: no Chromium (${CHROMIUM}); install it (apt-get install chromium) to run the HTML report's browser test`,
  );

const dir = mkdtempSync(join(tmpdir(), "e2e-browser-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Chromium's serialisation of a text node: only &, < and > are escaped (quotes stay as they are). */
const asText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** One headless Chromium run on the page; returns stdout (the DOM for --dump-dom). */
function chromium(url: string, extra: string[]): string {
  const profile = mkdtempSync(join(dir, "profile-"));
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--user-data-dir=${profile}`,
    ...extra,
    url,
  ];
  const r = spawnSync(CHROMIUM, args, { encoding: "utf8", timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`chromium exited ${r.status} ${r.signal ?? ""}: ${r.stderr.slice(-2000)}`);
  return r.stdout;
}

describe("Chromium is there when CI runs", () => {
  it.runIf(inCi)("under CI=true the browser test may not be skipped", () => {
    expect(
      available,
      `${CHROMIUM} --version failed (${found.error?.message ?? found.stderr}): .ci/run must install chromium`,
    ).toBe(true);
  });
});

describe.runIf(available)("the HTML report in headless Chromium", () => {
  let f: HtmlFixture;
  let report: any;
  let url: string;
  beforeAll(async () => {
    f = await makeHtmlFixture(dir);
    report = JSON.parse(readFileSync(f.json, "utf8"));
    url = pathToFileURL(f.html).href;
  }, 120_000);

  /** The cell (scenario × model) that failed on the hostile transcript, and its first trial. */
  const target = () => {
    return { cell: cellAnchor("SK1", "scripted:bad"), id: trialAnchor("SK1", "scripted:bad", 1) };
  };
  // Chromium takes seconds per page on a loaded machine: the DOM after opening the hostile trial serves three tests.
  let trialDom: string | undefined;
  const openedTrial = () => (trialDom ??= chromium(`${url}#${target().id}`, ["--dump-dom"]));

  it("renders, runs its own script, and runs nothing from the transcript", () => {
    const dom = openedTrial();
    expect(dom).toMatch(/<html lang="en" data-ready="1">/);
    // The payloads would set data-pwned="…" on <html>; as text they only say setAttribute("data-pwned", …).
    expect(dom).toContain(`setAttribute("data-pwned","script")`);
    expect(dom).not.toMatch(/data-pwned=/);
    expect(dom).not.toMatch(/<(img|svg|iframe|link)\b/i);
    expect(dom).not.toMatch(/<a [^>]*id="evil"/);
    expect(dom).not.toMatch(/<a [^>]*href="http/);
    expect(dom).toContain(asText(`<img src=x onerror="document.documentElement.setAttribute('data-pwned','img')">`));
    expect(dom).toMatch(/<title>Skill tool e2e: scripted:bad, scripted:good<\/title>/);
    // The script added its buttons to every cell's trials.
    expect(dom.split('<button type="button">open all trials</button>').length - 1).toBe(report.cells.length);
  }, 120_000);

  it("holds the JSON report's numbers in every cell of the matrix", () => {
    const dom = openedTrial();
    expect(report.cells.length).toBe(4);
    for (const c of report.cells) {
      const m = new RegExp(
        `<td class="cell" data-scenario="${c.scenario}" data-model="${c.model}">([\\s\\S]*?)</td>`,
      ).exec(dom);
      expect(m, `${c.scenario} × ${c.model}`).not.toBeNull();
      const td = m![1]!;
      const text = (cls: string, k?: number) =>
        new RegExp(`class="${cls}"${k ? ` data-k="${k}"` : ""}>(?:[^<]*<b>)?([^<]*)<`).exec(td)?.[1];
      expect(text("passed")).toBe(String(c.passed));
      expect(text("n")).toBe(String(c.n));
      expect(text("pass1")).toBe(c.passAtK["1"].toFixed(2));
      expect(text("ci95")).toBe(`[${c.pass1Interval95.low.toFixed(2)}, ${c.pass1Interval95.high.toFixed(2)}]`);
      expect(text("passk", 2)).toBe(c.passAtK["2"].toFixed(2));
      expect(text("passhatk", 2)).toBe(c.passHatK["2"].toFixed(2));
      expect(text("exercised")).toBe(`${c.exercised}/${c.trials - c.errors}`);
      expect(text("tin")).toBe(String(Math.round(c.usage.inputTokens.perTrial)));
      expect(td).toContain(
        `aria-label="pass@1 ${c.passAtK["1"].toFixed(2)}, 95% interval ${c.pass1Interval95.low.toFixed(2)} to ${c.pass1Interval95.high.toFixed(2)}"`,
      );
    }
  }, 120_000);

  it("a URL fragment naming a trial opens that trial and its cell, and only them; the trial shows its conversation", () => {
    const { cell, id } = target();
    const dom = openedTrial();
    const opened = [...dom.matchAll(/<details class="(cellsec|trial)" id="([^"]+)" open="">/g)].map((m) => m[2]);
    expect(opened).toEqual([cell, id]);
    const trial = dom.slice(dom.indexOf(`id="${id}"`));
    const events = readFileSync(f.hostile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const user = events.find((e) => e.type === "user");
    expect(trial).toContain(asText(user.content));
    const t = report.trials.find((x: any) => x.scenario === "SK1" && x.model === "scripted:bad" && x.trial === 1);
    expect(trial).toContain(`<p class="reason">${asText(t.reason)}</p>`);
    // A cell's fragment (what a click on the matrix sets) opens the cell only.
    const cellOnly = chromium(`${url}#${cell}`, ["--dump-dom"]);
    expect([...cellOnly.matchAll(/<details class="(cellsec|trial)" id="([^"]+)" open="">/g)].map((m) => m[2])).toEqual([
      cell,
    ]);
  }, 120_000);

  it("takes a screenshot at the window's size", () => {
    const png = join(dir, "report.png");
    chromium(`${url}#${target().id}`, ["--window-size=1280,2000", `--screenshot=${png}`, "--hide-scrollbars"]);
    const bytes = readFileSync(png);
    expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1280, 2000]);
    expect(bytes.length).toBeGreaterThan(50_000); // a blank page compresses to a few kB
  }, 120_000);
});

describe.runIf(available)("a run over a loopback Ollama, reported as HTML", () => {
  const DIGEST = "sha256:5f1c2b3a4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8";
  it("holds every scenario, the model with the digest that served it, and its conversations; renders in Chromium", async () => {
    // A loopback Ollama that says what it serves (/api/tags, /api/show, /api/version) and plays every good policy.
    const server = await startFakeOllama((path, body) => {
      if (path === "GET /api/tags")
        return {
          status: 200,
          body: {
            models: [
              {
                name: "fake:1b",
                model: "fake:1b",
                digest: DIGEST,
                details: { quantization_level: "Q4_K_M", parameter_size: "1.2B", family: "fake" },
              },
            ],
          },
        };
      if (path === "POST /api/show") return ollamaShow(["completion", "tools"]);
      if (path === "GET /api/version") return { status: 200, body: { version: "0.12.3" } };
      const step = playPolicy(fromOllamaWire(body), (sc) => sc.good, SCENARIOS);
      return ollamaReply(step.text ?? "", step.calls ?? []);
    });
    const html = join(dir, "ollama.html");
    const json = join(dir, "ollama.json");
    let out = "";
    let err = "";
    try {
      const code = await main(
        [
          "--model",
          "ollama:fake:1b",
          "--ollama-host",
          server.url,
          "-n",
          "1",
          "--transcripts",
          join(dir, "ollama-t"),
          "--json",
          json,
          "--html",
          html,
        ],
        { stdout: (x) => void (out += x), stderr: { write: (x: string) => ((err += x), true), isTTY: false } },
      );
      expect(code, err).toBe(0);
    } finally {
      await server.close();
    }
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.models[0]).toMatchObject({
      id: "ollama:fake:1b",
      kind: "real",
      served: { digest: DIGEST, quantization: "Q4_K_M", parameterSize: "1.2B", serverVersion: "0.12.3" },
    });
    expect(report.cells).toHaveLength(SCENARIOS.length);
    const page = readFileSync(html, "utf8");
    expect(page).toContain(`digest ${DIGEST.slice(0, 12)}, Q4_K_M, 1.2B`);
    const target = trialAnchor("SK3", "ollama:fake:1b", 1);
    const dom = chromium(`${pathToFileURL(html).href}#${target}`, ["--dump-dom"]);
    expect(dom).toMatch(/<html lang="en" data-ready="1">/);
    for (const sc of SCENARIOS)
      expect(dom).toMatch(new RegExp(`<td class="cell" data-scenario="${sc.id}" data-model="ollama:fake:1b">`));
    expect(dom).toContain(DIGEST);
    // SK3's trial is open and shows both user turns and the model's answers as the transcript has them.
    const events = readFileSync(report.trials.find((t: any) => t.scenario === "SK3").transcript, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const trial = dom.slice(dom.indexOf(`<details class="trial" id="${target}" open="">`));
    expect(trial.length).toBeLessThan(dom.length);
    for (const ev of events.filter((x) => x.type === "user" || (x.type === "assistant" && x.text)))
      expect(trial).toContain(asText(ev.type === "user" ? ev.content : ev.text));
    const png = join(dir, "ollama.png");
    chromium(`${pathToFileURL(html).href}#${target}`, [
      "--window-size=1280,1600",
      `--screenshot=${png}`,
      "--hide-scrollbars",
    ]);
    expect(readFileSync(png).readUInt32BE(16)).toBe(1280);
  }, 180_000);
});
