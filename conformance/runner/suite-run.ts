// Owns running a suite's cases over lanes of implementations (index.ts runSuite builds the report around it): each
// lane opens its own implementation when it first needs one, and again after a case that errored; the run's first
// open is awaited by the other lanes, so a target that cannot be opened ends the run at its first case; a case
// in-process that left work running ends the run too (that work cannot be stopped, and would touch the next case).
// Either way the cases that never started are errored as not run, in case order with the rest.
import { isAbsolute, relative } from "node:path";
import { userCwd } from "../../package-root.ts";
import type { Implementation } from "../../schemas/implementation.ts";
import { runCase } from "./case.ts";
import { ImplFault, faultOf } from "./faults.ts";
import type { LoadedCase } from "./load.ts";
import { rulesOfCase, type Profile } from "./rules.ts";
import { runLanes, startOrder } from "./schedule.ts";
import type { CaseResult, RunAbort } from "./types.ts";

export interface LaneOptions {
  profile: Profile;
  /** The command line that reruns this run's target; each failed or errored case gets it with its filter. */
  rerun: string;
  timeoutMs?: number;
  jobs?: number;
  handshakeMs?: number;
  onResult?: (r: CaseResult) => void;
}

async function safeDispose(i: Implementation | undefined): Promise<void> {
  if (!i) return;
  try {
    await i.dispose();
  } catch {
    // disposing is best effort; the next case opens a fresh implementation
  }
}

/** Where a failure can be read and rerun: the case file (relative to the user's directory) and the command. */
function locate(r: CaseResult, c: LoadedCase, rerun: string): CaseResult {
  if (r.status !== "failed" && r.status !== "errored" && r.status !== "expected_failure") return r;
  const rel = relative(userCwd(), c.file);
  const file = rel.startsWith("..") || isAbsolute(rel) ? c.file : rel;
  return { ...r, file, rerun: `${rerun} --suite ${c.suite} --filter ${c.id}` };
}

export class SuiteRun {
  /** By case index: a report lists cases in case order whatever order they finished in (schedule.ts). */
  private readonly slots: (CaseResult | undefined)[];
  /** Each lane its own implementation (one lane: the run as it always was). */
  private readonly lanes: (Implementation | undefined)[] = [];
  private info: Implementation["info"] | undefined;
  private aborted: RunAbort | undefined;
  /** What the cases that never started say, once the run ended early. */
  private notRunReason: { reason: string; blame: CaseResult["blame"] } | undefined;
  private handshakeMs: number | undefined;
  private firstOpen: Promise<Implementation | ImplFault> | undefined;
  private started = 0;

  constructor(
    private readonly open: () => Promise<Implementation>,
    private readonly cases: readonly LoadedCase[],
    private readonly opts: LaneOptions,
  ) {
    this.slots = new Array(cases.length);
    this.handshakeMs = opts.handshakeMs;
  }

  /** Every case's result in case order, the implementation's info (from its first open) and how the run ended early. */
  async runAll(): Promise<{ results: CaseResult[]; info: Implementation["info"] | undefined; aborted?: RunAbort }> {
    const jobs = Math.max(1, Math.floor(this.opts.jobs ?? 1));
    try {
      await runLanes(
        startOrder(this.cases, jobs),
        jobs,
        (k, lane) => this.runAt(k, lane),
        () => this.aborted !== undefined,
      );
      if (!this.info && !this.aborted) {
        const o = await this.tryOpen();
        if (!(o instanceof ImplFault)) this.lanes[0] = o;
      }
    } finally {
      await Promise.all(this.lanes.map(safeDispose));
    }
    const results = Array.from(this.slots, (r, k) => r ?? this.notRun(this.cases[k]!));
    if (this.aborted) this.aborted.not_run += this.slots.length - this.slots.filter(Boolean).length;
    return { results, info: this.info, ...(this.aborted ? { aborted: this.aborted } : {}) };
  }

  private async tryOpen(): Promise<Implementation | ImplFault> {
    try {
      const i = await this.open();
      this.info ??= i.info;
      return i;
    } catch (e) {
      return faultOf(e, "opening the implementation");
    }
  }

