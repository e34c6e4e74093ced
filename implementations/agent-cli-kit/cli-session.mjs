// The conversation under test, as a kit session: one CLI run per case. The CLI starts when the session is created;
// its first conversation turn is held, and the catalog is read from it (tools, system prompt, first messages). The
// kit's calls become the model's tool calls: the calls the kit makes together (in one tick: S16's batch) go out as
// one assistant turn with several tool_use blocks, as a model's parallel calls do; the harness runs them its own
// way, and each call's answer is read from the next turn the CLI sends (its tool result, and every message after
// it), in the order the harness lists them. A model cannot call again before the harness answers, so turns follow
// one another; nothing else is ordered, computed or retried here. close() ends the conversation with a text turn
// and waits for the CLI to exit; a network attempt seen during the run fails it there, loudly.
import { unobservedCall } from "../driver-kit/results.mjs";
import { PROVIDERS } from "./fake-server.mjs";
import { startRun } from "./run.mjs";

const EXIT_WAIT_MS = 30_000;

function describeExit(ex) {
  const tail = (s) => (s ?? "").trim().split("\n").slice(-8).join("\n");
  return `the CLI exited (code ${ex.code}${ex.signal ? `, signal ${ex.signal}` : ""}); stderr: ${tail(ex.stderr) || "(empty)"}; stdout: ${tail(ex.stdout).slice(-1500) || "(empty)"}`;
}

/**
 * spec: the run (startRun's spec). harness: {toolName, catalog(body, run), answer({params, id, result, following,
 * body}), input(params) (default: params as given), play(params) and unplayed(params) (a call the harness offers
 * no way to make is not sent; unplayed answers it, with driver-kit's unobservedCall: K120, never a made-up result),
 * cleanup()}. Returns the kit's session {catalog, call, close}.
 */
export function cliSession(spec, harness) {
  const api = PROVIDERS[spec.provider].api;
  const run = startRun(spec);
  // The turn the CLI sent and the model has not answered yet; `arrived` says whether it has come (close() stops a CLI
  // whose turn never came: the kit gave up on it at its deadline, e.g. S24's FIFO holds the CLI before its request).
  let held, arrived;
  const hold = () => {
    arrived = false;
    held = run.turns.next();
    held.then(() => (arrived = true));
  };
  hold();
  let chain = Promise.resolve();
  let batch = null;
  let n = 0;
  const prefix = spec.provider === "anthropic" ? "toolu_kit" : "call_kit";

  async function heldTurn() {
    const t = await held;
    if (!t) throw new Error(`no conversation turn to answer: ${describeExit(await run.exit)}`);
    return t;
  }

  async function play(all) {
    // A call the harness offers no way to make (harness.play says no, e.g. a name Codex does not list) is not sent.
    const calls = harness.play ? all.filter((c) => harness.play(c.params)) : all;
    const unplayed = all.filter((c) => !calls.includes(c));
    try {
      if (calls.length) await playTurn(calls);
    } finally {
      for (const c of unplayed) c.resolve(harness.unplayed(c.params));
    }
  }

  async function playTurn(calls) {
    const turn = await heldTurn();
    run.reply(turn.seq, {
      calls: calls.map((c) => ({
        id: c.id,
        name: harness.toolName,
        input: harness.input ? harness.input(c.params) : c.params,
      })),
    });
    hold();
    const next = await held;
    if (!next) throw new Error(`the CLI sent no turn after the tool call(s): ${describeExit(await run.exit)}`);
    const { results, following } = api.answersTo(
      next.body,
      calls.map((c) => c.id),
    );
    // In the harness's order: the results as it listed them, then any call it left unanswered.
    const byId = new Map(calls.map((c) => [c.id, c]));
    const order = [...results.keys(), ...calls.map((c) => c.id).filter((id) => !results.has(id))];
    for (const id of order) {
      const c = byId.get(id);
      const result = results.get(id);
      if (!result) c.reject(new Error(`the harness sent no tool result for call ${id} (${JSON.stringify(c.params)})`));
      else {
        try {
          c.resolve(harness.answer({ params: c.params, id, result, following, body: next.body }));
        } catch (e) {
          c.reject(e);
        }
      }
    }
  }

  return {
    run,
    async catalog() {
      return harness.catalog((await heldTurn()).body, run);
    },
    call(params, options = {}) {
      const invocation = options.invocation ?? "model";
      // The kit plays the model; the user's own activation (a slash command, a mention) is typed at a prompt this
      // non-interactive run does not have. Not sent, never made up: K120, declared by each driver.
      if (invocation !== "model")
        return Promise.resolve(
          unobservedCall(
            "call.user-invocation",
            `a ${invocation}-initiated activation cannot be given to the CLI in the middle of a non-interactive run whose only other party is the model the kit plays`,
          ),
        );
      return new Promise((resolve, reject) => {
        if (!batch) {
          const mine = (batch = []);
          // Calls made in the same tick go out together, as one turn of parallel tool calls.
          chain = chain
            .then(() => new Promise((r) => setImmediate(r)))
            .then(() => {
              batch = null;
              return play(mine).catch((e) => mine.forEach((c) => c.reject(e)));
            });
        }
        batch.push({ id: `${prefix}_${++n}`, params, resolve, reject });
      });
    },
    async close() {
      // Closed with the CLI's turn still to come: the kit stopped waiting (its deadline passed). Stop the CLI, so each
      // pending call is answered (rejected: the CLI exited) at once, as PROTOCOL.md's session/close asks.
      if (!arrived) run.stop();
      // Bounded from here on: a turn sent in the same tick as close() that the CLI never answers cannot hold it.
      const timer = setTimeout(() => run.stop(), EXIT_WAIT_MS);
      await chain;
      const t = await held;
      if (t) run.reply(t.seq, { text: "Done." });
      const ex = await run.exit;
      clearTimeout(timer);
      harness.cleanup?.();
      // A harness's documented attempt that no switch turns off (spec.knownAttempts, each named in its README) is
      // reported; any other attempt voids the run (K31).
      const known = (a) => (spec.knownAttempts ?? []).some((k) => k.what === a.what && k.to === a.to);
      const seen = (list) => [...new Set(list.map((a) => `${a.what} ${a.to}`))].join(", ");
      const unknown = run.attempts.filter((a) => !known(a));
      if (unknown.length)
        throw new Error(`network: the CLI tried to reach beyond loopback (${seen(unknown)}); the run is void`);
      if (run.attempts.length && !process.env.AGENT_CLI_KIT_QUIET)
        process.stderr.write(`agent-cli-kit: refused known attempt(s): ${seen(run.attempts)}\n`);
      if (t && ex.code !== 0) process.stderr.write(`agent-cli-kit: ${describeExit(ex)}\n`);
    },
  };
}
