/**
 * Checker programs (app/modules/code/checker.server.ts; docs/domain.md "Code challenges"), in the real sandbox: the
 * admin's checker decides each test by testlib's exit codes; a checker that crashes, runs out of time or writes
 * where it may not is the platform's fault (a judge error), never a wrong answer; its words reach the staff only.
 * Then through a real runner on Postgres, Redis and S3: a saved checker compiled by the runner (its compile error
 * shown to the admins, teams refused meanwhile), runs judged with it, the change audited. Skips, saying why, on a
 * machine that cannot sandbox (scripts/lib/ensure.sh ensure_sandbox).
 */
import { eq } from "drizzle-orm";
import type { Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, codeRuns } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { bullPrefix, enqueue } from "../../app/infrastructure/queue.server.ts";
import { sandboxHost, type SandboxHost } from "../../app/infrastructure/sandbox/sandbox.server.ts";
import { adminCodePost, codePost } from "../../app/glue/code.server.ts";
import { checkerHash, CHECKER_MAX_BYTES, forgetCheckers, holdChecker, recordCheckerState, type CheckerLanguage } from "../../app/modules/code/checker.server.ts";
import { judge, type JudgeRequest } from "../../app/modules/code/judge.server.ts";
import { adminCodePage, codePage } from "../../app/modules/code/runs.server.ts";
import { getCodeChallenge } from "../../app/modules/code/settings.server.ts";
import type { TestsArchive } from "../../app/modules/code/tests-archive.server.ts";
import { startRunner } from "../../workers/processors/runs.ts";
import { codeChallenge, post, programForm, settingsForm } from "../support/code.ts";
import { callerOf, ensureEventSettings, ensureTwoOpenGates, makePlayer } from "../support/fixtures.ts";

// This file's own queues: its runner takes none of the runs other test files queue (and they none of its).
process.env.REDIS_PREFIX = `gk-checker-${process.pid}`;

const host = await sandboxHost();
const unavailable = "reason" in host ? host.reason : null;
if (unavailable) console.warn(`checker tests skipped: ${unavailable}`);
const sandbox = host as SandboxHost;

/** Accepts the numbers of the answer in any order (a C++ checker, testlib's convention: input output answer). */
const ANY_ORDER = `#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>
int main(int argc, char** argv) {
  if (argc < 4) return 3;
  std::ifstream out(argv[2]), ans(argv[3]);
  std::vector<long long> got, want;
  long long x;
  while (out >> x) got.push_back(x);
  if (!out.eof()) { std::fprintf(stderr, "not a number after %zu numbers\\n", got.size()); return 2; }
  while (ans >> x) want.push_back(x);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  if (got != want) { std::fprintf(stderr, "%zu numbers, not the expected set\\n", got.size()); return 1; }
  std::fprintf(stderr, "ok %zu numbers\\n", got.size());
  return 0;
}
`;
/** The test's input: n numbers; the expected output: the same set (here, in sorted order). */
const pair = (name: string, input: string, output: string) => ({ name, input: Buffer.from(input), output: Buffer.from(output) });
const ARCHIVE: TestsArchive = {
  subtasks: [{ name: "all", share: 1, tests: [pair("1", "3 1 2 3\n", "1 2 3\n"), pair("2", "4 10 -5 7 0\n", "-5 0 7 10\n")] }],
  totalShare: 1,
};
/** Prints the numbers back in the order given (not sorted): right under the checker, wrong under an exact comparison. */
const ECHO = "n, *xs = map(int, open(0).read().split())\nprint(*xs)\n";

async function judgeWith(checkerLanguage: CheckerLanguage, checkerSource: string, program: string, limits = { timeMs: 2000, memoryBytes: 256 * 1024 * 1024, outputBytes: 64 * 1024 }) {
  const slot = sandbox.slots[2] ?? sandbox.slots[0]!;
  const held = await holdChecker(sandbox, slot, { language: checkerLanguage, source: checkerSource, hash: checkerHash(checkerLanguage, checkerSource) });
  try {
    if (!held.compiled.ok) throw new Error(`the checker did not compile: ${held.compiled.message}`);
    const request: JudgeRequest = {
      slot,
      language: "python3",
      source: program,
      archive: ARCHIVE,
      limits: { timeMs: 1000, memoryBytes: 128 * 1024 * 1024, outputBytes: 1024 * 1024 },
      comparator: "checker",
      checker: { program: held.compiled.program, limits },
    };
    return await judge(sandbox, request);
  } finally {
    held.release();
  }
}

