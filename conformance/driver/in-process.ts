// In-process driver: loads a TS/JS module that exports createSession (and optionally implementationInfo)
// and adapts it to the Implementation interface; a closed session refuses the kit's further calls. implementationInfo
// comes in either shape a TypeScript implementer writes (decision K50): the wire's nested one ({implementation: {name,
// version, language}, specVersion, capabilities, unobserved?}) or the flat one conformance/README.md shows ({name,
// version, language, specVersion?, capabilities?, unobserved?}); anything else is one line saying which shape is wanted.
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
    // K40: what the harness never produces, kept in either shape (dropping it judged those values as missing); the
    // runner checks each id against schemas/observations.json and stops on an unknown one.
    ...unobservedOf(o["unobserved"]),
  };
}

function unobservedOf(raw: unknown): { unobserved?: string[] } {
  if (raw === undefined) return {};
  if (!Array.isArray(raw) || raw.some((x) => typeof x !== "string"))
    throw new Error("implementationInfo.unobserved is not an array of strings (ids of schemas/observations.json)");
  return { unobserved: [...(raw as string[])] };
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
