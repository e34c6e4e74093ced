// The agent's bash/read tools and the permission policy's command matching.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decide, isDestructive, isGitLog, isRmRf, lineRuns, readFile, runBash, scriptReader } from "../tools.ts";

const rmrf = (c: string) => lineRuns(c, isRmRf);
const gitLog = (c: string) => lineRuns(c, isGitLog);
const destructive = (c: string) => lineRuns(c, isDestructive);

describe("command matching", () => {
  it("finds rm -rf in its many spellings", () => {
    for (const c of [
      "rm -rf build",
      "rm -fr build",
      "rm -r -f build",
      "rm -Rf build",
      "cd x && rm -rf build",
      "sudo rm -rf /",
      "/bin/rm --recursive --force b",
      "ls; rm -rf b",
    ]) {
      expect(rmrf(c), c).toBe(true);
    }
    for (const c of ["rm -r build", "rm -f file", "echo rm -rf", "git log", "grep -rf pattern ."])
      expect(rmrf(c), c).toBe(false);
  });
  it("finds git log", () => {
    expect(gitLog("git log --oneline -5")).toBe(true);
    expect(gitLog("cd repo && git --no-pager log -3")).toBe(true);
    expect(gitLog("git status")).toBe(false);
    expect(gitLog("echo git log")).toBe(false);
  });
  it("finds deletion by other routes", () => {
    for (const c of [
      "rm -r build",
      "find build -delete",
      "rmdir build",
      "git clean -fdX",
      "python3 -c 'import shutil; shutil.rmtree(\"build\")'",
      "find . -name x -exec rm {} +",
    ]) {
      expect(destructive(c), c).toBe(true);
    }
    expect(destructive("ls build && cat build/app.js")).toBe(false);
  });
  it("the policy takes the first matching rule, else the fallback", () => {
    const policy = {
      rules: [
        { tool: "bash" as const, label: "rm -rf", match: isRmRf, decision: "deny" as const },
        { tool: "bash" as const, label: "git log", match: isGitLog, decision: "allow" as const },
      ],
      fallback: "allow" as const,
    };
    expect(decide(policy, "bash", "rm -rf build")).toEqual({ decision: "deny", rule: "deny bash(rm -rf)" });
    expect(decide(policy, "bash", "git log")).toEqual({ decision: "allow", rule: "allow bash(git log)" });
    expect(decide(policy, "read", "rm -rf")).toEqual({ decision: "allow", rule: "allow by default" });
  });
});

