// Frontmatter inputs for the fuzzes (the fast path against the authority, reference/test/yaml-fuzz.ts; one
// implementation against another, conformance/parity-fuzz.ts): realistic seeds, the fixtures' own frontmatter,
// mutations with the characters that make YAML subtle (Unicode and ASCII whitespace, control characters, every
// indicator, YAML 1.1 and contract-refused tokens) and a small grammar. Deterministic for a seeded Rng.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { dataPath } from "../../package-root.ts";
import { int, pick, type Rng } from "./seeded-random.ts";

/** Realistic frontmatter as Claude Code and agentskills.io skills write it. */
export const SEEDS = [
  "name: pdf-tools\ndescription: Extract text and tables from PDF files, fill forms, merge documents. Use when working with PDFs.\nlicense: Apache-2.0\n",
  "name: apk-audit\ndescription: Audit an Android APK: permissions, exported components, hard-coded secrets.\nargument-hint: [apk-file-or-directory]\nallowed-tools: Bash(unzip:*), Read, Grep\n",
  "name: commit-helper\ndescription: >\n  Write a conventional commit message from the staged diff.\n  Use when the user asks to commit.\nallowed-tools:\n  - Bash(git diff:*)\n  - Bash(git commit:*)\ndisable-model-invocation: true\n",
  "name: review\ndescription: |\n  Review a pull request.\n\n  Checks style, tests and docs.\nversion: 1.0\nlicense:\nmetadata:\n  author: platform-team\n  tags: [review, github]\n  short-description: PR review\n",
  '# Skill for the API\nname: api-conventions\ndescription: "Use when designing or auditing HTTP APIs: paths, envelopes, errors."\nversion: "1.2.0"\ncompatibility: any node runtime\nuser-invocable: true\n',
  "name: audit-file\ndescription: 'Audit one file, it''s quick.'\narguments:\n  path:\n    type: string\n    required: true\n    description: The file to audit\n  mode:\n    type: string\n",
  "name: translate\ndescription: Translate text between languages — 日本語, français, Ελληνικά.\nmetadata:\n  languages:\n    - ja\n    - fr\n  owner: i18n\nhooks:\n  PreToolUse: echo hi\n",
  "name: deploy\ndescription: Deploy the service to staging; never to prod without approval # not a comment?\nmodel: claude-opus-4\ncontext: fork\neffort: high\nagent: general\n",
  'name: notes\ndescription: >-\n  Keep meeting notes.\n  Summarise action items.\nallowed-tools: [Read, Write, "Bash(date:*)"]\n',
  "name: x\ndescription: Short.\nanchors: &base\n  a: 1\nderived: *base\nempty: {}\nnone: []\nn: ~\nhex: 0x1F\nf: 1e3\n",
];

const UNICODE_WS = [
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u2003",
  "\u2007",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
  "\u0085",
  "\u180e",
  "\u200b",
];
const CONTROLS = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat(["\x7f", "\x80", "\x9f"]);
const INDICATORS = [..."-?:,[]{}#&*!|>'\"%@`"];
const OTHER = [
  " ",
  " ",
  " ",
  "\t",
  "\n",
  "\n",
  "\\",
  ".",
  "~",
  "0",
  "1",
  "e",
  "x",
  "é",
  "😀",
  "\ud800",
  "\ufffe",
  "\uffff",
];
const ALPHABET = [...UNICODE_WS, ...CONTROLS, ...INDICATORS, ...INDICATORS, ...OTHER];
const TOKENS = [
  "true",
  "False",
  "null",
  "~",
  "1.0",
  "0x1f",
  "0o17",
  ".inf",
  "-.Inf",
  ".nan",
  "yes",
  "1e400",
  "12345678901234567890",
  "-0",
  "&a ",
  "*a",
  "!!str ",
  "!!set ",
  "!!binary ",
  "!!timestamp ",
  "! ",
  "- ",
  "? ",
  ": ",
  "#",
  " #",
  "---",
  "--- x",
  "...",
  "|",
  "|-",
  "|+",
  ">",
  ">-",
  "|2",
  '"',
  "'",
  "\\u00e9",
  "\\uD800",
  "%YAML 1.1",
  "<<: *a",
  "__proto__",
  "[",
  "]",
  "{",
  "}",
  "[a, b]",
  "{a: b}",
  '"\\t"',
  "2024-01-01",
];

