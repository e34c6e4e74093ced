// In-process driver: loads a TS/JS module that exports createSession (and optionally implementationInfo)
// and adapts it to the Implementation interface; a closed session refuses the kit's further calls. implementationInfo
// comes in either shape a TypeScript implementer writes (decision K50): the wire's nested one ({implementation: {name,
// version, language}, specVersion, capabilities}) or the flat one conformance/README.md shows ({name, version,
// language, specVersion?, capabilities?}); anything else is one line saying which shape is wanted.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { SPEC_VERSION, type InitializeResult } from "../../schemas/index.ts";
import type { Implementation, InProcessModule, SessionHandle } from "../../schemas/implementation.ts";
import { DriverError } from "./errors.ts";

const WANTED =
  "{ name, version, language, specVersion?, capabilities?, unobserved? } (or the wire's { implementation: { name, version, language }, specVersion, capabilities, unobserved? })";

/** The module's implementationInfo, flat or nested, as the wire's InitializeResult; a wrong shape throws one line. */
export function normalizeInfo(raw: unknown, fallbackName: string): InitializeResult {
  if (raw === undefined || raw === null)
    return {
      implementation: { name: fallbackName, version: "0.0.0", language: "typescript" },
      specVersion: SPEC_VERSION,
      capabilities: {},
    };
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new Error(`implementationInfo is ${Array.isArray(raw) ? "an array" : typeof raw}: export ${WANTED}`);
  const o = raw as Record<string, unknown>;
  const nested = typeof o["implementation"] === "object" && o["implementation"] !== null;
  const who = (nested ? o["implementation"] : o) as Record<string, unknown>;
  const missing = ["name", "version", "language"].filter(
    (k) => typeof who[k] !== "string" || (k === "name" && who[k] === ""),
  );
  if (missing.length)
    throw new Error(`implementationInfo has no ${missing.join(", ")} (a string each): export ${WANTED}`);
  return {
    implementation: {
      name: who["name"] as string,
      version: who["version"] as string,
      language: who["language"] as string,
    },
    specVersion: typeof o["specVersion"] === "string" ? o["specVersion"] : SPEC_VERSION,
    capabilities: (typeof o["capabilities"] === "object" && o["capabilities"] !== null
      ? o["capabilities"]
      : {}) as InitializeResult["capabilities"],
    // The values the harness never produces (K40): kept in either shape, or the checks at their places would judge
    // what the driver rightly left out (this was dropped, so no in-process driver's unobserved list was in force).
    ...(Array.isArray(o["unobserved"]) ? { unobserved: [...(o["unobserved"] as string[])] } : {}),
  };
}

export function fromModule(mod: InProcessModule, fallbackName = "in-process"): Implementation {
  const rawInfo: unknown =
    typeof mod.implementationInfo === "function" ? mod.implementationInfo() : mod.implementationInfo;
  const info = normalizeInfo(rawInfo, fallbackName);
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
  const refuse = (what: string) =>
    Promise.reject(new DriverError(`the kit called ${what} on a session it had closed`, "kit"));
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
