// Owns reading the resource names back out of the folder tree Gemini's activate_skill shows the model
// (`<available_resources>`, utils/getFolderStructure.js: "├───scripts/", "│   └───a.sh"): its own listing, in its
// own order, translated to the kit's paths relative to the skill dir (files under scripts/, references/, assets/).
const TOP = new Set(["scripts", "references", "assets"]);

/** The files Gemini's tree lists under the three resource folders, as `scripts/sub/b.sh`, in the tree's order. */
export function resourcesFromTree(output) {
  const tree = /<available_resources>([\s\S]*?)<\/available_resources>/.exec(output)?.[1] ?? "";
  const out = [];
  const stack = [];
  for (const line of tree.split("\n")) {
    const m = /^((?:│   |    )*)(?:├───|└───)(.*)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const name = m[2];
    stack.length = depth;
    if (name.endsWith("/")) {
      stack.push(name.slice(0, -1));
      continue;
    }
    if (depth > 0 && TOP.has(stack[0])) out.push([...stack, name].join("/"));
  }
  return out;
}
