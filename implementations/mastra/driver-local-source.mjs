// The second Mastra row: the same driver with `skillSource: new LocalSkillSource()`, the common alternative to
// the default workspace filesystem, and the one without containment (issue 27 item 3: its security verdicts
// differ). The source is chosen before driver.mjs is evaluated, from this module's own import.
process.env.MASTRA_SKILL_SOURCE = "local";
export const { implementationInfo, createSession } = await import("./driver.mjs");
