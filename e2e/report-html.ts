// The HTML report (`--html <file>`): one self-contained page a person would rather read than a terminal table. The
// scenario × model matrix shows per cell passed/n, pass@1 drawn as a bar with its 95% Wilson interval, pass@k /
// pass^k, exercised, inconclusive and errors apart (by kind), tokens and latency; each cell opens its trials, and
// each trial its whole conversation (system prompt, the skill tool description, user prompts, assistant text,
// reasoning, tool calls, results with the permission decision, the end) under the judge's outcome, reason line and
// the evidence it read. Transcripts hold untrusted model and skill text: every value is escaped, the page loads
// nothing (a Content-Security-Policy of default-src 'none'; its one script is allowed by hash, so a script that got
// into the page anyway would not run). Owns: renderHtml, readConversations, escapeHtml.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { HTML_CSS, HTML_SCRIPT } from "./report-html-assets.ts";
import { servedText } from "./provenance.ts";
import { cellFigures, fmtCount, fmtMs } from "./report-table.ts";
import type { Report, ReportCell } from "./report.ts";
import type { RunResult } from "./run.ts";
import { Trial, parseTranscript, resultLabel, type TranscriptEvent } from "./transcript.ts";

/** A trial's events, or why they could not be read. Keyed by the transcript path of the trial. */
export type Conversations = Map<string, TranscriptEvent[] | { error: string }>;

