// docs/findings/<harness>.md: the reproduction script of a finding must make the very tree the kit's case makes
// (fixture copied, setup steps applied), or a maintainer upstream would be sent a repro of something else. Every
// case's script is run with sh and its tree compared with the runner's own, file by file, byte for byte.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findingsList, findingsPage, replaceBlock, setupLines, treeLines } from "../compat/findings.ts";
import type { CompatResult, ImplementationResult } from "../compat/types.ts";
import { loadCases } from "../runner/index.ts";
import { fixtureDir, prepareWorkspace } from "../runner/workspace.ts";

/**
 * path → what is there (a symlink's target with the tree's own dir as <T>, a file's hash, a dir). Names are read as
 * bytes (a case may make one that is not UTF-8, R140) and keyed by their hex, so a lossy decoding cannot match.
 */
function tree(dir: string, real = dir): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: Buffer, relHex: string): void => {
    for (const name of readdirSync(d, { encoding: "buffer" }).sort(Buffer.compare)) {
      const full = Buffer.concat([d, Buffer.from("/"), name]);
      const rel = `${relHex}/${name.toString("hex")}`;
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out[rel] = `-> ${readlinkSync(full).split(real).join("<T>").split(dir).join("<T>")}`;
      else if (st.isDirectory()) {
        out[rel] = `dir ${(st.mode & 0o777).toString(8)}`;
        if (st.mode & 0o100) walk(full, rel);
      } else if (st.isFIFO()) out[rel] = "fifo";
      else
        out[rel] =
          `file ${(st.mode & 0o777).toString(8)} ${createHash("sha256").update(readFileSync(full)).digest("hex").slice(0, 16)}`;
    }
  };
  walk(Buffer.from(dir), "");
  return out;
}

describe("finding reproductions", () => {
  it("make the same tree as the kit's case, for every case of every suite", () => {
    const diffs: string[] = [];
    for (const c of loadCases("all")) {
      const ws = prepareWorkspace(c.id, c.fixture, c.setup ?? [], c.suite);
      try {
        const script = [
          "set -eu",
          'T="$(mktemp -d)"',
          ...treeLines(fixtureDir(c.fixture, c.suite)),
          ...setupLines(c.setup ?? []),
          'echo "$T"',
        ].join("\n");
        const made = execFileSync("sh", ["-c", script], { encoding: "utf8", maxBuffer: 1 << 20 }).trim();
        try {
          const a = JSON.stringify(tree(ws.dir)),
            b = JSON.stringify(tree(made));
          if (a !== b) diffs.push(`${c.id}: kit ${a.slice(0, 300)} script ${b.slice(0, 300)}`);
        } finally {
          execFileSync("chmod", ["-R", "u+rwx", made]);
          rmSync(made, { recursive: true, force: true });
        }
      } finally {
        ws.cleanup();
      }
    }
    expect(diffs).toEqual([]);
  }, 120_000);
});

const impl: ImplementationResult = {
  id: "gemini-cli",
  name: "gemini-cli activate_skill",
  version: "0.61.0",
  language: "typescript",
  driver: "implementations/gemini-cli/driver.mjs",
  pins: { "@google/gemini-cli-core": "0.61.0" },
  status: "ran",
  cells: [],
  findings: [
    {
      rule: "name.matches-dir",
      level: "MUST",
      statement: "A name must match its directory.",
      cites: ["§4.1"],
      case: "U06",
      cases: ["U06", "S14"],
      at: "calls[0].kind",
      what: "wrong kind",
      expected: "error",
      actual: "ok",
      call: { name: "foo" },
    },
  ],
};
const result: CompatResult = {
  generated_at: "2026-12-05T00:00:00.000Z",
  kit: { version: "0.1.0", commit: "0123456789abcdef" },
  node: "v20",
  profiles: ["spec"],
  suites: [],
  implementations: [impl, { ...impl, id: "reference", findings: [] }],
  duration_ms: 1,
};

describe("findings pages and the README list", () => {
  it("a page names the rule, the spec section, the version, what was observed, the tree script and the exact command", () => {
    const page = findingsPage(result, impl)!;
    expect(page).toContain("### `name.matches-dir`");
    expect(page).toContain("- **Spec**: §4.1");
    expect(page).toContain("`@google/gemini-cli-core@0.61.0`");
    expect(page).toContain('expected: "error"');
    expect(page).toMatch(/```sh\n#!\/bin\/sh\n# U06: /);
    expect(page).toContain(
      "npm run conformance -- --driver implementations/gemini-cli/driver.mjs --suite all --filter U06 --profile spec",
    );
  });

  it("the README list links each finding to its reproduction, and only harnesses' (not the kit's own implementations)", () => {
    expect(findingsList(result)).toBe(
      "- **gemini-cli** (gemini-cli activate_skill 0.61.0): [`name.matches-dir`](docs/findings/gemini-cli.md#name-matches-dir)",
    );
    expect(replaceBlock("a\n<!-- x:start -->\nold\n<!-- x:end -->\nb", "x", "new")).toBe(
      "a\n<!-- x:start -->\nnew\n<!-- x:end -->\nb",
    );
    expect(replaceBlock("no markers", "x", "new")).toBe("no markers");
  });
});
