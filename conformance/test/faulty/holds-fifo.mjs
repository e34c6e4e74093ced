// An in-process implementation whose session never opens: it opens a FIFO no one writes, which holds a libuv thread
// for good (as Gemini CLI's discovery does on S24's FIFO SKILL.md). The run ends at its first case's deadline with
// the call left running; the CLI must still end (compat-forced-exit.test.ts).
import { execFileSync } from "node:child_process";
import { open } from "node:fs/promises";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const implementationInfo = { name: "holds-fifo", version: "0", language: "javascript", specVersion: "1" };

export async function createSession() {
  const fifo = join(mkdtempSync(join(tmpdir(), "holds-fifo-")), "fifo");
  execFileSync("mkfifo", [fifo]);
  await open(fifo, "r");
  throw new Error("unreachable: no one writes the FIFO");
}
