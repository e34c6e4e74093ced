// M07's mutant: resource files inlined into the <resources> block (§3.1, §8: names only, not contents).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M07",
    rule: "resources.names-only",
    id: "inlines-resource-contents",
    description: "Each listed resource's contents follow its name in the <resources> block.",
    mutation: {
      result: (r) => {
        if (r.kind !== "ok" || !r.resources.length) return r;
        const inlined = r.resources.map((f) => `${f}:\n${readFileSync(join(r.dir, f), "utf8")}`).join("");
        return { ...r, output: r.output.replace("</resources>", `${inlined}</resources>`) };
      },
    },
  },
];

export default mutants;
