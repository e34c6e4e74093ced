// U23's mutants: the wrong implementations under which U23.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { onOk } from "../mutants/helpers.ts";
import { type MutantRow, isDir } from "../mutants/wrap.ts";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const mutants: MutantRow[] = [
  {
    kills: "U23",
    rule: "resources.omitted-count",
    id: "no-more-marker",
    description: "Lists up to 10 resources but drops the (... N more) marker and resources_omitted.",
    mutation: {
      result: onOk((r) => {
        const { resources_omitted: _o, ...rest } = r;
        return { ...rest, output: r.output.replace(/^\(\.\.\. \d+ more\)\n/gm, "") };
      }),
    },
  },
  {
    kills: "U23",
    rule: "resources.cap-10",
    id: "no-per-folder-cap",
    description: "Every file of every resource folder is listed: no cap of 10 per folder, nothing omitted.",
    mutation: {
      result: onOk((r) => {
        const { resources_omitted: _o, ...rest } = r;
        const all = ["scripts", "references", "assets"].flatMap((f) =>
          isDir(join(r.dir, f))
            ? readdirSync(join(r.dir, f))
                .sort()
                .map((n) => `${f}/${n}`)
            : [],
        );
        return { ...rest, resources: all };
      }),
    },
  },
  {
    kills: "U23",
    rule: "render.resources-layout",
    id: "resources-on-one-line",
    description: "The <resources> section lists the names on one comma-separated line.",
    mutation: {
      result: onOk((r) => ({
        ...r,
        output: r.output.replace(
          /<resources>\n([\s\S]*?)\n<\/resources>/,
          (_m, list: string) => `<resources>\n${list.split("\n").join(", ")}\n</resources>`,
        ),
      })),
    },
  },
];

export default mutants;
