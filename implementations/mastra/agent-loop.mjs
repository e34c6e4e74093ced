// Mastra's permission hook, driven as its users run it: an Agent with the skills Workspace, registered on a
// Mastra instance with storage (approval snapshots need it: "Ensure you've enabled a storage provider"), called
// with `agent.generate(prompt, { requireToolApproval })` gating the `skill` tool. Mastra's agentic loop suspends
// the tool call before `execute` (finishReason "suspended", `suspendPayload: { toolCallId, toolName, args,
// resumeSchema }`); the kit's permission hook is the user who answers it, with `approveToolCallGenerate` or
// `declineToolCallGenerate({ runId, toolCallId })`, as Mastra documents ("Agent approval"). What the model is
// given next (the tool's answer, or the refusal Mastra writes for a declined call) is what comes back. The
// only thing in-process and not Mastra's is the model: a LanguageModelV2 object that calls `skill` with the
// case's input on the user's turn and ends the turn once the tool's answer is back. No network: no provider,
// and Mastra's usage telemetry is switched off (MASTRA_TELEMETRY_DISABLED) before a Mastra is made.
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { InMemoryStore } from "@mastra/core/storage";

process.env.MASTRA_TELEMETRY_DISABLED ??= "1";

const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * The model of the loop (AI SDK's LanguageModelV2, which Mastra's agents take): on the user's turn it calls the
 * `skill` tool with the input scripted for the turn; on the next step it ends the turn. It keeps every prompt
 * it was given: the last one holds the tool result exactly as the model receives it.
 */
function scriptedToolCaller() {
  const model = {
    specificationVersion: "v2",
    provider: "skill-conformance",
    modelId: "scripted-tool-caller",
    supportedUrls: {},
    /** The `skill` call to make on the next user turn: `{ toolCallId, input }`. */
    nextCall: undefined,
    prompts: [],
    async doGenerate({ prompt }) {
      model.prompts.push(prompt);
      const call = prompt[prompt.length - 1]?.role === "user" ? model.nextCall : undefined;
      const content = call
        ? [{ type: "tool-call", toolCallId: call.toolCallId, toolName: "skill", input: JSON.stringify(call.input) }]
        : [{ type: "text", text: "Done." }];
      return { content, finishReason: call ? "tool-calls" : "stop", usage: USAGE, warnings: [] };
    },
    async doStream() {
      throw new Error("the scripted model is driven through agent.generate (doGenerate) only");
    },
  };
  return model;
}

/** The tool result for `toolCallId` in the last prompt the model was given: `{ type, value }` (AI SDK's output). */
function toolResultIn(prompts, toolCallId) {
  for (const message of [...(prompts.at(-1) ?? [])].reverse()) {
    if (message.role !== "tool") continue;
    const part = message.content.find((p) => p.type === "tool-result" && p.toolCallId === toolCallId);
    if (part) return part.output;
  }
  return undefined;
}

/**
 * One Agent per session over `workspace` (whose skills the driver records). `ask(request)` is the kit's hook;
 * it receives Mastra's own approval payload. The driver records which Skill the tool resolved per call, so a
 * session's turns run one at a time (no case with a hook makes concurrent calls).
 */
export function createAgentLoop({ workspace, ask }) {
  const model = scriptedToolCaller();
  const mastra = new Mastra({
    agents: {
      skills: new Agent({ id: "skills", name: "skills", instructions: "Use your skills.", model, workspace }),
    },
    storage: new InMemoryStore(),
    logger: false,
  });
  const agent = mastra.getAgent("skills");
  // Mastra's own gate, evaluated per tool call: approval for the skill tool (the workspace's skill tools are
  // added with requireApproval: false, so the run option is how a user gates them: agent-*.js listSkillTools).
  const requireToolApproval = ({ toolName }) => toolName === "skill";
  let turns = 0;
  let chain = Promise.resolve();

  /**
   * One user turn whose model calls `skill` with `input`: the tool result the model is given next (AI SDK's
   * `{ type, value }`), and whether the hook's answer declined the call (the result is then Mastra's refusal).
   */
  async function turn(input) {
    const toolCallId = `call_${++turns}`;
    model.nextCall = { toolCallId, input };
    let out = await agent.generate("Use the skill.", { requireToolApproval });
    let declined = false;
    while (out.finishReason === "suspended") {
      const answer = await ask(out.suspendPayload);
      declined = answer !== "allow" && answer !== "allow_once";
      const resume = { runId: out.runId, toolCallId: out.suspendPayload?.toolCallId };
      out = declined ? await agent.declineToolCallGenerate(resume) : await agent.approveToolCallGenerate(resume);
    }
    if (out.error) throw out.error instanceof Error ? out.error : new Error(String(out.error));
    const output = toolResultIn(model.prompts, toolCallId);
    if (!output) throw new Error(`Mastra ended the turn without a tool result for ${toolCallId}`);
    return { output, declined };
  }

  return {
    call(input) {
      const run = chain.then(() => turn(input));
      chain = run.catch(() => {});
      return run;
    },
  };
}
