// Server-sent events framing, as both fakes write it: `event: <name>\ndata: <one JSON line>\n\n`. One job: turn
// a list of [event, data] pairs into the bytes of one streamed HTTP body, so the framing lives in one place and
// the tests can check it against the parsers the harnesses ship.
export function frame(event, data) {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function frames(events) {
  return events.map(([event, data]) => frame(event, data)).join("");
}

/** The inverse, for tests and for the fakes' own logs: parse an SSE body into [event, data] pairs. */
export function parseFrames(text) {
  const out = [];
  for (const block of text.split(/\n\n/)) {
    if (!block.trim()) continue;
    let event = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    out.push([event, JSON.parse(data.join("\n"))]);
  }
  return out;
}
