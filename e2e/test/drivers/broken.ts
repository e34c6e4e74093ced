// A broken implementation for the self-test gate's test: it starts and answers the catalog, but every skill call
// throws, so no scripted trial can reach a verdict (each is an implementation error). Stands alone (no reference/).
import type { InitializeResult } from "../../../schemas/index.ts";

export const implementationInfo: InitializeResult = {
  implementation: { name: "broken-driver", version: "0.0.0", language: "typescript" },
  specVersion: "1.0",
  capabilities: { symlinks: true, file_modes: true, user_invocation: true, permission_hook: true },
};

export function createSession() {
  return {
    catalog: async () => ({ tool_description: "Activate an installed skill by name.", entries: [], warnings: [] }),
    close: async () => {},
    call: async () => {
      throw new Error("broken driver: call() is not implemented");
    },
  };
}
