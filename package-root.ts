// Where the kit is, wherever it runs from: a clone run through tsx (this file is <root>/package-root.ts) or the
// installed package's compiled code (<root>/dist/package-root.js). Every module that reads the kit's own data
// (schemas/*.json, conformance/cases*/, fixtures/) or names one of its own modules goes through here, so no
// module counts `..` from where it happens to sit. Also owns the one rule for "the directory the user meant".
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(import.meta.url);

/** The root of the compiled tree: the package root from source, <root>/dist once built. */
export const CODE_ROOT = dirname(HERE);

/** The extension the kit's own modules have here: .ts from source, .js in dist/. */
const CODE_EXT = HERE.endsWith(".ts") ? ".ts" : ".js";

function findPackageRoot(from: string): string {
  // dist/ holds no package.json, so the first one upward is the package's own, from source or compiled.
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}: the kit's files are incomplete`);
  }
}

/**
 * require() from the kit's code: for what the kit loads synchronously on first use (CommonJS dependencies, the
 * precompiled validators). Resolves packages as any module of the kit would.
 */
export const kitRequire: NodeJS.Require = createRequire(import.meta.url);

/** The directory holding package.json and the kit's data (schemas/, conformance/, fixtures/). */
export const PACKAGE_ROOT = findPackageRoot(CODE_ROOT);

/** A data file or folder of the kit, e.g. dataPath("fixtures", "e2e"). */
export function dataPath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}

/** One of the kit's own modules by extensionless path, e.g. codePath("reference/index"): .ts from source, .js compiled. */
export function codePath(modulePath: string): string {
  return join(CODE_ROOT, modulePath + CODE_EXT);
}

/**
 * The directory relative paths on the command line are resolved against. `npm run <script>` runs a package's
 * scripts in that package's root and records where the command was typed in INIT_CWD; that is what the user meant
 * only when the script is this kit's own (`npm run conformance -- --driver ./x.ts` in a clone). Installed, the
 * commands run from npx, a shell or the user's own package.json scripts, whose paths are relative to the working
 * directory; an INIT_CWD inherited from some outer npm would point elsewhere. Decision R70.
 */
export function userCwd(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const pkgJson = env["npm_package_json"];
  const ownScript = pkgJson !== undefined && resolve(pkgJson) === join(PACKAGE_ROOT, "package.json");
  return ownScript && env["INIT_CWD"] ? env["INIT_CWD"] : cwd;
}
