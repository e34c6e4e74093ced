// Reading a skill listing the way a harness shows it to the model: `- name: description` lines (a description may
// run over several lines; `- name` alone when the harness shows no description), or XML-ish `<skill><name>…</name><description>…</description><location>…</location>
// </skill>` blocks. Returns the entries in the harness's own order, with only what the listing says.

/** `- name: description` lines inside `text`, from the line after `header` to the end of the block. */
export function dashListing(text, header) {
  const at = text.indexOf(header);
  if (at < 0) return undefined;
  const entries = [];
  for (const line of text.slice(at + header.length).split("\n")) {
    if (/^<\/system-reminder>/.test(line) || /^<\//.test(line)) break;
    // `- name` alone: a harness that lists names only (Claude Code, past its listing budget) shows no description.
    const m = /^- ([^:\s][^:]*?)(?:: ?(.*))?$/.exec(line);
    if (m) entries.push({ name: m[1], description: m[2] ?? "" });
    else if (entries.length && line.trim()) entries[entries.length - 1].description += `\n${line}`;
  }
  return entries;
}

/** `<skill>` blocks with child elements (name, description, location, …) as plain strings. */
export function xmlListing(text) {
  const entries = [];
  for (const m of text.matchAll(/<skill>([\s\S]*?)<\/skill>/g)) {
    const e = {};
    for (const f of m[1].matchAll(/<([a-z_]+)>([\s\S]*?)<\/\1>/g)) e[f[1]] = f[2].trim();
    if (e.name !== undefined) entries.push(e);
  }
  return entries;
}

/** The five XML entities a harness escapes in its listing, back to text. */
export function unescapeXml(s) {
  return s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]);
}
