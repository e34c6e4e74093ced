// M12's mutant: the catalog line of each skill carries its body after the description (§1, §5.2).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rewriteCatalogLines, type MutantRow } from "../mutants/wrap.ts";

function bodyOf(dir: string): string {
  const raw = readFileSync(join(dir, "SKILL.md"), "utf8");
  return raw.split(/^---$/m).slice(2).join("---").replace(/\s+/g, " ").trim();
}

const mutants: MutantRow[] = [
  {
    kills: "M12",
    rule: "catalog.no-body",
    id: "catalog-shows-bodies",
    description:
      "Each catalog line of the tool description carries the skill's body after its description (eager loading).",
    mutation: {
      catalog: (c) =>
        rewriteCatalogLines(
          c,
          (e, attrs) => `<skill name="${e.name}"${attrs}>${e.description} ${bodyOf(e.dir)}</skill>`,
        ),
    },
  },
];

export default mutants;
