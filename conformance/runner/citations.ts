// Owns resolving a citation: "§4.5 rule 6", "§7 step 3", "§13.1 case 28" against the spec text's sections and
// their numbered items, "D4" / "R35" against the decisions table. Used by the traceability test and by anyone
// who wants a citation's target; a citation that resolves to nothing ("S-D12") is a defect.
import { readFileSync } from "node:fs";
import { dataPath } from "../../package-root.ts";

/** The spec's sections by number ("4.5" → its text), read from docs/spec/skill-tool-spec.txt. */
export function specSections(
  text = readFileSync(dataPath("docs/spec/skill-tool-spec.txt"), "utf8"),
): Map<string, string> {
  const sections = new Map<string, string[]>();
  let top = 0;
  let current: string[] | undefined;
  for (const line of text.split("\n")) {
    const sub = /^(\d+\.\d+) \S/.exec(line);
    const head = /^(\d+)\. ([^.]{1,60})$/.exec(line);
    let id: string | undefined;
    if (sub) id = sub[1];
    else if (head && Number(head[1]) === top + 1) {
      top++;
      id = head[1];
    }
    if (id !== undefined) {
      current = [];
      sections.set(id, current);
    } else current?.push(line);
  }
  return new Map([...sections].map(([k, v]) => [k, v.join("\n")]));
}

const CITATION = /^§(\d+(?:\.\d+)?)(?: (rule|step|case) (\d+))?$/;

/** Why a citation does not resolve, or undefined when it does. */
export function unresolved(
  citation: string,
  sections: ReadonlyMap<string, string>,
  decisionIds: ReadonlySet<string>,
): string | undefined {
  if (/^[DRKEX]\d+$/.test(citation)) return decisionIds.has(citation) ? undefined : `no decision ${citation}`;
  const m = CITATION.exec(citation);
  if (!m) return "not a citation (§N, §N.M, §N.M rule|step|case K, D…, R…)";
  const body = sections.get(m[1]!);
  if (body === undefined) return `no section §${m[1]}`;
  if (m[3] !== undefined && !new RegExp(`^${m[3]}\\. `, "m").test(body)) return `§${m[1]} has no item ${m[3]}`;
  return undefined;
}
