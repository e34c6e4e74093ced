// The SK1–SK8 scenario registry, in §13.2 order.
import type { Scenario } from "../scenario.ts";
import { SK1 } from "./sk1.ts";
import { SK2 } from "./sk2.ts";
import { SK3 } from "./sk3.ts";
import { SK4 } from "./sk4.ts";
import { SK5 } from "./sk5.ts";
import { SK6 } from "./sk6.ts";
import { SK7 } from "./sk7.ts";
import { SK8 } from "./sk8.ts";

export const SCENARIOS: readonly Scenario[] = [SK1, SK2, SK3, SK4, SK5, SK6, SK7, SK8];

export function scenarioById(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id.toLowerCase() === id.toLowerCase());
}
