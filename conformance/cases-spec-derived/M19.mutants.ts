// M19's mutants: an alias table that holds only §13.1 case 5's three aliases, and refusals without §2.1's notes.
import { isObj, type MutantRow } from "../mutants/wrap.ts";

/** The keys a tool that knows only name, arguments and case 5's aliases (skill_name, params, reload) looks at. */
const KNOWN = new Set(["name", "arguments", "skill_name", "params", "reload"]);

const mutants: MutantRow[] = [
  {
    kills: "M19",
    rule: "params.aliases",
    id: "only-case-5-aliases",
    description:
      "Only skill_name, params and reload are known aliases; every other alias of §2.1 is ignored and the call goes on by its name.",
    mutation: { params: (p) => (isObj(p) ? Object.fromEntries(Object.entries(p).filter(([k]) => KNOWN.has(k))) : p) },
  },
  {
    kills: "M19",
    rule: "params.alias-notes",
    id: "alias-notes-dropped",
    description: "A dropped alias is refused as not supported, without §2.1's note.",
    mutation: {
      result: (r) =>
        r.kind === "error"
          ? {
              ...r,
              message: r.message.replace(/ is not supported: .*$/, " is not supported"),
              output: r.output.replace(/ is not supported: [^\n]*/, " is not supported"),
            }
          : r,
    },
  },
];

export default mutants;
