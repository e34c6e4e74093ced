// The package's public API (`import … from "skill-tool-conformance"`), and nothing else: the interface a TypeScript
// implementation exports and every driver produces (schemas/implementation.ts), the reference implementation's
// createSession and implementationInfo, and the types of the contract generated from the JSON Schemas (results,
// tool input, session config, catalog, permission payloads, driver protocol, conformance cases, the JSON report).
// The commands (skill-conformance, skill-e2e, skill-reference-driver) are bin entries, not part of this API.
export type {
  CallOptions,
  Implementation,
  InProcessModule,
  PermissionHook,
  SessionHandle,
  SessionOptions,
} from "./schemas/implementation.ts";
export { createSession, implementationInfo } from "./reference/index.ts";
export type {
  AlreadyLoadedResult,
  ArgumentDeclaration,
  Capabilities,
  Catalog,
  CatalogEntry,
  ConformanceCase,
  ConformanceReport,
  ErrorCode,
  ErrorResult,
  InitializeResult,
  NotFoundResult,
  OkResult,
  PermissionDecision,
  PermissionRequest,
  SessionConfig,
  SkillFrontmatter,
  SkillResult,
  SkillToolInput,
  DriverProtocol,
} from "./schemas/types.gen.ts";
