// Progress on stderr while trials run: a redrawn bar on a TTY, plain one-line-per-trial output otherwise (CI logs).
// Owns: Progress.
import type { TrialResult } from "./score.ts";

export class Progress {
  private total = 0;
  private counts = { pass: 0, fail: 0, inconclusive: 0, error: 0 };
  private readonly tty: boolean;
  private readonly started = Date.now();

  constructor(private readonly out: NodeJS.WriteStream = process.stderr, tty?: boolean) {
    this.tty = tty ?? out.isTTY === true;
  }

  start(total: number): void {
    this.total = total;
    if (!this.tty) this.out.write(`running ${total} trials\n`);
    else this.draw(0, "");
  }

  result(r: TrialResult, done: number): void {
    this.counts[r.outcome]++;
    const label = `${r.scenario} × ${r.model} #${r.trial}`;
    if (this.tty) this.draw(done, `${label}: ${r.outcome}`);
    else this.out.write(`[${done}/${this.total}] ${label}: ${r.outcome}${r.outcome === "pass" ? "" : ` — ${r.reason}`}\n`);
  }

  finish(): void {
    if (this.tty) this.out.write("\n");
  }

  private draw(done: number, last: string): void {
    const width = 24;
    const filled = this.total ? Math.round((done / this.total) * width) : width;
    const secs = Math.round((Date.now() - this.started) / 1000);
    const line = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${this.total}  pass ${this.counts.pass} fail ${this.counts.fail} inc ${this.counts.inconclusive} err ${this.counts.error}  ${secs}s  ${last}`;
    const cols = this.out.columns ?? 120;
    this.out.write(`\r\x1b[2K${line.slice(0, cols - 1)}`);
  }
}
