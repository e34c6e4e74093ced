// Owns PROTOCOL.md's list of `unobserved` ids (region observations-table): one line per row of
// schemas/observations.json (decision K40), so the page can never list an id the kit does not know or miss one it
// does. Pure: the table in, Markdown out.
import type { Observation } from "../../schemas/index.ts";

const code = (s: string) => `\`${s}\``;

/** A bullet per id: what the harness does not produce, where it shows, which rules become "not observable here". */
export function observationsTable(rows: readonly Observation[]): string {
  const list = rows
    .map((r) => {
      const places = r.places.length ? r.places.map(code).join(", ") : "none of the answer's fields";
      const rules = r.rules.length ? r.rules.map(code).join(", ") : "none";
      return `- ${code(r.id)}: ${r.what}. Places: ${places}. Rules not observable: ${rules}.`;
    })
    .join("\n");
  // Blank lines around the list: the formatter sets a Markdown list apart from the region's markers.
  return `\n${list}\n\n`;
}
