// Progress on stderr while trials run: a redrawn status on a TTY, plain lines otherwise (CI logs). Shows per-model
// progress with an ETA, counts by outcome (whatever outcomes exist), and every model call that has been waiting
// longer than the stall threshold — while it is stalled, with its attempt and last error when it is retrying.
// Owns: Progress.
import type { TrialWatch } from "./loop.ts";
import type { Job, RunResult } from "./run.ts";

interface InFlight {
  label: string;
  since: number;
  step: number;
  attempt: number;
  lastError?: string;
  /** Stall reports made so far on a non-TTY (one per threshold crossed). */
  reported: number;
}

interface ModelProgress {
  total: number;
  done: number;
  /** Durations of trials actually run (resumed ones cost nothing and would skew the ETA). */
  ranMs: number[];
}

export interface ProgressOptions {
  tty?: boolean;
  /** A model call waiting longer than this is shown as stalled (default 60 s). */
  stallMs?: number;
  /** Trials of this model in flight at once (its provider's concurrency), for the ETA. */
  concurrencyOf?: (model: string) => number;
  now?: () => number;
  /** Redraw/check interval; 0 = no timer (tests call tick()). */
  tickMs?: number;
}

export class Progress {
  private total = 0;
  private done = 0;
  private readonly counts = new Map<string, number>();
  private readonly models = new Map<string, ModelProgress>();
  private readonly inFlight = new Set<InFlight>();
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly started: number;
  private readonly stallMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private last = "";

  constructor(
    private readonly out: { write(s: string): boolean; isTTY?: boolean; columns?: number } = process.stderr,
    private readonly o: ProgressOptions = {},
  ) {
    this.tty = o.tty ?? out.isTTY === true;
    this.now = o.now ?? Date.now;
    this.started = this.now();
    this.stallMs = o.stallMs ?? 60_000;
  }

  start(total: number, jobs: readonly Job[] = []): void {
    this.total = total;
    for (const j of jobs) {
      const m = this.models.get(j.provider.id) ?? { total: 0, done: 0, ranMs: [] };
      m.total++;
      this.models.set(j.provider.id, m);
    }
    if (!this.tty)
      this.out.write(
        `running ${total} trials${this.models.size > 1 ? ` (${[...this.models].map(([id, m]) => `${id} ${m.total}`).join(", ")})` : ""}\n`,
      );
    else this.draw();
    const every = this.o.tickMs ?? 1000;
    if (every > 0) {
      this.timer = setInterval(() => this.tick(), every);
      this.timer.unref?.();
    }
  }

  /** The watcher the loop reports one trial's model calls to. */
  watch(job: Job): TrialWatch {
    const label = `${job.scenario.id} × ${job.provider.id} #${job.trial}`;
    let current: InFlight | undefined;
    return {
      callStarted: (step) => {
        current = { label, since: this.now(), step, attempt: 1, reported: 0 };
        this.inFlight.add(current);
      },
      callRetrying: (info) => {
        if (!current) return;
        current.attempt = info.attempt + 1;
        current.lastError = info.error.split("\n")[0]!.slice(0, 120);
        if (!this.tty)
          this.out.write(
            `  retrying ${label} step ${current.step} (attempt ${current.attempt} in ${Math.round(info.delayMs / 1000)}s): ${current.lastError}\n`,
          );
      },
      callEnded: () => {
        if (current) this.inFlight.delete(current);
        current = undefined;
      },
    };
  }

  result(r: RunResult, done: number): void {
    this.done = done;
    this.counts.set(r.outcome, (this.counts.get(r.outcome) ?? 0) + 1);
    const m = this.models.get(r.model);
    if (m) {
      m.done++;
      if (!r.resumed && r.durationMs !== undefined) m.ranMs.push(r.durationMs);
    }
    const label = `${r.scenario} × ${r.model} #${r.trial}`;
    if (this.tty) this.draw(`${label}: ${r.outcome}`);
    else
      this.out.write(
        `[${done}/${this.total}] ${label}: ${r.outcome}${r.resumed ? " (resumed)" : ""}${r.outcome === "pass" ? "" : ` — ${r.reason}`}${this.etaSuffix(r.model)}\n`,
      );
  }

  /** Called every second: redraws on a TTY; on a plain stream, reports each call that crossed a stall threshold. */
  tick(): void {
    if (this.tty) return this.draw();
    for (const f of this.inFlight) {
      const waited = this.now() - f.since;
      const due = Math.floor(waited / this.stallMs);
      if (due > f.reported) {
        f.reported = due;
        this.out.write(`  stalled: ${this.describe(f)}\n`);
      }
    }
  }

  /** Calls waiting longer than the stall threshold, oldest first, as shown. */
  stalled(): string[] {
    return [...this.inFlight]
      .filter((f) => this.now() - f.since >= this.stallMs)
      .sort((a, b) => a.since - b.since)
      .map((f) => this.describe(f));
  }

  finish(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.tty) this.out.write("\n");
  }

  private describe(f: InFlight): string {
    const secs = Math.round((this.now() - f.since) / 1000);
    return `${f.label} step ${f.step}: waiting ${secs}s for the model${f.attempt > 1 ? ` (attempt ${f.attempt}; last: ${f.lastError ?? "?"})` : ""}`;
  }

  /** Remaining trials × mean run trial time ÷ trials in flight; unknown until one trial of the model has run. */
  eta(model: string): number | undefined {
    const m = this.models.get(model);
    if (!m || m.ranMs.length === 0) return undefined;
    const mean = m.ranMs.reduce((a, b) => a + b, 0) / m.ranMs.length;
    return ((m.total - m.done) * mean) / Math.max(1, this.o.concurrencyOf?.(model) ?? 1);
  }

  private etaSuffix(model: string): string {
    const m = this.models.get(model);
    const eta = this.eta(model);
    return m && m.done < m.total && eta !== undefined
      ? ` (${model}: ${m.done}/${m.total}, ETA ${fmtDuration(eta)})`
      : "";
  }

  private draw(last = this.last): void {
    this.last = last;
    const width = 20;
    const filled = this.total ? Math.round((this.done / this.total) * width) : width;
    const counts = [...this.counts].map(([k, v]) => `${k} ${v}`).join(" ");
    const models = [...this.models].map(([id, m]) => {
      const eta = this.eta(id);
      return `${id} ${m.done}/${m.total}${m.done < m.total && eta !== undefined ? ` ETA ${fmtDuration(eta)}` : ""}`;
    });
    const secs = Math.round((this.now() - this.started) / 1000);
    const stalled = this.stalled();
    const line = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${this.done}/${this.total} ${counts} ${secs}s | ${models.join(" | ")}${stalled.length ? ` | STALLED ${stalled[0]}${stalled.length > 1 ? ` (+${stalled.length - 1})` : ""}` : last ? ` | ${last}` : ""}`;
    const cols = this.out.columns ?? 160;
    this.out.write(`\r\x1b[2K${line.slice(0, cols - 1)}`);
  }
}

export function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