  private errored(c: LoadedCase, reason: string, extra: Partial<CaseResult> = {}): CaseResult {
    const r: CaseResult = {
      id: c.id,
      title: c.title,
      spec: [...c.spec],
      rules: [...(c.rules ?? [])],
      checked_rules: rulesOfCase(c),
      status: "errored",
      duration_ms: 0,
      reason,
      ...extra,
    };
    return locate(r, c, this.opts.rerun);
  }

  /** A case that never started, once the run ended early. */
  private notRun(c: LoadedCase): CaseResult {
    const { reason, blame } = this.notRunReason!;
    return this.errored(c, `not run: ${reason}`, blame ? { blame } : {});
  }

  private record(r: CaseResult, k: number): void {
    const located = locate(r, this.cases[k]!, this.opts.rerun);
    this.slots[k] = located;
    this.opts.onResult?.(located);
  }

  /** The run ends early: no further case starts. `own`: the case at which it ended counts as not run too. */
  private end(a: Omit<RunAbort, "not_run">, rest: { reason: string; blame: CaseResult["blame"] }, own: 0 | 1): void {
    this.aborted = { ...a, not_run: own };
    this.notRunReason = rest;
  }

  /**
   * The lane's implementation, opened now when it has none: undefined when it could not be (the run ends here, or
   * already ended on another lane). `openMs`: how long this case waited for it.
   */
  private async laneImpl(k: number, lane: number): Promise<{ impl?: Implementation; openMs: number }> {
    const existing = this.lanes[lane];
    if (existing) return { impl: existing, openMs: 0 };
    const c = this.cases[k]!;
    const t = performance.now();
    const primedMs = this.handshakeMs;
    this.handshakeMs = undefined;
    // The run's first open is awaited by the other lanes before their own: a target that cannot be opened ends the
    // run at its first case, as with one job, instead of failing once per lane.
    let o: Implementation | ImplFault;
    if (!this.firstOpen) o = await (this.firstOpen = this.tryOpen());
    else if ((await this.firstOpen) instanceof ImplFault) return { openMs: 0 };
    else o = await this.tryOpen();
    const openMs = primedMs ?? performance.now() - t;
    if (!(o instanceof ImplFault)) {
      this.lanes[lane] = o;
      return { impl: o, openMs };
    }
    // Another lane ended the run meanwhile: this case was not run either (filled in at the end).
    if (this.aborted) return { openMs };
    const extra = { blame: o.blame, ...(o.stderr !== undefined ? { stderr: o.stderr } : {}) };
    // Said once, by onAbort: the case the attempt was for carries the fault, the rest say they were not run.
    this.slots[k] = this.errored(c, o.message, { ...extra, duration_ms: Math.round(openMs) });
    this.end(
      { reason: o.message, ...extra, at: c.id, after_ms: Math.round(openMs) },
      { reason: `the implementation could not be opened (at ${c.id})`, blame: o.blame },
      1,
    );
    return { openMs };
  }

  private async runAt(k: number, lane: number): Promise<void> {
    const c = this.cases[k]!;
    this.started++;
    const { impl, openMs } = await this.laneImpl(k, lane);
    if (!impl) return;
    const ran = await runCase(impl, c, {
      profile: this.opts.profile,
      ...(this.opts.timeoutMs === undefined ? {} : { timeoutMs: this.opts.timeoutMs }),
    });
    // The case waited for the implementation to open: its time says so.
    const r = { ...ran, duration_ms: ran.duration_ms + Math.round(openMs) };
    this.record(r, k);
    if (ran.leftover && !impl.isolated && this.started < this.cases.length && !this.aborted) {
      // In-process work cannot be stopped: running the next case beside it would let it touch that case.
      const reason = `case ${c.id} left ${ran.leftover.pending} call(s) running after close(), and in-process the kit cannot stop them: make close() answer pending calls (PROTOCOL.md), or run the implementation over stdio`;
      this.end(
        { reason, blame: "implementation", at: c.id, after_ms: ran.leftover.waited_ms },
        { reason, blame: "implementation" },
        0,
      );
      return;
    }
    if (r.status === "errored" || ran.status === "errored") {
      await safeDispose(impl);
      this.lanes[lane] = undefined;
    }
  }
}
