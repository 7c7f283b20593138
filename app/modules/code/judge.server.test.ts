import { describe, expect, it } from "vitest";
import type { SandboxResult } from "../../infrastructure/sandbox/sandbox.server.ts";
import { testVerdict } from "./judge.server.ts";

const run = (over: Partial<SandboxResult>): SandboxResult => ({
  outcome: "exited",
  exitCode: 0,
  signal: null,
  cpuMs: 5,
  wallMs: 7,
  memoryBytes: 1 << 20,
  stdout: Buffer.from("3\n"),
  stderr: Buffer.alloc(0),
  ...over,
});

describe("a test's verdict", () => {
  it("follows the sandbox's outcome, and the output when the program ended well", () => {
    expect(testVerdict(run({}), () => true)).toBe("accepted");
    expect(testVerdict(run({}), () => false)).toBe("wrong-answer");
    expect(testVerdict(run({ outcome: "time" }), () => true)).toBe("time-limit");
    expect(testVerdict(run({ outcome: "memory" }), () => true)).toBe("memory-limit");
    expect(testVerdict(run({ outcome: "output" }), () => true)).toBe("output-limit");
    expect(testVerdict(run({ outcome: "sandbox-failure" }), () => true)).toBe("judge-error");
    expect(testVerdict(run({ outcome: "signaled", signal: 25 }), () => true)).toBe("output-limit");
    expect(testVerdict(run({ outcome: "signaled", signal: 11 }), () => true)).toBe("runtime-error");
    expect(testVerdict(run({ exitCode: 3, stderr: Buffer.from("Traceback…\nZeroDivisionError: division by zero\n") }), () => true)).toBe("runtime-error");
  });

  it("is Memory limit exceeded when a runtime's own heap ran out first (Java, Node, Python)", () => {
    const java = 'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n\tat Main.main(Main.java:3)\n';
    expect(testVerdict(run({ exitCode: 1, stderr: Buffer.from(java) }), () => true)).toBe("memory-limit");
    const node = "<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n";
    expect(testVerdict(run({ outcome: "signaled", signal: 6, stderr: Buffer.from(node) }), () => true)).toBe("memory-limit");
    const python = 'Traceback (most recent call last):\n  File "main.py", line 3, in <module>\nMemoryError\n';
    expect(testVerdict(run({ exitCode: 1, stderr: Buffer.from(python) }), () => true)).toBe("memory-limit");
    // A name that merely contains the word is a runtime error.
    expect(testVerdict(run({ exitCode: 1, stderr: Buffer.from("NotAMemoryErrorAtAll\n") }), () => true)).toBe("runtime-error");
  });

  it("is Output limit exceeded when a runtime reports a file past its size limit (EFBIG)", () => {
    expect(testVerdict(run({ exitCode: 1, stderr: Buffer.from("OSError: [Errno 27] File too large\n") }), () => true)).toBe("output-limit");
    expect(testVerdict(run({ exitCode: 1, stderr: Buffer.from("java.io.IOException: File too large\n") }), () => true)).toBe("output-limit");
    expect(testVerdict(run({ exitCode: 1, stderr: Buffer.from("Error: EFBIG: file too large, write\n") }), () => true)).toBe("output-limit");
  });
});
