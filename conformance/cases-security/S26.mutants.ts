// S26's mutants: the wrong implementations under which S26.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { LIMITS } from "../../schemas/index.ts";
import { MESSAGES } from "../../schemas/messages.ts";
import { okFrom } from "../mutants/helpers.ts";
import { isObj, type MutantRow, nameOf, readAuthored } from "../mutants/wrap.ts";

/** The wording between {name} and {limit} of args.body_too_large, from the table. */
const MIDDLE = MESSAGES.messages["args.body_too_large"]!.text.split("{name}")[1]!.split("{limit}")[0]!;
const tooLarge = (text: string): boolean => text.includes(MIDDLE);

const mutants: MutantRow[] = [
  {
    kills: "S26",
    rule: "args.body-bound",
    id: "unbounded-substitution",
    description:
      "The body is substituted whatever its size: $1 repeated 300,000 times with 16 bytes of arguments returns a 5.1 MB body (finding 3 of issue 26; hundreds of MiB with a few KiB).",
    mutation: {
      result: (r, p, _o, ctx) => {
        const name = nameOf(p);
        const args = isObj(p) ? p.arguments : undefined;
        if (!(
          r.kind === "error" &&
          r.code === "INVALID_PARAM" &&
          name &&
          typeof args === "string" &&
          tooLarge(r.message)
        ))
          return r;
        const a = readAuthored(ctx.config, name);
        return a ? okFrom(a, name, a.body.split("$1").join(args)) : r;
      },
    },
  },
  {
    kills: "S26",
    rule: "args.size-bound",
    id: "unbounded-arguments",
    description: `Arguments of any size are taken: a call with more than arguments_max_bytes (${LIMITS.arguments_max_bytes}) bytes of arguments goes on to look the name up instead of INVALID_PARAM.`,
    mutation: {
      before: (p, o, ctx) => {
        if (!isObj(p) || p.arguments === undefined) return undefined;
        const size =
          typeof p.arguments === "string" ? Buffer.byteLength(p.arguments) : JSON.stringify(p.arguments).length;
        return size > LIMITS.arguments_max_bytes ? ctx.forward({ name: p.name }, o) : undefined;
      },
    },
  },
];

export default mutants;
