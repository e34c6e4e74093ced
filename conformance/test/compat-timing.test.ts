// The page's time figures (conformance/compat/timing.ts): a harness that stops answering part-way through its timed
// activations keeps the figures of the calls it answered, and says where it stopped, instead of losing them all (Copilot
// CLI's row was "not measured" for one missing tool result at call 181 of 200).
import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { generateSkills } from "../../bench/generate.ts";
import { measureTiming } from "../compat/timing.ts";
import type { Target } from "../compat/targets.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const tree = await generateSkills(40);
afterAll(() => rmSync(dirname(tree.root), { recursive: true, force: true }));

const target = (file: string): Target => ({
  id: file,
  kind: "module",
  spec: join(HERE, "faulty", file),
  display: file,
});

it("keeps the figures of the calls before the first that failed, and names it", async () => {
  // The warm-up session makes no calls, so the timed session's sixth call is the first to fail.
  const t = await measureTiming(REPO, target("stops-answering.mjs"), tree, { reps: 1, calls: 20, warmupCalls: 0 });
  expect(t.error).toBeUndefined();
  expect(t.calls).toBe(5);
  expect(t.ok).toBe(5);
  expect(t.stopped).toMatch(/^call 6 \([a-z0-9-]+\): .*the harness sent no tool result for call 6/);
  expect(t.activation_p50_us).toBeGreaterThan(0);
}, 120_000);
