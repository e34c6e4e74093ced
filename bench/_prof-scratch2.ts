import { statSync, realpathSync, readFileSync, readdirSync, openSync, closeSync, readSync, fstatSync } from "node:fs";
import { stat, realpath, open, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { generateSkills } from "./generate.ts";
const tree = generateSkills(Number(process.argv[2] ?? 2000));
try {
  const names = tree.names; const N = names.length;
  const md = (i: number) => join(tree.root, names[i % N]!, "SKILL.md");
  const dir = (i: number) => join(tree.root, names[i % N]!);
  const run = async (label: string, f: (i: number) => Promise<unknown> | unknown) => {
    for (let i = 0; i < 500; i++) await f(i);
    const s: number[] = [];
    for (let i = 0; i < N; i++) { const t = performance.now(); await f(i); s.push(performance.now() - t); }
    s.sort((a, b) => a - b);
    console.log(`p50 ${(s[N >> 1]! * 1000).toFixed(1).padStart(7)} µs  mean ${(s.reduce((a, b) => a + b) / N * 1000).toFixed(1).padStart(7)} µs  ${label}`);
  };
  await run("fs/promises stat", (i) => stat(md(i)));
  await run("fs/promises realpath", (i) => realpath(md(i)));
  await run("fs/promises readdir (ENOENT scripts/)", (i) => readdir(join(dir(i), "nope"), { withFileTypes: true }).catch(() => null));
  await run("fs/promises readdir skill dir withFileTypes", (i) => readdir(dir(i), { withFileTypes: true }));
  await run("fs/promises readFile(path)", (i) => readFile(md(i)));
  await run("fs/promises open+stat+readFile+close (readSkillFile I/O)", async (i) => { const h = await open(md(i), "r"); await h.stat(); await h.readFile(); await h.close(); });
  await run("fs/promises open+read(cap+1 buf)+close", async (i) => { const h = await open(md(i), "r"); const b = Buffer.allocUnsafe(65536); await h.read(b, 0, b.length, 0); await h.close(); });
  await run("sync realpath x2 + open/fstat/read/close + readdir x3", (i) => { realpathSync(dir(i)); realpathSync(md(i)); const fd = openSync(md(i), "r"); fstatSync(fd); const b = Buffer.allocUnsafe(65536); readSync(fd, b, 0, b.length, 0); closeSync(fd); for (const f of ["scripts", "references", "assets"]) { try { readdirSync(join(dir(i), f), { withFileTypes: true }); } catch {} } });
  await run("empty async fn (promise hop only)", async () => undefined);
} finally { tree.dispose(); }
