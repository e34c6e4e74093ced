// SK7 argument-passing: the skill declares named arguments; the model calls skill({name, arguments: {path}}) with
// the right shape on the first try (a string, or a wrong key, is the characteristic mistake).
import { isAbsolute, relative } from "node:path";
import { read, say, skill, type Scenario } from "../scenario.ts";
import { inputField, inputName, resultLabel } from "../transcript.ts";
import { answerOf, fail, pass, show, trustedConfig } from "./common.ts";

const SKILL = "audit-file";
const FILE = "src/app.js";

export const SK7: Scenario = {
  id: "SK7",
  title: "argument-passing",
  spec: 'skill declares named arguments; model calls skill({name, arguments: {path: "..."}}) with correct shape.',
  fixture: "SK7-arguments",
  skillRoots: [".skills"],
  config: trustedConfig,
  prompts: [`Use the audit-file skill to check ${FILE} for leftover TODO comments.`],
  maxSteps: 8,
  check(t) {
    const calls = t.skillCalls().filter((e) => inputName(e.input) === SKILL);
    const first = calls[0];
    if (!first) return fail(`never called ${SKILL}`);
    const args = inputField(first.input, "arguments");
    if (args === undefined) return fail(`called ${SKILL} without arguments: skill(${show(first.input)})`);
    if (typeof args === "string") return fail(`passed a string to a named-argument skill: skill(${show(first.input)}) → ${resultLabel(first.skill)}`);
    if (!args || typeof args !== "object" || Array.isArray(args)) return fail(`arguments is not an object: skill(${show(first.input)})`);
    const path = (args as Record<string, unknown>)["path"];
    if (typeof path !== "string") return fail(`used the wrong argument name: skill(${show(first.input)}) → ${resultLabel(first.skill)} (declared: path)`);
    const norm = isAbsolute(path) ? relative(t.meta.cwd, path) : path.replace(/^\.\//, "");
    if (norm !== FILE) return fail(`passed the wrong file: path=${JSON.stringify(path)} (expected ${FILE})`);
    if (first.skill?.kind !== "ok") return fail(`called with the right shape but got ${resultLabel(first.skill)}`);
    if (!answerOf(t, 1).includes("audited:")) return fail("activated with the right arguments but did not follow the body (no 'audited:' line)");
    return pass(`called ${SKILL} with arguments ${show(args)} on the first try and followed it`);
  },
  good(v) {
    if (v.step === 0) return skill({ name: SKILL, arguments: { path: FILE } });
    if (v.step === 1) return read(FILE);
    const todos = (v.exchanges[1]?.output ?? "")
      .split("\n")
      .map((l, i) => [i + 1, l] as const)
      .filter(([, l]) => l.includes("TODO"));
    return say(`${todos.map(([n, l]) => `line ${n}: ${l.trim()}`).join("\n")}\naudited: ${FILE}`);
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
