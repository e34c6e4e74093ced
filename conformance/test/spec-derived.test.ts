// The spec-derived suite (conformance/cases-spec-derived/) against the kit's own data: every alias of
// schemas/aliases.json is sent by some case and every note §2.1 quotes is expected where it is sent (the
// alias case is checked against the table and the spec, never copied from either); every spec rule's quote is
// the spec's own words; every case cites a spec section. And the two checks the suite added to the case
// format: files_absent (runner/files.ts) and the session environment reaching the implementation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ALIASES, rules } from "../../schemas/index.ts";
import type { SessionConfig } from "../../schemas/index.ts";
import type { SessionOptions } from "../../schemas/implementation.ts";
import { spawnImplementation } from "../driver/subprocess.ts";
import { wrapReference } from "../mutants/wrap.ts";
import { loadCases, runSuite } from "../runner/index.ts";
import { checkFilesAbsent } from "../runner/files.ts";
import { REPO_ROOT } from "../runner/workspace.ts";

const SPEC = readFileSync(join(REPO_ROOT, "docs", "spec", "skill-tool-spec.txt"), "utf8");
const all = loadCases("all");
const derived = loadCases("spec-derived");

type Call = { params?: unknown; expect: { output_contains?: string[] } };
const singleCalls = (c: (typeof all)[number]): Call[] =>
  c.calls.filter((x): x is Call & (typeof c.calls)[number] => "params" in x);

/** §2.1's bullets: alias → the note the spec quotes for it ("v1.1" where it only says "v1.1 note"), or null. */
function specNotes(): Map<string, string | null> {
  const section = SPEC.slice(SPEC.indexOf("2.1 Known-alias pushback"), SPEC.indexOf("2.2 Description guidance"));
  const notes = new Map<string, string | null>();
  for (const line of section.split("\n")) {
    const m = /^• (.+?) → (.*)$/.exec(line.trim());
    if (!m) continue;
    const quoted = /"([^"]+)"/.exec(m[2]!)?.[1];
    for (const alias of m[1]!.split(",").map((s) => s.trim()))
      notes.set(alias, quoted ?? (m[2]!.includes("v1.1") ? "v1.1" : null));
  }
  return notes;
}

describe("spec-derived suite", () => {
  it("§2.1's alias list and schemas/aliases.json name the same aliases, each note the spec quotes is the table's", () => {
    const notes = specNotes();
    expect([...notes.keys()].sort()).toEqual(ALIASES.map((a) => a.alias).sort());
    for (const a of ALIASES) {
      const quoted = notes.get(a.alias);
      if (quoted) expect(a.note, a.alias).toContain(quoted);
    }
  });

  it("every alias of the table is sent by some case, and where §2.1 quotes its note a case expects that note", () => {
    const sent = new Map<string, Call[]>();
    for (const c of all)
      for (const call of singleCalls(c))
        if (call.params && typeof call.params === "object")
          for (const k of Object.keys(call.params)) sent.set(k, [...(sent.get(k) ?? []), call]);
    expect(ALIASES.map((a) => a.alias).filter((a) => !sent.has(a))).toEqual([]);
    const notes = specNotes();
    const unexpected = ALIASES.filter(
      (a) =>
        notes.get(a.alias) &&
        !sent.get(a.alias)!.some((call) => call.expect.output_contains?.includes(notes.get(a.alias)!)),
    );
    expect(unexpected.map((a) => a.alias)).toEqual([]);
  });

  it("M26's SKILL.md is §4.6's canonical SKILL.md, byte for byte", () => {
    const start = SPEC.indexOf("4.6 Canonical SKILL.md\n\n") + "4.6 Canonical SKILL.md\n\n".length;
    const canonical = `${SPEC.slice(start, SPEC.indexOf("\n\n5. Workspace, discovery"))}\n`;
    const m26 = derived.find((c) => c.id === "M26")!;
    const written = (m26.setup ?? []).find((s) => "path" in s && s.path === "skills/api-conventions/SKILL.md");
    expect(written && "utf8" in written ? written.utf8 : undefined).toBe(canonical);
  });

  it("every case of the suite cites a spec section, and every spec rule only this suite tests carries a quote", () => {
    expect(derived.length).toBeGreaterThan(0);
    expect(derived.filter((c) => !c.spec.some((s) => s.startsWith("§"))).map((c) => c.id)).toEqual([]);
    const byId = new Map(rules().map((r) => [r.id, r]));
    const elsewhere = new Set(all.filter((c) => c.suite !== "spec-derived").flatMap((c) => c.rules ?? []));
    const own = derived
      .flatMap((c) => c.rules ?? [])
      .filter((id) => !elsewhere.has(id) && byId.get(id)?.source === "spec");
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((id) => byId.get(id)?.quote === undefined)).toEqual([]);
  });
});

describe("case format: files_absent and environment", () => {
  const tmp = mkdtempSync(join(tmpdir(), "files-absent-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("files_absent reports each path that exists after the call, under the rules its key maps to", () => {
    writeFileSync(join(tmp, "made"), "");
    const misses = checkFilesAbsent(
      { kind: "ok", files_absent: ["made", "not-made"], rules: { "*": ["body.no-shell-injection"] } },
      tmp,
      "calls[0]",
    );
    expect(misses).toEqual([expect.objectContaining({ key: "files_absent.0", rules: ["body.no-shell-injection"] })]);
  });

  it("the case's environment reaches createSession as absolute paths inside the case's temp dir", async () => {
    const seen: Array<SessionOptions["environment"]> = [];
    const spy = () =>
      wrapReference("environment-spy", {
        config: (c: SessionConfig, o: SessionOptions) => (seen.push(o.environment), c),
      });
    const report = await runSuite(
      spy,
      derived.filter((c) => c.id === "M02"),
      { driverLabel: "spy", suite: "spec-derived", profile: "exact" },
    );
    expect(report.cases[0]!.status).toBe("passed");
    expect(seen).toHaveLength(1);
    const env = seen[0]!;
    expect(env.home.endsWith("/home") && env.cwd.endsWith("/work")).toBe(true);
    expect(env.home.slice(0, -"/home".length)).toBe(env.cwd.slice(0, -"/work".length));
  });

  it("over the wire, session/create carries the environment to the module the stdio server serves, and only when the case has one", async () => {
    const toy = join(tmp, "toy.mjs");
    writeFileSync(
      toy,
      `export function createSession(config, options) {
  const seen = JSON.stringify(options.environment ?? null);
  return { async catalog() { return { tool_description: seen, entries: [], warnings: [] }; }, async call() { return { kind: "not_found", name: "x", siblings: [], output: "" }; }, async close() {} };
}
`,
    );
    const impl = await spawnImplementation(
      `"${process.execPath}" --import tsx "${join(REPO_ROOT, "scripts", "reference-driver.ts")}" "${toy}"`,
    );
    try {
      const environment = { home: join(tmp, "home"), cwd: join(tmp, "work") };
      const withEnv = await impl.createSession({ skill_roots: [tmp] }, { environment });
      expect(JSON.parse((await withEnv.catalog()).tool_description)).toEqual(environment);
      const without = await impl.createSession({ skill_roots: [tmp] }, {});
      expect(JSON.parse((await without.catalog()).tool_description)).toBeNull();
    } finally {
      await impl.dispose();
    }
  }, 30_000);
});
