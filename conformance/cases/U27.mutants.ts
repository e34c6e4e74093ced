// U27's mutants: the wrong implementations under which U27.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { authoredTools, onOk } from "../mutants/helpers.ts";
import { errorResult, type MutantRow } from "../mutants/wrap.ts";
import type { PermissionRequest } from "../../schemas/index.ts";

const mutants: MutantRow[] = [
  {
    kills: "U27", rule: "allowed-tools.normalised", id: "array-tools-rejected", description: "allowed-tools in array form is rejected as INVALID_FRONTMATTER (only the string form is accepted).",
    mutation: {
      result: onOk((r, _p, config) =>
        Array.isArray(authoredTools(config, r.name)) ? errorResult("INVALID_FRONTMATTER", r.name, `skill "${r.name}": allowed-tools must be a string`) : r,
      ),
    },
  },
  {
    kills: "U27", rule: "hook.unscripted-ask", id: "hook-asked-when-loaded",
    description: "The hook is asked before the dedupe check, so a repeat call of a loaded skill asks it again (and then answers already_loaded): an ask the case does not script (why this is not filed under hook.not-asked-when-loaded: mutants/no-mutant.json).",
    mutation: {
      result: async (r, _p, _o, ctx) => {
        const entry = r.kind === "already_loaded" ? (await ctx.inner.catalog()).entries.find((e) => e.name === r.name) : undefined;
        if (entry && ctx.hook) {
          const tools = entry.frontmatter["allowed-tools"];
          await ctx.hook({
            tool: "skill", action: "activate", path: entry.dir, always_patterns: [`Skill(name:${entry.name})`],
            metadata: { name: entry.name, root_index: entry.root_index, reason: "normal", frontmatter: { ...entry.frontmatter, allowed_tools: Array.isArray(tools) ? tools : [] } },
          } as PermissionRequest);
        }
        return r;
      },
    },
  },
  {
    kills: "U27", rule: "hook.unscripted-ask", id: "hook-asked-twice",
    description: "The hook is asked twice for one activation (once to check, once to act), the second answer winning.",
    mutation: {
      hook: (h) => async (req) => {
        await h(req);
        return h(req);
      },
    },
  },
];

export default mutants;
