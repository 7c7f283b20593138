/**
 * A program judged against hidden tests in the real sandbox (app/modules/code/judge.server.ts): verdicts,
 * subtasks stopped at their first failing test, points as the passed subtasks' shares. Skips, saying why,
 * on a machine that cannot sandbox (scripts/lib/ensure.sh ensure_sandbox).
 */
import { describe, expect, it } from "vitest";
import { judge, type JudgeRequest } from "../../app/modules/code/judge.server.ts";
import { type TestsArchive } from "../../app/modules/code/tests-archive.server.ts";
import { sandboxHost, type SandboxHost } from "../../app/infrastructure/sandbox/sandbox.server.ts";

const host = await sandboxHost();
const unavailable = "reason" in host ? host.reason : null;
if (unavailable) console.warn(`code judging tests skipped: ${unavailable}`);

const pair = (name: string, input: string, output: string) => ({ name, input: Buffer.from(input), output: Buffer.from(output) });
/** Sums: small numbers (30 points), then large ones that overflow 32 bits (70). */
const ARCHIVE: TestsArchive = {
  subtasks: [
    { name: "small", share: 30, tests: [pair("1", "1 2\n", "3\n"), pair("2", "20 22\n", "42\n")] },
    { name: "large", share: 70, tests: [pair("1", "2000000000 2000000000\n", "4000000000\n"), pair("2", "1 1\n", "2\n")] },
  ],
  totalShare: 100,
};
const request = (language: JudgeRequest["language"], source: string): JudgeRequest => ({
  slot: (host as SandboxHost).slots[1] ?? (host as SandboxHost).slots[0]!,
  language,
  source,
  archive: ARCHIVE,
  limits: { timeMs: 1000, memoryBytes: 128 * 1024 * 1024, outputBytes: 1024 * 1024 },
  comparator: "exact",
});

describe.skipIf(unavailable !== null)("judging code against hidden tests", () => {
  it("accepts a right program in every subtask, with each test's time and memory", async () => {
    const judged = await judge(host as SandboxHost, request("python3", "a, b = map(int, input().split())\nprint(a + b)"));
    expect(judged.verdict).toBe("accepted");
    expect(judged.fraction).toBe(1);
    expect(judged.tests.map((test) => test.verdict)).toEqual(["accepted", "accepted", "accepted", "accepted"]);
    expect(judged.tests.every((test) => test.memoryBytes > 0)).toBe(true);
  });

  it("gives the small subtask's points to a program that overflows on large numbers, and skips the rest of that subtask", async () => {
    const seen: string[] = [];
    const judged = await judge(host as SandboxHost, {
      ...request("c", `#include <stdio.h>\nint main(void){ int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); return 0; }`),
      onTest: (index, count) => seen.push(`${index}/${count}`),
    });
    expect(judged.verdict).toBe("wrong-answer");
    expect(judged.subtasks).toEqual([
      { name: "small", share: 30, passed: true },
      { name: "large", share: 70, passed: false },
    ]);
    expect(judged.fraction).toBeCloseTo(0.3);
    expect(judged.tests.map((test) => test.verdict)).toEqual(["accepted", "accepted", "wrong-answer", "skipped"]);
    expect(seen).toEqual(["1/4", "2/4", "3/4"]);
  });

  it("says compilation error with the compiler's first lines, control characters gone", async () => {
    const judged = await judge(host as SandboxHost, request("cpp", "int main() { return \u001b[31mundefined_name; }"));
    expect(judged.verdict).toBe("compilation-error");
    expect(judged.compileMessage).toMatch(/undefined_name/);
    // eslint-disable-next-line no-control-regex -- what must be gone
    expect(judged.compileMessage).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(judged.compileMessage).not.toContain("/box/");
    expect(judged.fraction).toBe(0);
  });

  it("says runtime error, time limit and memory limit, never wrong answer", async () => {
    const crash = await judge(host as SandboxHost, request("javascript", "process.exit(3)"));
    expect(crash.verdict).toBe("runtime-error");
    const slow = await judge(host as SandboxHost, request("java", "public class Main { public static void main(String[] a) { while (true) {} } }"));
    expect(slow.verdict).toBe("time-limit");
    expect(slow.tests.map((test) => test.verdict)).toEqual(["time-limit", "skipped", "time-limit", "skipped"]);
    const greedy = await judge(host as SandboxHost, request("cpp", "#include <vector>\nint main(){ std::vector<std::vector<char>> v; for(;;) v.emplace_back(1<<20, 1); }"));
    expect(greedy.verdict).toBe("memory-limit");
  });

  it("says memory limit when a runtime's own heap runs out first, and output limit for a file past 16 MB, in Java, JavaScript and Python", async () => {
    const javaHeap = await judge(host as SandboxHost, request("java", "import java.util.*;\npublic class Main { public static void main(String[] a) { List<long[]> l = new ArrayList<>(); for (;;) l.add(new long[1 << 17]); } }"));
    expect(javaHeap.verdict).toBe("memory-limit");
    const nodeHeap = await judge(host as SandboxHost, request("javascript", "const a = []; for (;;) a.push(new Array(1 << 17).fill(1.5));"));
    expect(nodeHeap.verdict).toBe("memory-limit");
    const pythonFile = await judge(host as SandboxHost, request("python3", "b = b'x' * (1 << 20)\nwith open('/tmp/big', 'wb') as f:\n    for _ in range(32):\n        f.write(b)\n        f.flush()\n"));
    expect(pythonFile.verdict).toBe("output-limit");
  });
});
