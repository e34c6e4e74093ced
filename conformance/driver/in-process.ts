// In-process driver: loads a TS/JS module that exports createSession (and optionally implementationInfo)
// and adapts it to the Implementation interface.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { InitializeResult } from "../../schemas/index.ts";
import type { Implementation, InProcessModule } from "../../schemas/implementation.ts";

export function fromModule(mod: InProcessModule, fallbackName = "in-process"): Implementation {
  const rawInfo = typeof mod.implementationInfo === "function" ? mod.implementationInfo() : mod.implementationInfo;
  const info: InitializeResult = rawInfo ?? {
    implementation: { name: fallbackName, version: "0.0.0", language: "typescript" },
    specVersion: "1",
    capabilities: {},
  };
  return {
    info,
    async createSession(config, options) {
      return await mod.createSession(config, options);
    },
    async dispose() {},
  };
}

/** Load a module by path (relative to cwd) or package specifier. */
export async function loadModule(specifier: string): Promise<Implementation> {
  const isPath = specifier.startsWith(".") || specifier.startsWith("/");
  const url = isPath ? pathToFileURL(resolve(specifier)).href : specifier;
  const mod = (await import(url)) as Partial<InProcessModule>;
  if (typeof mod.createSession !== "function") {
    throw new Error(`${specifier} does not export createSession(config, options)`);
  }
  return fromModule(mod as InProcessModule, specifier);
}
