// The e2e CLI run in-process for tests: main() with stdout and stderr captured, its exit code returned.
import { main } from "../cli.ts";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runCli(argv: string[]): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await main(argv, {
    stdout: (s) => void (out += s),
    stderr: { write: (s: string) => ((err += s), true), isTTY: false },
  });
  return { code, out, err };
}
