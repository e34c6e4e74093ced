// The OpenAI Responses API as the fake model speaks it (POST /v1/responses, streamed): response.created,
// response.in_progress, then per output item response.output_item.added, its deltas (function_call_arguments or
// output_text), response.output_item.done, and response.completed with the whole output. A turn is either
// function calls or one assistant message. Also reads a request: its tools, instructions and input items, and what
// the harness answered to our calls (function_call_output, and every input item after it).

function items(turn) {
  if (turn.calls?.length) {
    return turn.calls.map((c, i) => ({
      type: "function_call",
      id: `fc_${i}_${c.id}`,
      status: "completed",
      call_id: c.id,
      name: c.name,
      arguments: typeof c.input === "string" ? c.input : JSON.stringify(c.input ?? null),
    }));
  }
  return [
    {
      type: "message",
      id: "msg_fake",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: turn.text ?? "", annotations: [] }],
    },
  ];
}

function response(id, model, status, output) {
  const usage = {
    input_tokens: 1,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 2,
  };
  return {
    id,
    object: "response",
    created_at: 0,
    status,
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    ...(status === "completed" ? { usage } : {}),
  };
}

/** The SSE events of one streamed turn. Every event carries its sequence_number, as the API's do. */
export function responseEvents(turn, { id = "resp_fake", model = "fake-model" } = {}) {
  const out = items(turn);
  const events = [];
  const push = (type, data) => events.push([type, { type, sequence_number: events.length, ...data }]);
  push("response.created", { response: response(id, model, "in_progress", []) });
  push("response.in_progress", { response: response(id, model, "in_progress", []) });
  out.forEach((item, output_index) => {
    if (item.type === "function_call") {
      push("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } });
      push("response.function_call_arguments.delta", { item_id: item.id, output_index, delta: item.arguments });
      push("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments });
    } else {
      const text = item.content[0].text;
      push("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      push("response.content_part.added", {
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
      push("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta: text });
      push("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text });
      push("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part: item.content[0] });
    }
    push("response.output_item.done", { output_index, item });
  });
  push("response.completed", { response: response(id, model, "completed", out) });
  return events;
}

export function responseJson(turn, { id = "resp_fake", model = "fake-model" } = {}) {
  return response(id, model, "completed", items(turn));
}

/** Names of the function tools a request offers (and the type of built-in tools, e.g. local_shell). */
export function toolNames(body) {
  return (body?.tools ?? []).map((t) => t?.name ?? t?.type).filter((n) => typeof n === "string");
}

/** Text of one input item's content (string or a list of input_text/output_text parts). */
export function contentText(content) {
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content
        .map((p) => (typeof p?.text === "string" ? p.text : ""))
        .filter(Boolean)
        .join("\n")
    : "";
}

/** Instructions plus every developer/system message: where a harness puts its skill listing. */
export function systemText(body) {
  const dev = (body?.input ?? []).filter(
    (i) => i?.type === "message" && (i.role === "developer" || i.role === "system"),
  );
  return [body?.instructions ?? "", ...dev.map((i) => contentText(i.content))].filter(Boolean).join("\n");
}

/** What the harness answered to calls `ids`: each function_call_output, and the input items after the last one. */
export function answersTo(body, ids) {
  const input = body?.input ?? [];
  const results = new Map();
  let at = -1;
  input.forEach((item, i) => {
    if (item?.type === "function_call_output" && ids.includes(item.call_id)) {
      const text = typeof item.output === "string" ? item.output : contentText(item.output);
      results.set(item.call_id, { text, isError: false, raw: item });
      at = Math.max(at, i);
    }
  });
  const following =
    at >= 0
      ? input
          .slice(at + 1)
          .filter((i) => i?.type === "message" && i.role === "user")
          .map((i) => contentText(i.content))
      : [];
  return { results, following };
}
