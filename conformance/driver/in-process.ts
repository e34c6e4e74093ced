// In-process driver: loads a TS/JS module that exports createSession (and optionally implementationInfo)
// and adapts it to the Implementation interface; a closed session refuses the kit's further calls.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { InitializeResult } from "../../schemas/index.ts";
import type { Implementation, InProcessModule, SessionHandle } from "../../schemas/implementation.ts";
import { DriverError } from "./errors.ts";

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
      return closable(await mod.createSession(config, options));
    },
    async dispose() {},
  };
}

/**
 * The session as the kit sees it: once close() was called, the kit's own catalog() and call() are refused (a kit
 * fault, never sent on), so nothing of the kit reaches a session it has closed, whatever the implementation does.
 */
function closable(session: SessionHandle): SessionHandle {
  let closed = false;
  const refuse = (what: string) => Promise.reject(new DriverError(`the kit called ${what} on a session it had closed`, "kit"));
  return {
    catalog: () => (closed ? refuse("catalog()") : session.catalog()),
    call: (params, options) => (closed ? refuse("call()") : session.call(params, options)),
    close: () => {
      closed = true;
      return session.close();
    },
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
