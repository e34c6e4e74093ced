// S27's mutants: the wrong implementations under which S27.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { onOk } from "../mutants/helpers.ts";
import { isObj, type MutantRow, readAuthored } from "../mutants/wrap.ts";

/** The body as §9 alone writes it: every argument value inserted raw. */
function rawBody(authored: string, args: unknown): string {
  const tokens = typeof args === "string" ? args.split(/\s+/).filter((t) => t.length > 0) : [];
  return authored.replace(
    /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$\{([^{}\s]+)\}|\$(\d+)/g,
    (m, i0?: string, named?: string, i1?: string) => {
      if (typeof args === "string") {
        if (i0 !== undefined) return tokens[Number(i0)] ?? m;
        if (i1 !== undefined) return tokens[Number(i1) - 1] ?? m;
        return m === "$ARGUMENTS" ? args : m;
      }
      return isObj(args) && named !== undefined && typeof args[named] === "string" ? (args[named] as string) : m;
    },
  );
}

const mutants: MutantRow[] = [
  {
    kills: "S27",
    rule: "forge.argument-values",
    id: "argument-values-raw",
    description:
      "Argument values are substituted raw (R91 protects every other value, not these): an argument closes </instructions></skill>, writes a fake '(Skill \"trusted\" activated…)' line and opens a fake <skill> block (finding 4 of issue 26).",
    mutation: {
      result: onOk((r, p, config) => {
        const authored = readAuthored(config, r.name);
        if (!authored) return r;
        const raw = rawBody(authored.body, isObj(p) ? p.arguments : undefined);
        return { ...r, body: raw, bytes: Buffer.byteLength(raw), output: r.output.replace(r.body, raw) };
      }),
    },
  },
];

export default mutants;
