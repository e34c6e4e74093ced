// M10's mutant: frontmatter found wherever a --- line is, and running to the end of the file when never closed.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import YAML from "yaml";
import { isObj, nameOf, okFromAuthored, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M10",
    rule: "frontmatter.delimiters",
    id: "lenient-delimiters",
    description:
      "The frontmatter opens at the first --- line anywhere in the file and, with no closing ---, runs to its end (empty body).",
    mutation: {
      result: (r, p) => {
        if (r.kind !== "error" || r.code !== "INVALID_FRONTMATTER" || r.path === undefined) return r;
        let raw: string;
        try {
          raw = readFileSync(r.path, "utf8");
        } catch {
          return r;
        }
        const lines = raw.split("\n");
        const open = lines.indexOf("---");
        const close = lines.findIndex((l, i) => i > open && l === "---");
        if (open < 0) return r;
        const yaml = lines.slice(open + 1, close < 0 ? undefined : close).join("\n");
        const body = close < 0 ? "" : lines.slice(close + 1).join("\n");
        let fm: unknown;
        try {
          fm = YAML.parse(yaml);
        } catch {
          return r;
        }
        if (!isObj(fm)) return r;
        return okFromAuthored(
          { dir: dirname(r.path), file: r.path, raw, yaml, frontmatter: { ok: true, value: fm }, body },
          nameOf(p) ?? "",
          fm,
        );
      },
    },
  },
];

export default mutants;