describe.skipIf(unavailable !== null)("a checker program in the sandbox", () => {
  it("accepts the numbers in any order, and says wrong answer (with its words) for another set", async () => {
    const right = await judgeWith("cpp", ANY_ORDER, ECHO);
    expect(right.verdict).toBe("accepted");
    expect(right.tests.map((test) => [test.verdict, test.checkerMessage])).toEqual([
      ["accepted", "ok 3 numbers"],
      ["accepted", "ok 4 numbers"],
    ]);
    const wrong = await judgeWith("cpp", ANY_ORDER, "n, *xs = map(int, open(0).read().split())\nprint(*xs, 1)\n");
    expect(wrong.verdict).toBe("wrong-answer");
    expect(wrong.tests[0]).toMatchObject({ verdict: "wrong-answer", checkerMessage: "4 numbers, not the expected set" });
    // Presentation error (2) is a wrong answer too; output with NUL bytes reaches the checker as it was written.
    const garbled = await judgeWith("cpp", ANY_ORDER, "import sys\nsys.stdout.buffer.write(b'1 \\x00 2 3\\n')\n");
    expect(garbled.verdict).toBe("wrong-answer");
    expect(garbled.tests[0]!.checkerMessage).toBe("not a number after 1 numbers");
  });

  it("makes a crashing checker a judge error, never a wrong answer, its message kept for the admins", async () => {
    const crashing = "import sys\nsys.stderr.write('index out of range in my checker\\n')\nraise SystemExit(3)\n";
    const judged = await judgeWith("python3", crashing, ECHO);
    expect(judged.verdict).toBe("judge-error");
    expect(judged.failure).toMatch(/^the checker failed on all\/1: exit code 3: index out of range in my checker/);
    // The runner's log says where and how, never the checker's words (they may quote a hidden test).
    expect(judged.failureLogged).toBe("the checker failed on all/1: exit code 3");
    // Python exits 1 on an uncaught exception: still the checker's crash, not the team's wrong answer.
    const raising = await judgeWith("python3", "import sys\nwords = open(sys.argv[2]).read().split()\n[][len(words)]\n", ECHO);
    expect(raising.verdict).toBe("judge-error");
    expect(raising.failure).toMatch(/^the checker failed on all\/1: exit code 3: IndexError: list index out of range/);
    const missing = await judgeWith("python3", "import numpy\n", ECHO);
    expect(missing.verdict).toBe("judge-error");
    expect(missing.failure).toMatch(/ModuleNotFoundError/);
    const killed = await judgeWith("cpp", "#include <cstdlib>\nint main() { std::abort(); }\n", ECHO);
    expect(killed).toMatchObject({ verdict: "judge-error" });
    expect(killed.failure).toMatch(/signal 6/);
  });

  it("makes a checker out of time a judge error, bounded by its own limit", async () => {
    const started = Date.now();
    const judged = await judgeWith("python3", "while True:\n    pass\n", ECHO, { timeMs: 500, memoryBytes: 256 * 1024 * 1024, outputBytes: 64 * 1024 });
    expect(judged.verdict).toBe("judge-error");
    expect(judged.failure).toMatch(/time limit/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("gives the checker its files read-only, and nothing of the host", async () => {
    // Exit 0 only if it could overwrite the expected answer or read the host's /etc/passwd.
    const hostile = `import sys
for attempt in (lambda: open('/data/answer', 'w'), lambda: open('/etc/passwd'), lambda: open('/box/x', 'w')):
    try:
        attempt()
        sys.exit(0)
    except OSError:
        pass
sys.exit(1)
`;
    const judged = await judgeWith("python3", hostile, ECHO);
    expect(judged.verdict).toBe("wrong-answer");
  });
});

let runner: Worker | null = null;

beforeAll(async () => {
  expect(bullPrefix()).toBe(`gk-checker-${process.pid}:bull`);
  await ensureEventSettings();
  await ensureTwoOpenGates();
  if (!unavailable) runner = startRunner(sandbox, { concurrency: 1, firstSlot: sandbox.slots.at(-2)!.index });
});

afterAll(async () => {
  await runner?.close();
  await forgetCheckers();
  await closeEmitter();
});

function checkerForm(language: string, source: string | Buffer, name = "checker.cpp") {
  const form = new FormData();
  form.set("intent", "checker");
  form.set("checkerLanguage", language);
  form.set("checker", new File([typeof source === "string" ? source : new Uint8Array(source)], name, { type: "text/plain" }));
  return form;
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sums' challenge compared by the checker: any right sum, written with leading zeros or a plus sign, is accepted. */
const SUM_CHECKER = "import sys\ngot = open(sys.argv[2], 'rb').read().split()\nwant = open(sys.argv[3], 'rb').read().split()\nsys.stderr.write(f'read {len(got)} tokens')\nsys.exit(0 if len(got) == 1 and int(got[0]) == int(want[0]) else 1)\n";

describe.skipIf(unavailable !== null)("a checker saved by an admin, compiled and used by a runner", () => {
  it("refuses a hostile upload with a sentence, giving back the language", async () => {
    const { challenge, caller, path } = await codeChallenge();
    const binary = await adminCodePost(post(path, checkerForm("python3", Buffer.from([0x70, 0, 0xff]))), caller, challenge.id);
    expect(binary).toMatchObject({ ok: false, status: 400, message: "A checker is a program's text: this file holds binary data.", fields: { checkerLanguage: "python3" } });
    const big = await adminCodePost(post(path, checkerForm("cpp", "x".repeat(CHECKER_MAX_BYTES + 1))), caller, challenge.id);
    expect(big).toMatchObject({ ok: false, status: 413, message: "A checker has at most 64 KB." });
    const java = await adminCodePost(post(path, checkerForm("java", "class Main {}")), caller, challenge.id);
    expect(java).toMatchObject({ ok: false, status: 400, message: "A checker is written in C++, C or Python 3." });
    expect((await getCodeChallenge(challenge.id))!.checkerHash).toBeNull();
  });

  it("shows a checker that does not compile to the admins, refusing teams' programs until one compiles", async () => {
    const { challenge, caller, path } = await codeChallenge();
    // No checker yet: a checker's comparison is refused, with a sentence, the form given back.
    const early = await adminCodePost(post(path, settingsForm({ comparator: "checker", timeLimitMs: "1500" })), caller, challenge.id);
    expect(early).toMatchObject({ ok: false, status: 400, message: "Save a checker program first, then choose to compare output with it.", fields: { comparator: "checker", timeLimitMs: "1500" } });
    expect((await getCodeChallenge(challenge.id))!.comparator).toBe("exact");
    const { user } = await makePlayer();
    expect(await adminCodePost(post(path, checkerForm("cpp", "int main() { return undefined_checker_name; }")), caller, challenge.id)).toMatchObject({
      ok: true,
      message: "Checker saved: a runner compiles it now, and this page shows whether it compiled.",
    });
    const failed = await until("the checker's compile", () => getCodeChallenge(challenge.id), (row) => row!.checkerState !== "pending");
    expect(await adminCodePost(post(path, settingsForm({ comparator: "checker" })), caller, challenge.id)).toMatchObject({ ok: true });
    expect(failed).toMatchObject({ checkerState: "failed", checkerName: "checker.cpp", checkerLanguage: "cpp" });
    expect(failed!.checkerMessage).toMatch(/undefined_checker_name/);
    expect((await adminCodePage(challenge.id, { role: "judge" }))!.settings!.checkerMessage).toMatch(/undefined_checker_name/);
    const refused = await codePost(post(`/code/${challenge.id}`, programForm("python3", "print(1)")), callerOf(user), challenge.id, new Date());
    expect(refused).toMatchObject({ ok: false, status: 409, message: "This challenge's checker is not usable yet: programs cannot be judged before an admin fixes it." });
    const page = (await codePage(challenge.id, { role: "participant", teamId: user.teamId }, "en"))!;
    expect(page.challenge.ready).toBe(false);
    expect(JSON.stringify(page)).not.toContain("undefined_checker_name");
  });

  it("judges runs with the compiled checker; its words reach the admins, never the team; the change is audited", async () => {
    const { challenge, caller, path } = await codeChallenge();
    expect(await adminCodePost(post(path, checkerForm("python3", SUM_CHECKER, "sum.py")), caller, challenge.id)).toMatchObject({ ok: true });
    expect(await adminCodePost(post(path, settingsForm({ comparator: "checker" })), caller, challenge.id)).toMatchObject({ ok: true });
    await until("the checker's compile", () => getCodeChallenge(challenge.id), (row) => row!.checkerState === "compiled");
    const { team, user } = await makePlayer();
    // Right sums written as "+003": wrong under an exact comparison, right for this checker.
    const reply = await codePost(post(`/code/${challenge.id}`, programForm("python3", "a, b = map(int, input().split())\nprint('+%03d' % (a + b))\n")), callerOf(user), challenge.id, new Date());
    expect(reply).toMatchObject({ ok: true });
    const run = await until("the run", async () => (await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, team.id)))[0]!, (row) => row.state === "done");
    expect(run).toMatchObject({ verdict: "accepted", pointsCenti: 10_000 });
    const teamPage = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(teamPage.runs[0]!.tests.length).toBe(3);
    expect(JSON.stringify(teamPage)).not.toContain("read 1 tokens");
    const staffPage = (await adminCodePage(challenge.id, { role: "judge" }))!;
    expect(staffPage.runs[0]!.tests.map((test) => test.checkerMessage)).toEqual(["read 1 tokens", "read 1 tokens", "read 1 tokens"]);
    const recorded = await getDb().select({ after: auditLog.after }).from(auditLog).where(eq(auditLog.kind, "code.checker"));
    expect(recorded.some((row) => (row.after as { file?: string }).file === "sum.py")).toBe(true);
  });

  it("queues a run again, never a wrong answer, when the checker crashes; the admins read why", async () => {
    const { challenge, caller, path } = await codeChallenge();
    expect(await adminCodePost(post(path, checkerForm("python3", "import sys\nsys.stderr.write('checker bug')\nsys.exit(7)\n", "bad.py")), caller, challenge.id)).toMatchObject({ ok: true });
    expect(await adminCodePost(post(path, settingsForm({ comparator: "checker" })), caller, challenge.id)).toMatchObject({ ok: true });
    const { team, user } = await makePlayer();
    expect(await codePost(post(`/code/${challenge.id}`, programForm("python3", "a, b = map(int, input().split())\nprint(a + b)\n")), callerOf(user), challenge.id, new Date())).toMatchObject({ ok: true });
    const run = await until("the run's judge error", async () => (await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, team.id)))[0]!, (row) => row.failures > 0);
    expect(run.verdict).toBeNull();
    expect(run.failure).toMatch(/the checker failed on .*exit code 7: checker bug/);
    const teamPage = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(JSON.stringify(teamPage)).not.toContain("checker bug");
    // The admin fixes the checker: the run waiting gets its tries back and is judged with the new one.
    expect(await adminCodePost(post(path, checkerForm("python3", SUM_CHECKER, "sum.py")), caller, challenge.id)).toMatchObject({ ok: true });
    const judged = await until("the run judged with the fixed checker", async () => (await getDb().select().from(codeRuns).where(eq(codeRuns.id, run.id)))[0]!, (row) => row.state === "done");
    expect(judged.verdict).toBe("accepted");
  });

  it("keeps why a checker's compile was stopped, for the admins' page; a new save starts over", async () => {
    const { challenge, caller, path } = await codeChallenge();
    const source = "int main() { return 0; }";
    expect(await adminCodePost(post(path, checkerForm("cpp", source)), caller, challenge.id)).toMatchObject({ ok: true });
    // A runner's compile stopped by its time limit (a loaded machine), the compiler having said nothing.
    await recordCheckerState(challenge.id, checkerHash("cpp", source), { ok: false, message: "", problem: "compile-timeout" });
    expect((await adminCodePage(challenge.id, { role: "admin" }))!.settings).toMatchObject({ checkerState: "failed", checkerProblem: "compile-timeout" });
    // Saved again, the same source compiles again (a failure is never kept) and compiles this time.
    expect(await adminCodePost(post(path, checkerForm("cpp", source)), caller, challenge.id)).toMatchObject({ ok: true });
    const compiled = await until("the checker's compile", () => getCodeChallenge(challenge.id), (row) => row!.checkerState !== "pending");
    expect(compiled).toMatchObject({ checkerState: "compiled", checkerProblem: null });
  });

  it("leaves a run queued, spending no try, while its checker does not compile; judges it once one does", async () => {
    const { challenge, caller, path } = await codeChallenge();
    expect(await adminCodePost(post(path, checkerForm("c", "int main(void) { return not_declared; }", "bad.c")), caller, challenge.id)).toMatchObject({ ok: true });
    await until("the checker's compile", () => getCodeChallenge(challenge.id), (row) => row!.checkerState === "failed");
    expect(await adminCodePost(post(path, settingsForm({ comparator: "checker" })), caller, challenge.id)).toMatchObject({ ok: true });
    const { team, user } = await makePlayer();
    // Sent while the checker was still compiling (then taken), now waiting for one that compiles.
    const [run] = await getDb().insert(codeRuns).values({ teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: "a, b = map(int, input().split())\nprint(a + b)\n" }).returning();
    await enqueue("runs", { runId: run!.id });
    const waiting = await until("the run's wait", async () => (await getDb().select().from(codeRuns).where(eq(codeRuns.id, run!.id)))[0]!, (row) => row.failure !== null);
    expect(waiting).toMatchObject({ state: "queued", failures: 0, failure: "the checker did not compile", verdict: null });
    expect(await adminCodePost(post(path, checkerForm("python3", SUM_CHECKER, "sum.py")), caller, challenge.id)).toMatchObject({ ok: true });
    const judged = await until("the run judged", async () => (await getDb().select().from(codeRuns).where(eq(codeRuns.id, run!.id)))[0]!, (row) => row.state === "done");
    expect(judged).toMatchObject({ verdict: "accepted", failures: 0 });
  });
});
