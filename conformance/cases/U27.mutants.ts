// U27's mutants: the wrong implementations under which U27.json must fail, each keyed {case, rule} (the rule
// it breaks). Built from conformance/mutants/wrap.ts and helpers.ts; conformance/test/mutants.test.ts runs them.
import { authoredTools, onOk } from "../mutants/helpers.ts";
import { errorResult, type MutantRow, type Mutation } from "../mutants/wrap.ts";
import type { PermissionRequest } from "../../schemas/index.ts";

/** Ask the kit's hook about a skill the result says is already loaded, as a permission check placed after dedupe would. */
const askWhenLoaded: Mutation["result"] = async (r, _p, _o, ctx) => {
  const entry =
    r.kind === "already_loaded" ? (await ctx.inner.catalog()).entries.find((e) => e.name === r.name) : undefined;
  if (entry && ctx.hook) {
    const tools = entry.frontmatter["allowed-tools"];
    await ctx.hook({
      tool: "skill",
      action: "activate",
      path: entry.dir,
      always_patterns: [`Skill(name:${entry.name})`],
      metadata: {
        name: entry.name,
        root_index: entry.root_index,
        reason: "normal",
        frontmatter: { ...entry.frontmatter, allowed_tools: Array.isArray(tools) ? tools : [] },
      },
    } as PermissionRequest);
  }
  return r;
};

const mutants: MutantRow[] = [
  {
    kills: "U27",
    rule: "allowed-tools.normalised",
    id: "array-tools-rejected",
    description: "allowed-tools in array form is rejected as INVALID_FRONTMATTER (only the string form is accepted).",
    mutation: {
      result: onOk((r, _p, config) =>
        Array.isArray(authoredTools(config, r.name))
          ? errorResult("INVALID_FRONTMATTER", r.name, `skill "${r.name}": allowed-tools must be a string`)
          : r,
      ),
    },
  },
  {
    kills: "U27",
    rule: "hook.not-asked-when-loaded",
    id: "hook-asked-when-loaded",
    description:
      "The hook is asked before the dedupe check, so a repeat call of a loaded skill asks it again (and then answers already_loaded): an ask the case does not script, filed under D4's rule since §7 puts the hook check before dedupe.",
    mutation: {
      result: askWhenLoaded,
    },
  },
  {
    kills: "U27",
    rule: "hook.unscripted-ask",
    id: "hook-asked-twice",
    description: "The hook is asked twice for one activation (once to check, once to act), the second answer winning.",
    mutation: {
      hook: (h) => async (req) => {
        await h(req);
        return h(req);
      },
    },
  },
  {
    kills: "U27",
    rule: "hook.not-asked-when-loaded",
    id: "hook-asked-on-repeat-only",
    description:
      "The permission check's condition is inverted: a first activation goes through without asking the hook, and a repeat call of the loaded skill asks it.",
    mutation: { hook: () => () => "allow", result: askWhenLoaded },
  },
];

export default mutants;
