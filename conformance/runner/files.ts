// Owns the checks a call's expectation makes on the case's temp dir rather than on the result: files_absent,
// the paths that must not exist once the call has answered (what a `!`cmd`` block in a body would create if an
// implementation ran it, §1 non-goals, §15). Paths are relative to the temp dir, which the schema keeps them in.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { ResultExpect } from "../../schemas/index.ts";
import { attribute, type Miss } from "./expect.ts";

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** One miss per path of files_absent that exists under tmp after the call (a dangling symlink counts: it was made). */
export function checkFilesAbsent(exp: ResultExpect, tmp: string, at: string): Miss[] {
  const misses: Miss[] = (exp.files_absent ?? []).flatMap((p, i) =>
    exists(join(tmp, p))
      ? [
          {
            at: `${at}.files`,
            key: `files_absent.${i}`,
            expected: `no file at <tmp>/${p}`,
            actual: `<tmp>/${p} exists`,
            what: "the call created a file it must never create",
          },
        ]
      : [],
  );
  return attribute(misses, exp.rules);
}
