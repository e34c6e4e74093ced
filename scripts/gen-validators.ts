// `npm run build`'s second step: writes the precompiled validators of schemas/*.schema.json into
// dist/schemas/validators/ (schemas/precompile.ts, R80), where the compiled schemas/index.js looks for them.
//   tsx scripts/gen-validators.ts
import { join } from "node:path";
import { PACKAGE_ROOT, dataPath } from "../package-root.ts";
import { writePrecompiled } from "../schemas/precompile.ts";
import { PRECOMPILED_DIR_IN_CODE } from "../schemas/validators.ts";

const out = join(PACKAGE_ROOT, "dist", PRECOMPILED_DIR_IN_CODE);
const written = writePrecompiled(dataPath("schemas"), out);
console.log(`precompiled ${written.length} validators into ${out}`);
