// deepagents' permission hook, driven as its users run it: `createDeepAgent({ interruptOn: { read_file: true },
// checkpointer })`. Its human-in-the-loop middleware (langchain's humanInTheLoopMiddleware, which createDeepAgent
// installs for `interruptOn`) stops the LangGraph run before the tool runs (`interrupt({ actionRequests,
// reviewConfigs })`); the kit's permission hook is the human who answers it, and the run is resumed with
// `new Command({ resume: { decisions: [{ type: "approve" | "reject" }] } })`, as deepagents documents. The tool
// message the run ends with (the file read_file showed, or the rejection the middleware gives the model) is
// what comes back. The only thing in-process and not deepagents' is the model: a LangChain chat model that
// makes the tool call the driver scripts (read_file on the listed SKILL.md, limit 1000, as the listing says) and then
// ends its turn. No network: nothing here has a provider.
import { createDeepAgent, FilesystemBackend } from "deepagents";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";

/**
 * The model of the loop: on a user's turn it calls read_file with the arguments the driver scripted for that
 * turn (what a model reads off the listing); once the tool's answer (or the rejection) is back, it ends the turn.
 */
class ScriptedToolCaller extends BaseChatModel {
  constructor() {
    super({});
    /** The tool call to make on the next user turn: `{ id, name, args }`. */
    this.nextCall = undefined;
  }
  _llmType() {
    return "scripted-tool-caller";
  }
  // createAgent binds the agent's tools to its model; this one knows its one call already.
  bindTools() {
    return this;
  }
  async _generate(messages) {
    const last = messages[messages.length - 1];
    const call = HumanMessage.isInstance(last) ? this.nextCall : undefined;
    const message = call
      ? new AIMessage({ content: "", tool_calls: [{ ...call, type: "tool_call" }] })
      : new AIMessage("Done.");
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}

/** The kit's answer as deepagents' decision: its HITL knows approve, edit and reject (no "always"). */
const decisionFor = (answer) =>
  answer === "allow" || answer === "allow_once" ? { type: "approve" } : { type: "reject" };

/**
 * One deepagents agent per session, on one LangGraph thread (its checkpointer keeps the thread's state, the
 * skills listing loaded once per thread). `ask(request)` is the kit's hook; it receives deepagents' own
 * interrupt value. A thread runs one turn at a time, as LangGraph runs it: turns are chained.
 */
export function createAgentLoop({ sources, permissions, ask }) {
  const model = new ScriptedToolCaller();
  const agent = createDeepAgent({
    model,
    backend: new FilesystemBackend({ rootDir: "/" }),
    skills: sources,
    permissions,
    interruptOn: { read_file: true },
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: "skill-conformance" } };
  let turns = 0;
  let chain = Promise.resolve();

  /** One user turn whose model calls read_file with `args`: the tool message it ends with (the tool's, or the rejection). */
  async function turn(args) {
    const id = `call_${++turns}`;
    model.nextCall = { id, name: "read_file", args };
    let state = await agent.invoke({ messages: [new HumanMessage("Use the skill.")] }, config);
    while (state.__interrupt__?.length) {
      const decisions = [];
      for (const pending of state.__interrupt__) {
        // One answer per interrupt, one decision per tool call it holds (here one: the read).
        const answer = await ask(pending.value);
        decisions.push(...(pending.value?.actionRequests ?? []).map(() => decisionFor(answer)));
      }
      state = await agent.invoke(new Command({ resume: { decisions } }), config);
    }
    const message = state.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === id);
    if (!message) throw new Error(`deepagents ended the turn without a tool message for ${id}`);
    return message;
  }

  return {
    read(args) {
      const run = chain.then(() => turn(args));
      chain = run.catch(() => {});
      return run;
    },
  };
}
