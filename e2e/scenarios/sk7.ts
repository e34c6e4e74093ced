// SK7 argument-passing: the skill declares named arguments; the model calls skill({name, arguments: {path}}) with
// the right shape on the first try (a string, or a wrong key, is the characteristic mistake), then follows the body.
// Ground truth per trial: which lines of src/app.js hold a TODO and what they say, and a token in the body's last line.
import { isAbsolute, relative } from "node:path";
import { loadedBody, read, say, skill, type Scenario } from "../scenario.ts";
import { inputField, resultLabel } from "../transcript.ts";
import { activationAttempts, answerOf, fail, mentions, pass, show, showCall, trustedConfig } from "./common.ts";
import { TrialValues, fillTemplates } from "./nonce.ts";

const SKILL = "audit-file";
const FILE = "src/app.js";

export function sk7Values(workspace: string) {
  const v = new TrialValues(workspace);
  const [a, b, c] = v.words("todos", 3) as [string, string, string];
  const lines = [
    "export function start(port) {",
    ...(v.int("first", 0, 1) ? ["  const config = load();"] : []),
    `  // TODO: read the ${a} port from the environment`,
    "  listen(port);",
    "}",
    "",
    "function listen(port) {",
    `  // TODO: handle ${b} errors`,
    ...(v.int("third", 0, 1) ? [`  // TODO: log the ${c} address`] : []),
    "  console.info(`listening on ${port}`);",
    "}",
  ];
  const todos = lines.map((l, i) => ({ line: i + 1, text: l })).filter((x) => x.text.includes("TODO"));
  const words = todos.map((x) => /the (\w+)|handle (\w+)/.exec(x.text)!.slice(1).find(Boolean)!);
  return { APP: lines.join("\n"), TOKEN: v.hex("audited"), todos: todos.map((x, i) => ({ ...x, word: words[i]! })) };
}

/**
 * Whether the answer lists a TODO with its line number: a line of the answer names the TODO (its per-trial word) and
 * carries the number, on that line or the one above (`- L3: …`, `| 3 | … |`, `**Line 3**` over a code line). Digits
 * elsewhere (the audited token, other counts) do not stand in for the number.
 */
function listsTodo(answer: string, d: { line: number; word: string }, token: string): boolean {
  const lines = answer.split("\n").map((l) => l.split(token).join(" "));
  const num = new RegExp(`(?<![0-9])${d.line}(?![0-9])`);
  return lines.some((l, i) => mentions(l, d.word) && (num.test(l) || (i > 0 && num.test(lines[i - 1]!))));
}

/** Line numbers given together ("TODOs on lines 3, 8 and 9", "Lines: 3, 8, 9"), the texts listed apart. */
function groupedLines(answer: string, token: string): number[] {
  const out: number[] = [];
  for (const m of answer
    .split(token)
    .join(" ")
    .matchAll(/\blines?\W{0,3}(\d+(?:\s*(?:,|and|&)\s*\d+)+)/gi))
    out.push(...m[1]!.split(/\D+/).filter(Boolean).map(Number));
  return out;
}

export const SK7: Scenario = {
  id: "SK7",
  title: "argument-passing",
  spec: 'skill declares named arguments; model calls skill({name, arguments: {path: "..."}}) with correct shape.',
  fixture: "SK7-arguments",
  skillRoots: [".skills"],
  config: trustedConfig,
  async setup(ws) {
    const { APP, TOKEN } = sk7Values(ws);
    fillTemplates(ws, { APP, TOKEN });
  },
  prompts: [`Use the audit-file skill to check ${FILE} for leftover TODO comments.`],
  maxSteps: 8,
  check(t) {
    const x = sk7Values(t.meta.workspace);
    const first = activationAttempts(t, SKILL)[0];
    if (!first) return fail(`never called ${SKILL}`);
    if (first.tool !== "skill")
      return fail(`called a tool that does not exist instead of the skill tool: ${showCall(first)}`);
    const args = inputField(first.input, "arguments");
    if (args === undefined)
      return fail(`called ${SKILL} without arguments: skill(${show(first.input)}) → ${resultLabel(first.skill)}`);
    if (typeof args === "string")
      return fail(
        `passed a string to a named-argument skill: skill(${show(first.input)}) → ${resultLabel(first.skill)}`,
      );
    if (!args || typeof args !== "object" || Array.isArray(args))
      return fail(`arguments is not an object: skill(${show(first.input)})`);
    const path = (args as Record<string, unknown>)["path"];
    if (typeof path !== "string")
      return fail(
        `used the wrong argument name: skill(${show(first.input)}) → ${resultLabel(first.skill)} (declared: path)`,
      );
    const norm = isAbsolute(path) ? relative(t.meta.cwd, path) : path.replace(/^(\.\/)+/, "");
    if (norm !== FILE) return fail(`passed the wrong file: path=${JSON.stringify(path)} (expected ${FILE})`);
    if (first.skill?.kind !== "ok") return fail(`called with the right shape but got ${resultLabel(first.skill)}`);
    const answer = answerOf(t, 1, [first]);
    const grouped = groupedLines(answer, x.TOKEN);
    const missed = x.todos.filter(
      (d) => !(listsTodo(answer, d, x.TOKEN) || (grouped.includes(d.line) && mentions(answer, d.word))),
    );
    if (missed.length)
      return fail(
        `activated with the right arguments but the final answer misses TODO line(s) ${missed.map((d) => d.line).join(", ")} (number and text)`,
      );
    if (!(mentions(answer, `audited: ${FILE}`) || mentions(answer, `audited: ${path}`)) || !answer.includes(x.TOKEN)) {
      return fail(`listed the TODOs but did not end with the body's "audited: ${FILE} (${x.TOKEN})" line`);
    }
    return pass(
      `called ${SKILL} with arguments ${show(args)} on the first try and followed it (${x.todos.length} TODO lines)`,
    );
  },
  good(v) {
    if (v.step === 0) return skill({ name: SKILL, arguments: { path: FILE } });
    if (v.step === 1) return read(FILE);
    const token = /`(audited: [^`]+)`/.exec(loadedBody(v.exchanges))?.[1] ?? "";
    const todos = (v.exchanges[1]?.output ?? "")
      .split("\n")
      .map((l, i) => [i + 1, l] as const)
      .filter(([, l]) => l.includes("TODO"));
    return say(`${todos.map(([n, l]) => `line ${n}: ${l.trim()}`).join("\n")}\n${token}`);
  },
  bad: {
    "string-args": {
      mistake: "passes the path as a string to a skill that declares named arguments",
      play(v) {
        if (v.step === 0) return skill({ name: SKILL, arguments: FILE });
        return say("The audit-file skill rejected the argument.");
      },
    },
    "wrong-key": {
      mistake: "passes an object with an undeclared key (file instead of path)",
      play(v) {
        if (v.step === 0) return skill({ name: SKILL, arguments: { file: FILE } });
        return say("The audit-file skill rejected the argument.");
      },
    },
  },
};
