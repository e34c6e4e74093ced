// A fake implementation for the transport tests: its catalog is schema-invalid, and its first answer to U01 is
// schema-invalid (message a number, an extra field) AND wrong in content (PERMISSION_DENIED where U01 wants
// INVALID_PARAM); the control call is right.
// Loaded in-process, and served over stdio by scripts/reference-driver.ts, it must get the same verdict both ways.
import type { InProcessModule } from "../../../schemas/implementation.ts";
import type { Catalog, SkillResult } from "../../../schemas/index.ts";

export const implementationInfo: InProcessModule["implementationInfo"] = {
  implementation: { name: "invalid-answer", version: "0.0.0", language: "typescript" },
  specVersion: "1",
  capabilities: {},
};

export const createSession: InProcessModule["createSession"] = (config) => ({
  // The catalog is schema-invalid too: warnings must be a list.
  catalog: async () =>
    ({ tool_description: "Activate an installed skill by name.", entries: [], warnings: "none" }) as unknown as Catalog,
  call: async (params) => {
    const name = (params as { name?: unknown } | null)?.name;
    if (name === "hello") {
      const dir = `${config.skill_roots[0]}/hello`;
      return {
        kind: "ok",
        name: "hello",
        dir,
        body: "Say hello.\n",
        frontmatter: { name: "hello", description: "d" },
        resources: [],
        bytes: 11,
        output: "<skill/>",
      };
    }
    return {
      kind: "error",
      code: "PERMISSION_DENIED",
      message: 7,
      output: "Error",
      extra: true,
    } as unknown as SkillResult;
  },
  close: async () => {},
});
