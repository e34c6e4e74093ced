// U16's mutants: the wrong implementations under which U16.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { bytes, onOk } from "../mutants/helpers.ts";
import { type MutantRow, readAuthored } from "../mutants/wrap.ts";
import { dirname, relative } from "node:path";
import type { OkResult, SkillResult } from "../../schemas/index.ts";

const mutants: MutantRow[] = [
  {
    kills: "U16",
    rule: "output.skill-block",
    id: "unwrapped-output",
    description: "The output is the bare body plus the note: no <skill> / <frontmatter> / <instructions> wrapper.",
    mutation: { result: onOk((r) => ({ ...r, output: r.output.replace(/^[\s\S]*<\/skill>\n/, r.body) })) },
  },
  {
    kills: "U16",
    rule: "body.verbatim",
    id: "body-trimmed",
    description:
      "The SKILL.md body is trimmed (its final newline and surrounding blank space dropped), as several real harnesses do: §4.5 rule 6 says verbatim.",
    mutation: {
      result: onOk((r) => {
        const body = r.body.trim();
        return body === r.body ? r : { ...r, body, bytes: bytes(body), output: r.output.replace(r.body, `${body}\n`) };
      }),
    },
  },
  {
    kills: "U16",
    rule: "activate.ok",
    id: "ok-kind-renamed",
    description:
      'A successful activation is reported under the implementation\'s own word (kind "activated") instead of kind ok (§3.1).',
    mutation: { result: onOk((r) => ({ ...r, kind: "activated" }) as unknown as SkillResult) },
  },
  {
    kills: "U16",
    rule: "bytes.body-length",
    id: "bytes-of-whole-file",
    description: "bytes is the size of the whole SKILL.md (frontmatter included), not of the body.",
    mutation: {
      result: onOk((r, _p, config) => {
        const a = readAuthored(config, r.name);
        return a ? { ...r, bytes: bytes(a.raw) } : r;
      }),
    },
  },
  {
    kills: "U16",
    rule: "dir.absolute",
    id: "dir-relative-to-workspace",
    description: "dir is the skill's path relative to the root's parent (skills/hello), not absolute.",
    mutation: {
      result: onOk((r, _p, config) => ({ ...r, dir: relative(dirname(config.skill_roots[0] ?? "/"), r.dir) })),
    },
  },
  {
    kills: "U16",
    rule: "frontmatter.parsed",
    id: "frontmatter-as-text",
    description: "frontmatter is the YAML text between the --- lines, never parsed into a mapping.",
    mutation: {
      result: onOk((r, _p, config) => {
        const a = readAuthored(config, r.name);
        return a ? { ...r, frontmatter: a.yaml as unknown as OkResult["frontmatter"] } : r;
      }),
    },
  },
  {
    kills: "U16",
    rule: "render.skill-block-layout",
    id: "instructions-padded",
    description: "The <instructions> section pads the body with a blank line after its opening tag.",
    mutation: { result: onOk((r) => ({ ...r, output: r.output.replace("<instructions>\n", "<instructions>\n\n") })) },
  },
];

export default mutants;
