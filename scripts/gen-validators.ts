// `npm run build`'s second step: writes the precompiled validators of schemas/*.schema.json into
// dist/schemas/validators/ (schemas/precompile.ts), where the compiled schemas/index.js looks for them.
//   tsx scripts/gen-validators.ts [outDir]
import { join, resolve } from "node:path";
import { PACKAGE_ROOT, dataPath } from "../package-root.ts";
import { writePrecompiled } from "../schemas/precompile.ts";

export const PRECOMPILED_DIR = join(PACKAGE_ROOT, "dist", "schemas", "validators");

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const out = process.argv[2] ? resolve(process.argv[2]) : PRECOMPILED_DIR;
  const written = writePrecompiled(dataPath("schemas"), out);
  console.log(`precompiled ${written.length} schema modules into ${out}`);
}
