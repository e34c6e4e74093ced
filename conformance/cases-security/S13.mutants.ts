// S13's mutants: the wrong implementations under which S13.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { isObj, type MutantRow } from "../mutants/wrap.ts";

const CONFUSABLES: Record<string, string> = {
  "\u0430": "a",
  "\u0435": "e",
  "\u043e": "o",
  "\u0440": "p",
  "\u0441": "c",
  "\u0443": "y",
  "\u0445": "x",
  "\u0456": "i",
  "\u03bf": "o",
  "\u1d0f": "o",
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2212": "-",
};

/** NFKC-style folding, lower-casing, invisible-character stripping and confusable mapping: a "friendly" name matcher. */
function foldName(name: string): string {
  const folded = name
    .normalize("NFKD")
    .replace(/[\p{Mn}\p{Cf}\s]/gu, "")
    .normalize("NFKC")
    .toLowerCase();
  return [...folded].map((ch) => CONFUSABLES[ch] ?? ch).join("");
}

const mutants: MutantRow[] = [
  {
    kills: "S13",
    rule: "name.no-folding",
    id: "names-folded",
    description:
      "Names are folded before the check (NFKC, lower-case, invisible characters stripped, confusables mapped), so Cyrillic h\u0435llo activates hello.",
    mutation: {
      params: (p) => (isObj(p) && typeof p.name === "string" ? { ...p, name: foldName(p.name) } : p),
    },
  },
];

export default mutants;
