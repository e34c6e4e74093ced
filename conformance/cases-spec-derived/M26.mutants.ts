// M26's mutants: a YAML reader that folds a | block scalar like a > one (line breaks become spaces), §4.6's
// description; and a wrap that hides allowed-tools from the model (§6).
import { onOk } from "../mutants/helpers.ts";
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M26",
    rule: "frontmatter.parsed",
    id: "literal-block-folded",
    description: "A literal block scalar (description: |) is read folded: its inner line breaks become spaces.",
    mutation: {
      result: onOk((r) => {
        const d = r.frontmatter.description;
        return typeof d === "string" && /\n./.test(d)
          ? { ...r, frontmatter: { ...r.frontmatter, description: d.replace(/\n(?=.)/g, " ") } }
          : r;
      }),
    },
  },
  {
    kills: "M26",
    rule: "output.allowed-tools-shown",
    id: "wrap-without-allowed-tools",
    description:
      "The <frontmatter> section of the output leaves allowed-tools out (the structured frontmatter keeps it).",
    mutation: { result: onOk((r) => ({ ...r, output: r.output.replace(/^allowed-tools:.*\n(?:[ -].*\n)*/m, "") })) },
  },
];

export default mutants;
