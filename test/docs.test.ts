// Docs that cannot drift: the generated regions of README.md and conformance/MUTANTS.md (counts, lists, the mutant
// table, the compatibility table) are regenerated in memory from the kit's own data and must equal what is written.
// A failure here means: run `npm run docs` (scripts/gen-docs.ts) and commit the result.
import { describe, expect, it } from "vitest";
import { fillRegions, RegionError } from "../conformance/docs/regions.ts";
import { renderDocs, stale } from "../conformance/docs/render.ts";
import { PROVIDERS } from "../e2e/providers/index.ts";
import { PACKAGE_ROOT } from "../package-root.ts";

describe("generated docs", () => {
  it("README.md and conformance/MUTANTS.md are as npm run docs writes them", async () => {
    expect(
      stale(
        await renderDocs(
          PACKAGE_ROOT,
          PROVIDERS.map((p) => p.name),
        ),
        PACKAGE_ROOT,
      ),
      "stale pages: run npm run docs",
    ).toEqual([]);
  });

  it("a region's body is replaced between its markers, the rest of the page kept; a missing region is an error", () => {
    const page = "head\n<!-- a:start -->\nold\n<!-- a:end -->\ntail\n";
    expect(fillRegions(page, "p.md", { a: "new\nlines" })).toBe(
      "head\n<!-- a:start -->\nnew\nlines\n<!-- a:end -->\ntail\n",
    );
    expect(fillRegions(fillRegions(page, "p.md", { a: "x" }), "p.md", { a: "x" })).toBe(
      fillRegions(page, "p.md", { a: "x" }),
    );
    expect(() => fillRegions(page, "p.md", { b: "x" })).toThrow(RegionError);
  });
});
