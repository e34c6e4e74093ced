// M22's mutants: the texts §2 and §3 give, reworded (what a port that paraphrases the spec would send the model).
import type { MutantRow } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "M22",
    rule: "output.spec-texts",
    id: "activated-line-reworded",
    description:
      'The ok result\'s closing line reads (Activated skill "x", N bytes.) instead of §3.1\'s (Skill "x" activated. Body is N bytes. …).',
    mutation: {
      result: (r) =>
        r.kind === "ok"
          ? {
              ...r,
              output: r.output.replace(
                /\(Skill "([^"]*)" activated\. Body is (\d+) bytes\.[^\n]*$/,
                '(Activated skill "$1", $2 bytes.)',
              ),
            }
          : r,
    },
  },
  {
    kills: "M22",
    rule: "output.spec-texts",
    id: "kebab-message-reworded",
    description:
      'A malformed name is refused as "invalid skill name" instead of §2\'s "skill name must be lowercase-kebab-case".',
    mutation: {
      result: (r) =>
        r.kind === "error"
          ? {
              ...r,
              message: r.message.replace("skill name must be lowercase-kebab-case", "invalid skill name"),
              output: r.output.replace("skill name must be lowercase-kebab-case", "invalid skill name"),
            }
          : r,
    },
  },
];

export default mutants;