/** Reads every trial's transcript named in the report (I/O at the edge; renderHtml itself is pure). */
export function readConversations(r: Report): Conversations {
  const out: Conversations = new Map();
  for (const t of r.trials) {
    if (!t.transcript || out.has(t.transcript)) continue;
    try {
      out.set(t.transcript, [...parseTranscript(readFileSync(t.transcript, "utf8")).events]);
    } catch (e) {
      out.set(t.transcript, { error: (e as Error).message });
    }
  }
  return out;
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for an element body or a double-quoted attribute. */
export function escapeHtml(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
const e = escapeHtml;

const num = (v: number | null | undefined) => (v === null || v === undefined ? "n/a" : v.toFixed(2));
/** A percentage for a style attribute: a number we computed, never text from a transcript. */
const pct = (x: number) => `${(Math.max(0, Math.min(1, x)) * 100).toFixed(1)}%`;
const json = (v: unknown) => JSON.stringify(v, null, 2) ?? "undefined";

/**
 * A model id in an anchor, URL-safe and one-to-one (two models never share an anchor): letters, digits, '.', '_' and
 * '-' stay; every other byte is ~ and two hex digits (ollama:qwen3:8b is ollama~3aqwen3~3a8b).
 */
export function anchorPart(s: string): string {
  return [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[A-Za-z0-9._-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `~${b.toString(16).padStart(2, "0")}`,
    )
    .join("");
}

/**
 * Anchors a shared link can rely on (issue 28 item 10): named by what they show, never by position, so adding a model
 * or a scenario to a report changes no existing link. A trial is #<scenario>-<model>-<trial> (the trial number last,
 * a scenario id has no '-'); its cell is #cell-<scenario>-<model>.
 */
export function trialAnchor(scenario: string, model: string, trial: number): string {
  return `${anchorPart(scenario)}-${anchorPart(model)}-${trial}`;
}
export function cellAnchor(scenario: string, model: string): string {
  return `cell-${anchorPart(scenario)}-${anchorPart(model)}`;
}

function cellsOf(r: Report): { cell: ReportCell; index: number; trials: RunResult[] }[] {
  return r.cells.map((cell, index) => ({
    cell,
    index,
    trials: r.trials
      .filter((t) => t.scenario === cell.scenario && t.model === cell.model)
      .sort((a, b) => a.trial - b.trial),
  }));
}

/** pass@1 as a filled bar with the 95% interval as a whisker over it; "no verdict" when n = 0. */
function bar(c: ReportCell): string {
  const p = c.passAtK[1] ?? (c.n ? c.passed / c.n : null);
  if (p === null || !c.pass1Interval95) return `<div class="bar none" title="no conclusive trial"></div>`;
  const { low, high } = c.pass1Interval95;
  const hue = Math.round(120 * p);
  return `<div class="bar" role="img" aria-label="pass@1 ${num(p)}, 95% interval ${num(low)} to ${num(high)}"><span class="fill" style="width:${pct(p)};background:hsl(${hue},60%,55%)"></span><span class="ci" style="left:${pct(low)};width:${pct(high - low)}"></span></div>`;
}

function errorKinds(trials: readonly RunResult[]): string {
  const kinds = new Map<string, number>();
  for (const t of trials)
    if (t.outcome === "error") kinds.set(t.errorKind ?? "unknown", (kinds.get(t.errorKind ?? "unknown") ?? 0) + 1);
  return [...kinds].map(([k, n]) => `${e(k)} ${n}`).join(", ");
}

function matrixCell(r: Report, x: { cell: ReportCell; index: number; trials: RunResult[] }): string {
  const c = x.cell;
  const u = c.usage;
  // The numbers the terminal and the Markdown report print (cellFigures).
  const f = cellFigures(c, r.ks);
  const ks = f.ks.map(
    (x) =>
      `<span class="passk" data-k="${x.k}">pass@${x.k} <b>${x.at}</b></span> <span class="passhatk" data-k="${x.k}">pass^${x.k} <b>${x.hat}</b></span>`,
  );
  const ci = f.ci ? `[${f.ci[0]}, ${f.ci[1]}]` : "[n/a]";
  return `<td class="cell" data-scenario="${e(c.scenario)}" data-model="${e(c.model)}"><a href="#${cellAnchor(c.scenario, c.model)}" title="open the trials">
<div class="frac"><b class="passed">${c.passed}</b>/<b class="n">${c.n}</b> passed</div>
${bar(c)}
<div>pass@1 <b class="pass1">${f.pass1}</b> <span class="ci95">${ci}</span></div>
${ks.length ? `<div class="ks">${ks.join(" · ")}</div>` : ""}
<div>exercised <b class="exercised">${f.exercised}</b>${c.inconclusive ? ` · <span class="inconclusive">inconclusive <b>${c.inconclusive}</b></span>` : ""}</div>
${c.errors ? `<div class="errors">errors <b class="errcount">${c.errors}</b> (${errorKinds(x.trials)})</div>` : ""}
<div class="cost">tokens <span class="tin">${fmtCount(u.inputTokens.perTrial)}</span> in / <span class="tout">${fmtCount(u.outputTokens.perTrial)}</span> out per trial · ${u.steps.perTrial} steps</div>
<div class="cost">latency p50 <span class="p50">${fmtMs(u.latencyMs.p50)}</span> · p95 <span class="p95">${fmtMs(u.latencyMs.p95)}</span>${u.retries ? ` · ${u.retries} retries` : ""}</div>
</a></td>`;
}

function matrix(r: Report): string {
  const cells = cellsOf(r);
  const head = r.models
    .map((m) => `<th scope="col">${e(m.id)}${m.kind === "scripted" ? ` <span class="tag">self-test</span>` : ""}</th>`)
    .join("");
  const rows = r.scenarios.map((s) => {
    const tds = r.models.map((m) => {
      const x = cells.find((y) => y.cell.scenario === s.id && y.cell.model === m.id);
      return x ? matrixCell(r, x) : `<td class="empty">—</td>`;
    });
    return `<tr><th scope="row">${e(s.id)}<br><span class="title">${e(s.title)}</span></th>${tds.join("")}</tr>`;
  });
  return `<table class="matrix"><thead><tr><th scope="col">scenario</th>${head}</tr></thead><tbody>${rows.join("\n")}</tbody></table>`;
}

/** Any value as definition rows: objects one level deep, the rest as JSON. */
function facts(o: Record<string, unknown>): string {
  const rows = Object.entries(o).filter(([, v]) => v !== undefined);
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${typeof v === "object" && v !== null ? `<code>${e(JSON.stringify(v))}</code>` : e(v)}</dd>`).join("")}</dl>`;
}

function modelsSection(r: Report): string {
  const rows = r.models.map((m) => {
    const { id, kind, served, ...rest } = m;
    const provenance = served ? `<p class="served">${e(servedText(served))}</p>` : "";
    return `<tr><td><code>${e(id)}</code></td><td>${kind === "scripted" ? `<span class="tag">self-test</span>` : "model"}</td><td>${provenance}${facts({ ...rest, ...(served ? { served } : {}) } as Record<string, unknown>)}</td></tr>`;
  });
  return `<h2>Models</h2><table class="models"><thead><tr><th>model</th><th>kind</th><th>served as (provider, sampling that reaches the model, provenance)</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function header(r: Report): string {
  const settings = {
    temperature: r.temperature,
    ...(r.seed !== undefined ? { seed: r.seed } : {}),
    ...(r.settings ?? {}),
  };
  const versions = Object.entries(r.versions.scenarios)
    .map(([id, v]) => `${id} ${v.checker}/${v.fixture}`)
    .join(", ");
  const selfTests = r.models
    .filter((m) => m.kind === "scripted")
    .map((m) => `<p class="note"><b>${e(m.id)}</b> is a harness self-test (scripted policy), not a model result.</p>`);
  const notes = [
    r.merged ? `Merged from ${r.merged.shards} shard(s): ${r.merged.from.join(", ")}.` : "",
    r.resumed ? `${r.resumed} trial(s) taken from existing transcripts (--resume).` : "",
  ]
    .filter(Boolean)
    .map((w) => `<p class="note">${e(w)}</p>`);
  const warn = [
    r.shard
      ? `SHARD ${r.shard.index}/${r.shard.count}: ${r.shard.trials} of the run's ${r.shard.total} trials; merge every shard with --merge for the run's numbers.`
      : "",
    r.interrupted ? `INTERRUPTED: ${r.interrupted.unfinished.length} trial(s) did not finish and are not scored.` : "",
    r.rescore?.changed.length
      ? `CHANGED: ${r.rescore.changed.length} transcript(s) were made under another checker/fixture and are ${r.rescore.scoredUnderCurrent ? "scored under the current one" : "left out"}.`
      : "",
  ]
    .filter(Boolean)
    .map((w) => `<p class="warn">${e(w)}</p>`);
  return `<header><h1>Skill tool e2e (SK1–SK8)</h1>
<p>Implementation <b>${e(r.implementation)}</b>, n = ${r.n} trials per cell, k = ${e(r.ks.join(", "))}; ${e(
    Object.entries(settings)
      .map(([k, v]) => `${k} ${String(v)}`)
      .join("; "),
  )}. Created ${e(r.createdAt)}.</p>
<p class="small">Versions: kit ${e(r.versions.kit)}; checker/fixture: ${e(versions)}.</p>
${selfTests.join("\n")}${notes.join("\n")}${warn.join("\n")}</header>`;
}

const LEGEND = `<p class="small">Each cell: passed/n over conclusive trials (pass or fail); the bar is pass@1 with its 95% Wilson interval as a whisker; pass@k (at least one of k passes) and pass^k (all k pass), n/a when n &lt; k; exercised x/y: in x of the y non-error trials the tested situation arose; inconclusive and errored trials are left out of n. Tokens are means per trial; latency is per model call, retries included. Click a cell for its trials.</p>`;

/** The whole page. `conversations` holds each trial's transcript events (readConversations). */
export function renderHtml(r: Report, conversations: Conversations): string {
  const script = HTML_SCRIPT;
  const hash = createHash("sha256").update(script).digest("base64");
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const cells = cellsOf(r).map((x) => cellSection(r, x, conversations));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skill tool e2e: ${e(r.models.map((m) => m.id).join(", "))}</title>
<style>${HTML_CSS}</style></head>
<body>
${header(r)}
<main>
<h2>Results</h2>
${LEGEND}
${matrix(r)}
${modelsSection(r)}
<h2>Trials</h2>
${cells.join("\n")}
</main>
<script>${script}</script>
</body></html>
`;
}

function cellSection(
  r: Report,
  x: { cell: ReportCell; index: number; trials: RunResult[] },
  conversations: Conversations,
): string {
  const c = x.cell;
  const title = r.scenarios.find((s) => s.id === c.scenario)?.title ?? "";
  const reasons = c.reasons
    .filter((y) => y.outcome !== "pass")
    .map((y) => `<li><span class="o ${e(y.outcome)}">${e(y.outcome)}</span> ${y.count}× ${e(y.reason)}</li>`);
  const trials = x.trials.map((t) => trialSection(t, conversations));
  return `<details class="cellsec" id="${cellAnchor(c.scenario, c.model)}"><summary><b>${e(c.scenario)} ${e(title)}</b> × <code>${e(c.model)}</code>: ${c.passed}/${c.n} passed, ${c.inconclusive} inconclusive, ${c.errors} errors</summary>
${reasons.length ? `<ul class="reasons">${reasons.join("")}</ul>` : ""}
${trials.join("\n")}
</details>`;
}

function trialSection(t: RunResult, conversations: Conversations): string {
  const events = t.transcript ? conversations.get(t.transcript) : undefined;
  const body = !events
    ? `<p class="warn">no transcript was saved for this trial</p>`
    : "error" in events
      ? `<p class="warn">transcript ${e(t.transcript)} could not be read: ${e(events.error)}</p>`
      : conversation(events);
  return `<details class="trial" id="${trialAnchor(t.scenario, t.model, t.trial)}"><summary>trial ${t.trial} · <span class="o ${e(t.outcome)}">${e(t.outcome)}</span> · ${e(t.reason)}</summary>
${judgeBox(t, events && !("error" in events) ? events : undefined)}
${body}
</details>`;
}

/** The judge's verdict and what it read: the checker's own evidence when the result carries it, else the transcript's key facts. */
function judgeBox(t: RunResult, events: TranscriptEvent[] | undefined): string {
  const own = (t as RunResult & { evidence?: unknown }).evidence;
  const evidence = own !== undefined ? evidenceList(own) : events ? derivedEvidence(events) : "";
  return `<div class="judge"><div><span class="o ${e(t.outcome)}">${e(t.outcome)}</span>${t.errorKind ? ` <span class="tag">${e(t.errorKind)}</span>` : ""}${t.exercised !== undefined ? ` · exercised: ${t.exercised ? "yes" : "no"}` : ""}</div>
<p class="reason">${e(t.reason)}</p>
${evidence ? `<div class="evidence"><b>${own !== undefined ? "Evidence the judge used" : "What the judge read (from the transcript)"}</b>${evidence}</div>` : ""}
${t.transcript ? `<p class="small">transcript: <code>${e(t.transcript)}</code></p>` : ""}</div>`;
}

function evidenceList(v: unknown): string {
  const items = Array.isArray(v)
    ? v
    : typeof v === "object" && v !== null
      ? Object.entries(v).map(([k, x]) => `${k}: ${typeof x === "string" ? x : JSON.stringify(x)}`)
      : [v];
  return `<ul>${items.map((i) => `<li>${e(typeof i === "string" ? i : JSON.stringify(i))}</li>`).join("")}</ul>`;
}

function derivedEvidence(events: TranscriptEvent[]): string {
  let trial: Trial;
  try {
    trial = new Trial(events);
  } catch {
    return "";
  }
  const items: string[] = [];
  for (const s of trial.skillCalls()) items.push(`skill call ${JSON.stringify(s.input)} → ${resultLabel(s.skill)}`);
  for (const d of trial.tools().filter((x) => x.permission?.decision === "deny"))
    items.push(`denied ${d.tool} ${JSON.stringify(d.input)} (${d.permission!.rule})`);
  trial
    .answers()
    .forEach((a, i) => items.push(`answer to turn ${i + 1}: ${a.length > 400 ? `${a.slice(0, 400)}…` : a}`));
  if (trial.end)
    items.push(
      `ended ${trial.end.outcome}${trial.end.error ? `: ${trial.end.error.kind} ${trial.end.error.message}` : ""}`,
    );
  return evidenceList(items);
}

/** Every event of a transcript in order, each as a block a person can read. */
function conversation(events: readonly TranscriptEvent[]): string {
  return `<div class="conv">${events.map(eventBlock).join("\n")}</div>`;
}

function eventBlock(ev: TranscriptEvent): string {
  switch (ev.type) {
    case "meta": {
      const { type: _t, version: _v, ...rest } = ev;
      return `<details class="meta"><summary>trial set-up (model, sampling, versions, workspace)</summary>${facts(rest as Record<string, unknown>)}</details>`;
    }
    case "catalog":
      return `<details class="sys"><summary>skill tool description the model saw (${ev.entries.length} skills${ev.warnings.length ? `, ${ev.warnings.length} warnings` : ""})</summary><pre>${e(ev.toolDescription)}</pre>${ev.warnings.length ? `<ul>${ev.warnings.map((w) => `<li>${e(w)}</li>`).join("")}</ul>` : ""}</details>`;
    case "system":
      return `<details class="sys"><summary>system prompt</summary><pre>${e(ev.content)}</pre></details>`;
    case "user":
      return `<div class="msg user"><div class="who">user · turn ${ev.turn}</div><pre>${e(ev.content)}</pre></div>`;
    case "assistant":
      return assistantBlock(ev);
    case "tool":
      return toolBlock(ev);
    case "notice":
      return `<div class="msg notice"><div class="who">the loop to the model · step ${ev.step} · turn ${ev.turn}</div><pre>${e(ev.content)}</pre></div>`;
    case "hook":
      return `<div class="msg hook"><div class="who">activation hook</div><pre>${e(json(ev.request))}\n→ ${e(json(ev.decision))}</pre></div>`;
    case "end":
      return `<div class="msg end"><div class="who">end · ${e(ev.outcome)} · ${fmtMs(ev.durationMs)}</div>${ev.error ? `<pre class="err">${e(ev.error.kind)}${ev.error.code ? ` ${e(ev.error.code)}` : ""}: ${e(ev.error.message)}</pre>` : ""}<details><summary>workspace files at the end (${ev.files.length})</summary><pre>${e(ev.files.join("\n"))}</pre></details></div>`;
    default:
      return `<div class="msg other"><pre>${e(json(ev))}</pre></div>`;
  }
}

function assistantBlock(ev: Extract<TranscriptEvent, { type: "assistant" }>): string {
  const usage = ev.usage ? ` · ${ev.usage.inputTokens ?? "?"} in / ${ev.usage.outputTokens ?? "?"} out` : "";
  const who = `assistant · step ${ev.step} · turn ${ev.turn} · stop ${e(ev.stopReason)}${usage}${ev.latencyMs !== undefined ? ` · ${fmtMs(ev.latencyMs)}` : ""}${(ev.attempts ?? 1) > 1 ? ` · ${ev.attempts} attempts` : ""}`;
  const reasoning = ev.reasoning?.length
    ? `<details class="reasoning"><summary>reasoning</summary><pre>${e(ev.reasoning.map((x) => x.text ?? (x.redacted !== undefined ? "(redacted reasoning)" : "")).join("\n\n"))}</pre></details>`
    : "";
  const text =
    ev.text.trim() !== ""
      ? `<pre>${e(ev.text)}</pre>`
      : ev.toolCalls.length
        ? ""
        : `<p class="empty">(empty answer)</p>`;
  const calls = ev.toolCalls.map(
    (c) =>
      `<div class="call"><span class="who">tool call</span> <code>${e(c.name)}</code> <span class="small">${e(c.id)}${c.argumentsEncoding ? ` · arguments ${e(c.argumentsEncoding)}` : ""}</span><pre>${e(typeof c.arguments === "string" ? c.arguments : json(c.arguments))}</pre></div>`,
  );
  const unusable = ev.unusable ? `<p class="err">unreadable tool call: ${e(ev.unusable)}</p>` : "";
  const adj = ev.adjustments?.length
    ? `<ul class="small">${ev.adjustments.map((a) => `<li>${e(a)}</li>`).join("")}</ul>`
    : "";
  const sent = ev.sent ? `<p class="small">sent: <code>${e(JSON.stringify(ev.sent))}</code></p>` : "";
  return `<div class="msg assistant"><div class="who">${who}</div>${reasoning}${text}${calls.join("")}${unusable}${adj}${sent}</div>`;
}

function toolBlock(ev: Extract<TranscriptEvent, { type: "tool" }>): string {
  const parts = [`result of <code>${e(ev.tool)}</code>`, e(ev.callId)];
  if (ev.skill) parts.push(e(resultLabel(ev.skill)));
  if (ev.permission) parts.push(`${e(ev.permission.decision)} (${e(ev.permission.rule)})`);
  if (ev.bash)
    parts.push(
      `exit ${ev.bash.exitCode === null ? "not run" : ev.bash.exitCode}${ev.bash.timedOut ? " · timed out" : ""}${ev.bash.truncated ? " · truncated" : ""}`,
    );
  if (ev.isError) parts.push(`<span class="o error">error</span>`);
  if (ev.malformed) parts.push(`not run: ${e(ev.malformed)}`);
  return `<div class="msg tool${ev.isError ? " iserr" : ""}"><div class="who">${parts.join(" · ")}</div><pre>${e(ev.output)}</pre></div>`;
}
