// M15's mutants: an error output that drops §3.4's "Error [CODE]: " form, and one that does not echo the name.
import { nameOf, type MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M15",
    rule: "errors.format",
    id: "error-code-without-brackets",
    description: "An error's output starts with Error CODE: (no brackets).",
    mutation: {
      result: (r) => (r.kind === "error" ? { ...r, output: r.output.replace(/^Error \[(\w+)\]: /, "Error $1: ") } : r),
    },
  },
  {
    kills: "M15",
    rule: "errors.echo-name",
    id: "error-message-without-name",
    description: 'An error\'s message says "the skill" where it would name the requested skill.',
    mutation: {
      result: (r, p) => {
        const name = nameOf(p);
        if (r.kind !== "error" || !name) return r;
        const [first, ...rest] = r.output.split("\n");
        return {
          ...r,
          message: r.message.split(name).join("the skill"),
          output: [first!.split(name).join("the skill"), ...rest].join("\n"),
        };
      },
    },
  },
];

export default mutants;
