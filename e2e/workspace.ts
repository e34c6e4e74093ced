// The throw-away workspace of one trial: a temp dir holding a copy of the scenario's fixture (skills and project
// files), set up per scenario (e.g. a git history), listed at the end of the trial and then removed.
// Owns: createWorkspace, listFiles, removeWorkspace, FIXTURES_DIR.
import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { dataPath } from "../package-root.ts";

export const FIXTURES_DIR = dataPath("fixtures", "e2e");

export interface Workspace {
  /** Real path of the temp dir (symlinks resolved, so fences compare like with like). */
  root: string;
}

/** Copies fixtures/e2e/<fixture> into a fresh temp dir. */
export function createWorkspace(fixture: string, prefix = "skill-e2e-"): Workspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cpSync(join(FIXTURES_DIR, fixture), root, { recursive: true });
  return { root };
}

/** Files under root, relative and sorted, skipping .git internals; capped so a runaway agent cannot blow up a transcript. */
export function listFiles(root: string, cap = 500): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (out.length >= cap) return;
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === ".git") continue;
        out.push(relative(root, full) + "/");
        walk(full);
      } else out.push(relative(root, full));
    }
  };
  walk(root);
  return out;
}

export function removeWorkspace(ws: Workspace): void {
  rmSync(ws.root, { recursive: true, force: true });
}
