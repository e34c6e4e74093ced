// S23's mutants: the wrong implementations under which S23.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { onOk } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

/** A lossy walk of references/: a name that is not UTF-8 becomes U+FFFD, and the walk descends into whatever that string names. */
function lossyNames(dir: string): string[] {
  const out: string[] = [];
  const list = (p: string): string[] => {
    try {
      return readdirSync(p);
    } catch {
      return []; // no such folder, or the decoded name names nothing
    }
  };
  for (const name of list(join(dir, "references")).filter((n) => n.includes("\ufffd"))) {
    for (const inner of list(join(dir, "references", name))) out.push(`references/${name}/${inner}`);
  }
  return out;
}

const mutants: MutantRow[] = [
  {
    kills: "S23",
    rule: "names.not-utf8-resources",
    id: "lossy-resource-names",
    description:
      "The resource walk decodes names lossily and descends into the U+FFFD symlink the byte name decodes to: the outside directory's file names (id_rsa) are listed (finding 1 of issue 26).",
    mutation: {
      result: onOk((r) => ({ ...r, resources: [...r.resources, ...lossyNames(r.dir)] })),
    },
  },
];

export default mutants;
