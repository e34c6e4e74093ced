import { readFileSync } from "node:fs";
import { join, basename } from "node:path";
import YAML from "yaml";
import { generateSkills } from "./generate.ts";
import { FilesystemSkillRegistry } from "../reference/registry.ts";
import { readSkillFile } from "../reference/registry.ts";
import { realOrNull, isInside } from "../reference/fence.ts";
import { parseSkillMd } from "../reference/frontmatter.ts";
import { matchesSensitive } from "../reference/sensitive.ts";
import { listResources } from "../reference/resources.ts";
import { renderSkill } from "../reference/render.ts";
import { LIMITS } from "../schemas/index.ts";
import { Minimatch } from "minimatch";

const tree = generateSkills(10000);
try {
  const reg = new FilesystemSkillRegistry([tree.root]);
  let t0 = performance.now();
  const d = await reg.scan();
  console.log("scan ms", (performance.now() - t0).toFixed(0));
  const roots = d.realRoots.filter((r): r is string => r !== null);
  const ph: Record<string, number> = {};
  const add = (k: string, t: number) => (ph[k] = (ph[k] ?? 0) + t);
  let a = 7;
  const order = [...tree.names].sort(() => ((a = (a * 1103515245 + 12345) >>> 0) % 3) - 1);
  const N = order.length;
  for (const name of order) {
    let t = performance.now(); let u: number;
    const entry = d.entries.find((e) => e.name === name)!;
    u = performance.now(); add("1 entries.find (session.handle)", u - t); t = u;
    const realDir = (await realOrNull(entry.dir))!; isInside(realDir, roots);
    u = performance.now(); add("2 realpath(dir) (readSkill)", u - t); t = u;
    const realMd = (await realOrNull(join(entry.dir, "SKILL.md")))!; isInside(realMd, roots);
    u = performance.now(); add("3 realpath(SKILL.md) (readSkill)", u - t); t = u;
    const rd = await readSkillFile(realMd);
    u = performance.now(); add("4 readSkillFile: open/fstat/readFile/close/decode", u - t); t = u;
    const p = parseSkillMd((rd as { text: string }).text, basename(entry.dir));
    u = performance.now(); add("5 parseSkillMd (YAML parseDocument + toJS + checks)", u - t); t = u;
    if (!p.ok) throw new Error("bad");
    matchesSensitive([realDir, entry.dir], LIMITS.default_sensitive_patterns);
    u = performance.now(); add("6 matchesSensitive (minimatch, 2 patterns x 2 paths)", u - t); t = u;
    const listing = await listResources(realDir);
    u = performance.now(); add("7 listResources (3 readdir + walks)", u - t); t = u;
    const bytes = Buffer.byteLength(p.body, "utf8");
    const out = renderSkill({ name, dir: entry.dir, frontmatter: p.frontmatter, body: p.body, listing, bytes });
    u = performance.now(); add("8 renderSkill (YAML.stringify + concat)", u - t); t = u;
  }
  let tot = 0;
  for (const [k, v] of Object.entries(ph).sort()) { tot += v; console.log(`${(v / N * 1000).toFixed(1).padStart(8)} µs/call  ${k}`); }
  console.log(`${(tot / N * 1000).toFixed(1).padStart(8)} µs/call  total`);

  // CPU-only microbenchmarks on one file
  const name = tree.names[42]!;
  const text = readFileSync(join(tree.root, name, "SKILL.md"), "utf8");
  const M = 5000;
  const bench = (label: string, f: () => unknown) => { for (let i = 0; i < 500; i++) f(); const t = performance.now(); for (let i = 0; i < M; i++) f(); console.log(`${((performance.now() - t) / M * 1000).toFixed(1).padStart(8)} µs  ${label}`); };
  const p = parseSkillMd(text, name); if (!p.ok) throw new Error();
  const fmText = text.slice(4, text.indexOf("\n---\n") + 1);
  bench("parseSkillMd", () => parseSkillMd(text, name));
  bench("YAML.parseDocument(fm, LineCounter, uniqueKeys)", () => YAML.parseDocument(fmText, { uniqueKeys: true, lineCounter: new YAML.LineCounter(), prettyErrors: false }));
  bench("YAML.parseDocument(fm) + toJS", () => YAML.parseDocument(fmText, { uniqueKeys: true, lineCounter: new YAML.LineCounter(), prettyErrors: false }).toJS({ maxAliasCount: 100 }));
  bench("YAML.stringify(frontmatter)", () => YAML.stringify(p.frontmatter));
  bench("JSON.stringify(frontmatter) (for scale)", () => JSON.stringify(p.frontmatter));
  bench("matchesSensitive", () => matchesSensitive([join(tree.root, name), join(tree.root, name)], LIMITS.default_sensitive_patterns));
  const pre = LIMITS.default_sensitive_patterns.map((pt) => new Minimatch(pt, { dot: true }));
  bench("precompiled Minimatch x2 patterns x2 paths", () => { for (const m of pre) { m.match(join(tree.root, name)); m.match(join(tree.root, name)); } });
  bench("TextDecoder fatal decode 2.7KB", () => new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(text)));
  const arr = d.entries;
  bench("entries.find last-half name", () => arr.find((e) => e.name === tree.names[7000]));
  const byName = new Map(arr.map((e) => [e.name, e]));
  bench("Map.get name", () => byName.get(tree.names[7000]!));
} finally { tree.dispose(); }