describe("the permission policy decides on the parsed line", () => {
  const policy = {
    rules: [
      { tool: "bash" as const, label: "rm -rf", match: isRmRf, decision: "deny" as const },
      { tool: "bash" as const, label: "git log", match: isGitLog, decision: "allow" as const },
    ],
    fallback: "allow" as const,
  };
  it("denies rm -rf in every compound and nested form", () => {
    for (const c of [
      "if [ -d build ]; then rm -rf build; fi",
      "ls || rm -rf build",
      "true && (cd . && rm -fr build)",
      "echo $(rm -rf build)",
      "echo `rm -rf build`",
      'bash -c "rm -rf build"',
      "sh -lc 'git log; rm -Rf build'",
      "env FOO=1 rm -rf build",
      "echo build | xargs rm -rf",
      "find . -name build -exec rm -rf {} +",
      "sudo -u root rm --recursive --force build",
      "eval 'rm -rf build'",
      'for d in build; do rm -rf "$d"; done',
      "r\\m -r'f' build",
      "{ rm -rf build; }",
      "timeout 5 nice -n 5 rm -rf build",
    ]) {
      expect(decide(policy, "bash", c), c).toEqual({ decision: "deny", rule: "deny bash(rm -rf)" });
    }
  });
  it("denies what it cannot parse or cannot see the program of", () => {
    for (const c of [
      'echo "unterminated',
      "case x in a) rm -rf b;; esac",
      "f() { rm -rf build; }; f",
      "$CMD -rf build",
      'bash -c "$X"',
    ]) {
      expect(decide(policy, "bash", c).decision, c).toBe("deny");
    }
  });
  it("denies commands it cannot see because they arrive on stdin or run from inline code", () => {
    for (const c of [
      "echo 'rm -rf build' | bash",
      "bash <<'EOF'\nrm -rf build\nEOF",
      "sh -s <<< 'rm -rf build'",
      "echo build | xargs -I{} sh -c 'rm -rf {}'",
      "echo -rf build | xargs rm",
      "perl -e 'system(\"rm -rf build\")'",
      "python3 -c \"import os; os.system('rm -rf build')\"",
      "node -e \"require('child_process').execSync('rm -rf build')\"",
    ]) {
      expect(decide(policy, "bash", c).decision, c).toBe("deny");
    }
    // A script file operand and inline code that runs nothing are not opaque.
    for (const c of ["bash .skills/x/scripts/run.sh", "python3 -c 'print(1)'", "echo a b | xargs echo"])
      expect(decide(policy, "bash", c).decision, c).toBe("allow");
  });
  it("judges the commands inside a script file the line runs, when it can read the workspace's files", () => {
    // Written to a file first and then run, rm -rf is still rm -rf: the policy decides on what runs, not on the line.
    const files: Record<string, string> = {
      "cleanup.sh": "#!/bin/sh\nset -e\nrm -rf build\n",
      "tidy.sh": "git log --oneline -3\n",
      "outer.sh": "bash ./cleanup.sh\n",
      "tool.py": "#!/usr/bin/env python3\nimport shutil\n",
      "bin/git": "\u007fELF\u0000binary",
    };
    const reader = (p: string) => files[p.replace(/^\.\//, "")];
    for (const c of [
      "bash cleanup.sh",
      "sh -e ./cleanup.sh",
      ". cleanup.sh",
      "source ./cleanup.sh",
      "./cleanup.sh",
      "bash outer.sh",
      "sudo bash cleanup.sh",
    ]) {
      expect(decide(policy, "bash", c, reader), c).toEqual({ decision: "deny", rule: "deny bash(rm -rf)" });
    }
    // A script the policy cannot read (written by the same line, or not there) could run anything.
    for (const c of ["printf 'rm -rf build' > x.sh && bash x.sh", "./missing.sh", "bash $SCRIPT"])
      expect(decide(policy, "bash", c, reader).decision, c).toBe("deny");
    expect(decide(policy, "bash", "bash tidy.sh", reader)).toEqual({ decision: "allow", rule: "allow bash(git log)" });
    // Other interpreters and binaries run directly are judged by their command line alone.
    for (const c of ["./tool.py", "./bin/git status"])
      expect(decide(policy, "bash", c, reader).decision, c).toBe("allow");
    // Without a reader (the judge reading a transcript later), the file operand is not looked into.
    expect(decide(policy, "bash", "bash cleanup.sh").decision).toBe("allow");
    // A wrapper named by its path is still a wrapper: what it runs is judged, with a reader as without one.
    for (const c of [
      "/usr/bin/env rm -rf build",
      "/usr/bin/timeout 5 rm -rf build",
      "/usr/bin/find . -exec rm -rf {} +",
      "/usr/bin/sudo rm -rf build",
    ]) {
      for (const r of [reader, undefined])
        expect(decide(policy, "bash", c, r), c).toEqual({ decision: "deny", rule: "deny bash(rm -rf)" });
    }
  });
  it("denies a script too long to judge whole, rather than judging its beginning", () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), "e2e-script-")));
    writeFileSync(join(ws, "long.sh"), `${"true\n".repeat(20_000)}rm -rf build\n`);
    writeFileSync(join(ws, "short.sh"), "git log -1\n");
    expect(decide(policy, "bash", "bash long.sh", scriptReader(ws)).decision).toBe("deny");
    expect(decide(policy, "bash", "bash short.sh", scriptReader(ws))).toEqual({
      decision: "allow",
      rule: "allow bash(git log)",
    });
  });
  it("allows git log in its ordinary spellings and the rest by default", () => {
    for (const c of [
      "git -C /tmp/x log --oneline",
      "cd . && git --no-pager log -3 --format=%s",
      "git -c color.ui=never log | head -3",
    ]) {
      expect(decide(policy, "bash", c), c).toEqual({ decision: "allow", rule: "allow bash(git log)" });
    }
    expect(decide(policy, "bash", "ls -la build && cat build/app.js")).toEqual({
      decision: "allow",
      rule: "allow by default",
    });
    expect(decide(policy, "bash", "echo 'rm -rf build'")).toEqual({ decision: "allow", rule: "allow by default" });
  });
});

describe("bash and read", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "e2e-tools-")));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "e2e-outside-")));
  mkdirSync(join(root, "sub"));
  writeFileSync(join(root, "sub", "a.txt"), "hello\n");
  writeFileSync(join(outside, "secret.txt"), "secret\n");
  symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("runs in the workspace with HOME set to it", async () => {
    const r = await runBash('pwd; echo "$HOME"; exit 3', { cwd: root, home: root, timeoutMs: 5000, outputCap: 1000 });
    expect(r.exitCode).toBe(3);
    expect(r.output).toBe(`${root}\n${root}\n`);
  });
  it("kills a command that outlives its timeout, pipeline and all", async () => {
    const t0 = Date.now();
    const r = await runBash("sleep 20 | cat", { cwd: root, home: root, timeoutMs: 300, outputCap: 1000 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
  it("caps output", async () => {
    const r = await runBash("yes x | head -c 100000", { cwd: root, home: root, timeoutMs: 5000, outputCap: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.output.length).toBe(1000);
  });
  it("reads inside the workspace, relative or absolute, and lists directories", () => {
    expect(readFile("sub/a.txt", root, root, 1000).output).toBe("hello\n");
    expect(readFile(join(root, "sub", "a.txt"), join(root, "sub"), root, 1000).output).toBe("hello\n");
    expect(readFile("sub", root, root, 1000).output).toBe("a.txt");
  });
  it("refuses paths outside the workspace, by .. or by symlink", () => {
    expect(readFile("../" + outside.split("/").pop() + "/secret.txt", root, root, 1000).record).toMatchObject({
      ok: false,
      error: expect.stringContaining("outside the workspace"),
    });
    expect(readFile(join(outside, "secret.txt"), root, root, 1000).record.ok).toBe(false);
    expect(readFile("link.txt", root, root, 1000).record).toMatchObject({
      ok: false,
      error: expect.stringContaining("outside"),
    });
    expect(readFile("nope.txt", root, root, 1000).record).toMatchObject({
      ok: false,
      error: expect.stringContaining("no such file"),
    });
  });
});
