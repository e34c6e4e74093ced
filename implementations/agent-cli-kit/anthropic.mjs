// The Anthropic Messages API as the fake model speaks it (POST /v1/messages): one assistant turn, streamed in the
// current event format (message_start, content_block_start / content_block_delta with text_delta or
// input_json_delta, content_block_stop, message_delta with its stop_reason, message_stop), or as one JSON message
// when the request did not ask for a stream. A turn is either tool calls (stop_reason tool_use) or text (end_turn).
// Also reads a request the harness sent: its tools, system text, and what it answered to our tool calls.

const usage = (input, output) => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

/** The content blocks of a turn: `{calls: [{id, name, input}]}` or `{text}`. */
function blocks(turn) {
  if (turn.calls?.length) return turn.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.input }));
  return [{ type: "text", text: turn.text ?? "" }];
}

const stopReason = (turn) => (turn.calls?.length ? "tool_use" : "end_turn");

/** The SSE events of one streamed turn, in the order the API sends them. */
export function messageEvents(turn, { id = "msg_fake", model = "fake-model" } = {}) {
  const events = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: usage(1, 1),
        },
      },
    ],
  ];
  blocks(turn).forEach((block, index) => {
    if (block.type === "text") {
      events.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      ]);
      events.push([
        "content_block_delta",
        { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } },
      ]);
    } else {
      events.push([
        "content_block_start",
        {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        },
      ]);
      // The input as a model streams it: JSON text in pieces (any JSON value: a case may send null or a number).
      const json = JSON.stringify(block.input ?? null);
      const cut = Math.ceil(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        if (part)
          events.push([
            "content_block_delta",
            { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } },
          ]);
      }
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: stopReason(turn), stop_sequence: null },
      usage: { output_tokens: 1 },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

/** The same turn as one non-streamed JSON message. */
export function messageJson(turn, { id = "msg_fake", model = "fake-model" } = {}) {
  return {
    id,
    type: "message",
    role: "assistant",
    model,
    content: blocks(turn),
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: usage(1, 1),
  };
}

/** Names of the tools a request offers. */
export function toolNames(body) {
  return (body?.tools ?? []).map((t) => t?.name).filter((n) => typeof n === "string");
}

/** A request's system prompt as one string (it may be a string or a list of text blocks). */
export function systemText(body) {
  const s = body?.system;
  if (typeof s === "string") return s;
  return Array.isArray(s) ? s.map((b) => (typeof b?.text === "string" ? b.text : "")).join("\n") : "";
}

/** Text of one message's content (string, or the text of its text and tool_result blocks). */
export function contentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (b?.type === "text" ? b.text : b?.type === "tool_result" ? contentText(b.content) : ""))
    .filter((t) => typeof t === "string" && t)
    .join("\n");
}

/**
 * What the harness answered to tool calls `ids`: for each id its tool_result (text, is_error), and every message
 * the request carries after the one holding the results (some harnesses deliver a skill body there).
 */
export function answersTo(body, ids) {
  const messages = body?.messages ?? [];
  let at = -1;
  const results = new Map();
  messages.forEach((m, i) => {
    if (!Array.isArray(m?.content)) return;
    for (const b of m.content) {
      if (b?.type === "tool_result" && ids.includes(b.tool_use_id)) {
        results.set(b.tool_use_id, { text: contentText(b.content), isError: b.is_error === true, raw: b });
        at = Math.max(at, i);
      }
    }
  });
  // Text blocks beside the tool_result blocks in the same user message count as following text too.
  const sameMessage = at >= 0 ? messages[at].content.filter((b) => b?.type === "text").map((b) => b.text) : [];
  const after =
    at >= 0
      ? messages
          .slice(at + 1)
          .filter((m) => m?.role === "user")
          .map((m) => contentText(m.content))
      : [];
  return { results, following: [...sameMessage, ...after] };
}