/** One random edit of `text`: characters or tokens inserted, deleted or replaced, a line doubled, dropped, shifted or given a new value, or the text cut. */
export function mutate(rng: Rng, text: string): string {
  const lines = text.split("\n");
  const pos = int(rng, text.length + 1);
  switch (int(rng, 11)) {
    case 0:
    case 1:
    case 2: {
      let ins = "";
      for (let k = 1 + int(rng, 3); k > 0; k--) ins += pick(rng, ALPHABET);
      return text.slice(0, pos) + ins + text.slice(pos);
    }
    case 3:
      return text.slice(0, pos) + pick(rng, TOKENS) + text.slice(pos);
    case 4:
      return text.slice(0, pos) + text.slice(pos + 1 + int(rng, 4));
    case 5:
      return text.slice(0, pos) + pick(rng, ALPHABET) + text.slice(pos + 1);
    case 6: {
      const i = int(rng, lines.length);
      lines.splice(i, 0, lines[i] ?? "");
      return lines.join("\n");
    }
    case 7: {
      lines.splice(int(rng, lines.length), 1);
      return lines.join("\n");
    }
    case 8: {
      const i = int(rng, lines.length);
      lines[i] = rng() < 0.5 ? ` ${lines[i]}` : (lines[i] ?? "").replace(/^ /, "");
      return lines.join("\n");
    }
    case 9: {
      // a value replaced by a token or a Unicode-space-wrapped word
      const i = int(rng, lines.length);
      const l = lines[i] ?? "";
      const c = l.indexOf(": ");
      if (c >= 0)
        lines[i] =
          `${l.slice(0, c + 2)}${rng() < 0.5 ? pick(rng, TOKENS) : `${pick(rng, UNICODE_WS)}word${pick(rng, UNICODE_WS)}`}`;
      return lines.join("\n");
    }
    default:
      return text.slice(0, pos);
  }
}

const GEN_KEYS = [
  "name",
  "description",
  "allowed-tools",
  "metadata",
  "version",
  "argument-hint",
  "license",
  "x_y",
  "True",
  "a-b",
  "__proto__",
  "k",
];
function word(rng: Rng): string {
  let s = "";
  for (let k = int(rng, 10); k > 0; k--) s += rng() < 0.7 ? pick(rng, [..."abcxyz09 é-_."]) : pick(rng, ALPHABET);
  return s;
}
function inlineValue(rng: Rng): string {
  switch (int(rng, 6)) {
    case 0:
      return `"${word(rng)}"`;
    case 1:
      return `'${word(rng)}'`;
    case 2:
      return `[${Array.from({ length: int(rng, 4) }, () => word(rng)).join(", ")}]`;
    case 3:
      return pick(rng, TOKENS);
    default:
      return word(rng);
  }
}
/** A document from a small grammar of keys, inline values, block scalars, nested blocks and stray lines. */
export function generated(rng: Rng): string {
  const out: string[] = [];
  for (let e = 1 + int(rng, 6); e > 0; e--) {
    const key = pick(rng, GEN_KEYS);
    const r = int(rng, 10);
    if (r < 5) out.push(`${key}: ${inlineValue(rng)}`);
    else if (r < 7) {
      const n = 1 + int(rng, 3);
      const body = Array.from({ length: int(rng, 4) }, () => (rng() < 0.2 ? "" : " ".repeat(n) + word(rng)));
      out.push(`${key}: ${pick(rng, ["|", "|-", ">", ">-", "|+"])}\n${body.join("\n")}`);
    } else if (r < 9) {
      const n = 1 + int(rng, 3);
      const list = rng() < 0.5;
      const body = Array.from(
        { length: 1 + int(rng, 3) },
        () => " ".repeat(n) + (list ? `- ${inlineValue(rng)}` : `${pick(rng, GEN_KEYS)}: ${inlineValue(rng)}`),
      );
      out.push(`${key}:\n${body.join("\n")}`);
    } else out.push(pick(rng, ["# comment", "", "  stray", "key:value", "k:  v", word(rng)]));
  }
  return `${out.join("\n")}\n`;
}

/** The YAML between the fences of every SKILL.md under fixtures/: more realistic seeds. */
export function fixtureSeeds(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(p);
      else if (n === "SKILL.md" && st && st.size < 64 * 1024) {
        const m = /^---\r?\n([\s\S]*?)\n---/.exec(readFileSync(p, "utf8"));
        if (m?.[1]) out.push(`${m[1]}\n`);
      }
    }
  };
  try {
    walk(dataPath("fixtures"));
  } catch {
    // no fixtures: the built-in seeds suffice
  }
  return out;
}
