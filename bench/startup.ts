// Start-up of the installed kit's reference driver: the compiled dist/scripts/reference-driver.js (what
// `skill-reference-driver` runs) spawned, answering initialize, and shut down, against a bare `node -e 0` spawned and
// waited for in the same run. The ratio says what the driver adds to Node's own start (module loading, the protocol's
// precompiled validators) now that no tsx sits in front of it. setup() runs `npm run build` first, so the figure is of
// the current sources.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { spawnImplementation } from "../conformance/driver/subprocess.ts";
import { PACKAGE_ROOT } from "../package-root.ts";
import type { Benchmark } from "./matrix.ts";

const COMPILED_DRIVER = join(PACKAGE_ROOT, "dist", "scripts", "reference-driver.js");

/** `npm run build` itself, so the figure is of exactly what the package ships, whatever steps the build grows. */
function build(): void {
  const r = spawnSync("npm", ["run", "--silent", "build"], { cwd: PACKAGE_ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`building dist/ for the start-up benchmark failed:\n${r.stdout}${r.stderr}`);
}

export function benchmarks(opts: { reps?: number } = {}): Benchmark[] {
  const reps = opts.reps ?? 15;
  return [
    {
      id: "startup.node",
      title: "spawn `node -e 0` and wait for it to exit: Node's own start-up, the floor",
      reps,
      run: () =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
          child.once("error", reject);
          child.once("exit", () => resolve());
        }),
    },
    {
      id: "startup.driver.compiled",
      title: "spawn the compiled reference driver (skill-reference-driver), initialize, shutdown",
      baseline: "startup.node",
      reps,
      async setup() {
        build();
      },
      async run() {
        const impl = await spawnImplementation(`"${process.execPath}" "${COMPILED_DRIVER}"`, { cwd: PACKAGE_ROOT });
        await impl.dispose();
      },
    },
  ];
}
