// The HTML report as markup (the browser test renders it): self-contained (no URL, no external resource, a CSP that
// allows no network and only the page's own script, by hash), every transcript value escaped — a page built from a
// transcript full of markup has only the elements and attributes the renderer writes, and the markup is shown as
// text — and every cell and trial of the report is there, each cell linking to its own trials.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellAnchor, escapeHtml, readConversations, renderHtml, trialAnchor } from "../report-html.ts";
import { HOSTILE, makeHtmlFixture, PAYLOADS, type HtmlFixture } from "./html-fixture.ts";

const dir = mkdtempSync(join(tmpdir(), "e2e-html-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TAGS = new Set([
  "html",
  "head",
  "meta",
  "title",
  "style",
  "body",
  "header",
  "h1",
  "h2",
  "p",
  "b",
  "main",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "a",
  "div",
  "span",
  "br",
  "dl",
  "dt",
  "dd",
  "code",
  "ul",
  "li",
  "details",
  "summary",
  "pre",
  "script",
]);
const ATTRIBUTES = new Set([
  "lang",
  "charset",
  "http-equiv",
  "content",
  "name",
  "class",
  "id",
  "href",
  "style",
  "title",
  "role",
  "aria-label",
  "scope",
  "data-scenario",
  "data-model",
  "data-k",
]);

/** Every start tag with its attributes, outside the page's own <style> and <script> bodies. */
function tags(html: string): { tag: string; attrs: [string, string | undefined][] }[] {
  const body = html
    .replace(/<style>[\s\S]*?<\/style>/, "<style></style>")
    .replace(/<script>[\s\S]*?<\/script>/, "<script></script>");
  return [...body.matchAll(/<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)].map((m) => ({
    tag: m[1]!.toLowerCase(),
    attrs: [...m[2]!.matchAll(/([^\s=/]+)(?:=("[^"]*"|'[^']*'|[^\s>]+))?/g)].map(
      (a) => [a[1]!.toLowerCase(), a[2]] as [string, string | undefined],
    ),
  }));
}

describe("the HTML report", () => {
  let f: HtmlFixture;
  let html: string;
  let report: any;
  beforeAll(async () => {
    f = await makeHtmlFixture(dir);
    html = readFileSync(f.html, "utf8");
    report = JSON.parse(readFileSync(f.json, "utf8"));
  });

  it("holds only the elements and attributes the renderer writes, however hostile the transcript", () => {
    const found = tags(html);
    expect(found.length).toBeGreaterThan(100);
    expect(found.filter((t) => !TAGS.has(t.tag)).map((t) => t.tag)).toEqual([]);
    expect(found.filter((t) => t.tag === "script")).toHaveLength(1);
    const attrs = found.flatMap((t) => t.attrs.map(([a, v]) => ({ tag: t.tag, a, v })));
    expect(attrs.filter((x) => !ATTRIBUTES.has(x.a))).toEqual([]);
    // Links only move within the page; ids are the renderer's own.
    // Anchors only: a cell's (#cell-<scenario>-<model>) or a trial's (#<scenario>-<model>-<trial>), URL-safe characters only.
    expect(
      attrs.filter(
        (x) => x.a === "href" && !/^"#(cell-SK\d+-[A-Za-z0-9._~-]+|SK\d+-[A-Za-z0-9._~-]+-\d+)"$/.test(x.v ?? ""),
      ),
    ).toEqual([]);
    expect(
      attrs.filter(
        (x) => x.a === "id" && !/^"(cell-SK\d+-[A-Za-z0-9._~-]+|SK\d+-[A-Za-z0-9._~-]+-\d+)"$/.test(x.v ?? ""),
      ),
    ).toEqual([]);
  });

  it("shows the hostile text as text: every payload is in the page, escaped, where the conversation puts it", () => {
    for (const p of PAYLOADS) expect(html).toContain(escapeHtml(p));
    expect(html.split(escapeHtml(HOSTILE)).length - 1).toBeGreaterThanOrEqual(6); // user, assistant text, reasoning, arguments note, tool output, catalog…
    expect(html).toContain("&amp;lt;already-escaped&amp;gt; &amp;amp; stays as typed");
    // The provenance field the transcript carried is shown with the trial's set-up.
    expect(html).toContain(`<dt>served</dt>`);
  });

  it("loads nothing: no URL in any attribute, a CSP of default-src 'none' whose script hash is the page's one script", () => {
    expect(html).not.toMatch(/\s(src|href|action|srcset|poster)="(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b/i);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp).toMatch(/^default-src 'none';/);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(csp).toContain(`script-src 'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    expect(csp.split(";").find((d) => d.trim().startsWith("script-src"))).not.toContain("unsafe");
  });

  it("has every cell of the report, linking to its own trials, and every trial with its transcript", () => {
    expect(report.cells).toHaveLength(4);
    report.cells.forEach((c: any) => {
      const anchor = cellAnchor(c.scenario, c.model);
      const td = new RegExp(
        `<td class="cell" data-scenario="${c.scenario}" data-model="${c.model}"><a href="#${anchor}"`,
      );
      expect(html, `${c.scenario} × ${c.model}`).toMatch(td);
      const section = html.slice(html.indexOf(`<details class="cellsec" id="${anchor}">`));
      expect(section).toMatch(
        new RegExp(
          `^<details class="cellsec" id="${anchor}"><summary><b>${c.scenario} [^<]*</b> × <code>${c.model}</code>: ${c.passed}/${c.n} passed`,
        ),
      );
      for (const t of report.trials.filter((x: any) => x.scenario === c.scenario && x.model === c.model)) {
        expect(html).toContain(
          `<details class="trial" id="${trialAnchor(t.scenario, t.model, t.trial)}"><summary>trial ${t.trial} · <span class="o ${t.outcome}">${t.outcome}</span> · ${escapeHtml(t.reason)}</summary>`,
        );
      }
    });
    // The conversation of each trial: the scenario's prompt and the model's final answer are in the page.
    const convs = readConversations(report);
    expect(convs.size).toBe(report.trials.length);
    for (const events of convs.values()) {
      if ("error" in events) throw new Error(events.error);
      for (const ev of events.filter((x) => x.type === "user" || (x.type === "assistant" && x.text)))
        expect(html).toContain(escapeHtml(ev.type === "user" ? ev.content : (ev as { text: string }).text));
    }
  });

  it("a trial whose transcript is gone says so instead of failing the report", () => {
    const r = {
      ...report,
      trials: report.trials.map((t: any, i: number) =>
        i === 0 ? { ...t, transcript: join(dir, "missing.jsonl") } : t,
      ),
    };
    const page = renderHtml(r, readConversations(r));
    expect(page).toMatch(/transcript .*missing\.jsonl could not be read: ENOENT/);
  });
});
