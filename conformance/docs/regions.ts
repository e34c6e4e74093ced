// Owns the generated regions of a hand-written page: text between `<!-- <name>:start -->` and `<!-- <name>:end -->`
// belongs to `npm run docs` (scripts/gen-docs.ts), everything else to its authors. Pure: text in, text out.

export class RegionError extends Error {}

/** The page with each named region's body replaced; a region named but missing from the page is an error. */
export function fillRegions(page: string, file: string, regions: Readonly<Record<string, string>>): string {
  let out = page;
  for (const [name, body] of Object.entries(regions)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const a = out.indexOf(start);
    const b = out.indexOf(end);
    if (a < 0 || b < a)
      throw new RegionError(`${file}: no region ${start} … ${end} (add the two markers where it goes)`);
    if (out.indexOf(start, a + 1) >= 0) throw new RegionError(`${file}: region ${name} appears twice`);
    // A body ending in a blank line keeps one (a Markdown list the formatter wants set apart from the end marker).
    const tail = /\n\n$/.test(body) ? "\n\n" : "\n";
    out = `${out.slice(0, a + start.length)}\n${body.replace(/\n*$/, tail)}${out.slice(b)}`;
  }
  return out;
}
