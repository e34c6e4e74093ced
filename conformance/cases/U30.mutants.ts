// U30's mutants: the wrong implementations under which U30.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { bytes, onOk } from "../mutants/helpers.ts";
import { type MutantRow, readAuthored } from "../mutants/wrap.ts";

const mutants: MutantRow[] = [
  {
    kills: "U30",
    rule: "body.crlf-as-lf",
    id: "crlf-kept",
    description: "CRLF line endings are kept in the body instead of read as LF.",
    mutation: {
      result: onOk((r, _p, config) => {
        const a = readAuthored(config, r.name);
        if (!a?.raw.includes("\r\n")) return r;
        const body = r.body.replace(/\r?\n/g, "\r\n");
        return { ...r, body, bytes: bytes(body), output: r.output.replace(r.body, body) };
      }),
    },
  },
  {
    kills: "U30",
    rule: "render.no-cr",
    id: "output-keeps-crlf",
    description:
      "The body field is read as LF, but the output is rendered from the file's CRLF lines: \r reaches the model.",
    mutation: {
      result: onOk((r, _p, config) =>
        readAuthored(config, r.name)?.raw.includes("\r\n") ? { ...r, output: r.output.replace(/\n/g, "\r\n") } : r,
      ),
    },
  },
];

export default mutants;
