// The README's table of decision scopes is derived from schemas/decisions/ (conformance/docs/decisions.ts): ids
// folded into runs, and the next free id one above the highest of its prefix in any scope (R ids live in all four).
import { describe, expect, it } from "vitest";
import type { DecisionFile } from "../../schemas/types.gen.ts";
import { decisionsTable, idRanges, nextId } from "../docs/decisions.ts";

const file = (scope: DecisionFile["scope"], ids: string[]): DecisionFile =>
  ({
    scope,
    description: `${scope} things`,
    numbering: "",
    decisions: ids.map((id) => ({ id, scope, spec: "§1", title: "t", decision: "d" })),
  }) as DecisionFile;

describe("the decision scopes' table", () => {
  it("folds consecutive ids into runs, per prefix, and keeps lone ids alone", () => {
    expect(idRanges(["D1", "D2", "D3", "R1", "R2", "R4", "R140", "R141", "R160"])).toBe(
      "D1–D3, R1–R2, R4, R140–R141, R160",
    );
  });

  it("takes the next id above every id of the scope's prefix in any file (an R id appended to kit.json counts for contract)", () => {
    const files = [
      file("contract", ["R1", "R97"]),
      file("kit", ["R101", "K1", "K52"]),
      file("reference", ["R10"]),
      file("e2e", ["R50"]),
    ];
    expect(nextId("contract", files)).toBe("R102");
    expect(nextId("kit", files)).toBe("K53");
    expect(nextId("reference", files)).toBe("X1");
    expect(nextId("e2e", files)).toBe("E1");
    expect(decisionsTable(files)).toContain(
      "| `kit` | [`kit.json`](schemas/decisions/kit.json) | kit things | R101, K1, K52 | K53 |",
    );
  });
});
