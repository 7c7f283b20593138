/**
 * Code runs beside the event day (`npm run bench:runner`, bench/event-day.ts --code-runs PY,CPP): two code
 * challenges of `tests` tests each (a Python 3 one and a C++ one), saved through the admin's own forms
 * (app/glue/code.server.ts); teams of their own, one member each, sending one right program per challenge over
 * HTTP to the web processes as a browser's form does, paced over the first seconds; one real runner process
 * (workers/runner.ts, the machine's cores less one slot unless RUNNER_CONCURRENCY says) judging them in the
 * sandbox. Reports when the last run was judged (the drain), each run's queue wait and judging time, and the
 * verdicts (every program is right: anything but Accepted is a failure of the bench).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import { tarGz } from "../../scripts/lib/tar-gz.ts";
import { adminCodePost } from "../../app/glue/code.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { callerOf } from "../../tests/support/fixtures.ts";
import { summarise } from "./env.ts";
import { cookiesFor } from "./world.ts";
import { BENCH_SESSION_SECRET, REPO_ROOT, sleep, type WebProcess } from "./servers.ts";
import { productionServiceEnv } from "../../scripts/lib/local-services.ts";
import { defaultConcurrency } from "../../workers/processors/runs.ts";

const PYTHON = "import sys\nnumbers = list(map(int, sys.stdin.read().split()))\nprint(sum(numbers[1:]))\n";
const CPP =
  "#include <iostream>\nint main(){ std::ios::sync_with_stdio(false); long long n, x, s = 0; std::cin >> n; for (long long i = 0; i < n; i++) { std::cin >> x; s += x; } std::cout << s << '\\n'; }\n";

/** A `tests`-test archive in two subtasks (a 30 % small one, a 70 % large one): n numbers, their sum. */
async function sumsArchive(tests: number): Promise<Buffer> {
  const files: Record<string, string> = { "subtasks.json": JSON.stringify({ small: 30, large: 70 }) };
  for (let test = 1; test <= tests; test++) {
    const subtask = test <= Math.ceil(tests * 0.3) ? "small" : "large";
    const count = subtask === "small" ? 10 * test : 2000 * test;
    const numbers = Array.from({ length: count }, (_, index) => ((index * 7919 + test * 104729) % 2_000_001) - 1_000_000);
    files[`${subtask}/${test}.in`] = `${count}\n${numbers.join(" ")}\n`;
    files[`${subtask}/${test}.out`] = `${numbers.reduce((sum, value) => sum + value, 0)}\n`;
  }
  return tarGz(files);
}

const adminPost = (path: string, body: FormData | URLSearchParams) => new Request(`http://localhost${path}`, { method: "POST", body });

export interface CodeLoadSize {
  python: number;
  cpp: number;
  tests: number;
  /** The programs are sent evenly over these seconds. */
  sendOverSeconds: number;
}

export interface CodeLoad {
  /** The runner process's. */
  pid: number;
  /** Sends every program (paced) to the web processes; resolves when the last run is judged. */
  run(webs: readonly WebProcess[]): Promise<CodeLoadFigures>;
  stop(): Promise<void>;
}

export interface CodeLoadFigures {
  runs: number;
  sendErrors: Array<{ status: number | string }>;
  /** From the first program sent to the last verdict written. */
  drainSeconds: number;
  verdicts: Record<string, number>;
  /** From a program sent to its verdict. */
  latencyMs: ReturnType<typeof summarise>;
  /** A run's judging, from one verdict to the next (meaningful with one slot: see run()). */
  judgingMs: { python3: ReturnType<typeof summarise>; cpp: ReturnType<typeof summarise> };
  slots: number;
}

/** Seeds the two challenges and the teams, starts the runner; `adminId` is the world's admin. */
export async function prepareCodeLoad(env: Record<string, string>, adminId: number, size: CodeLoadSize): Promise<CodeLoad> {
  const db = getDb();
  const teams = Math.max(size.python, size.cpp);
  const [admin] = await db.execute<{ id: number; name: string }>(sql`select id, name from users where id = ${adminId}`);
  const caller = callerOf({ id: Number(admin.id), name: admin.name, role: "admin", teamId: null });
  const archive = await sumsArchive(size.tests);
  const challengeIds: Record<"python3" | "cpp", number> = { python3: 0, cpp: 0 };
  for (const language of ["python3", "cpp"] as const) {
    const [row] = await db.execute<{ id: number }>(sql`insert into challenges (title, description, points, category, wave, checking)
      values (${`Sums in ${language}`}, 'Read n numbers, print their sum.', 100, 'PS', 1, 'tests') returning id`);
    const id = Number(row.id);
    challengeIds[language] = id;
    const settings = new URLSearchParams({ intent: "settings", timeLimitMs: "2000", memoryLimitMb: "256", comparator: "exact" });
    settings.append("languages", language);
    const archiveForm = new FormData();
    archiveForm.set("file", new File([new Uint8Array(archive)], "tests.tar.gz", { type: "application/gzip" }));
    for (const form of [settings, archiveForm]) {
      const reply = await adminCodePost(adminPost(`/dashboard/code/${id}`, form), caller, id);
      if (!("ok" in reply) || !reply.ok) throw new Error(`the code challenge's setup was refused: ${JSON.stringify(reply)}`);
    }
  }
  // Teams of their own (the event day's teams browse; these send programs), one member each.
  const coders = await db.execute<{ id: number }>(sql`with made as (
      insert into teams (name, name_key, created_at) select 'Coders ' || i, 'coders ' || i, now() - interval '1 day' from generate_series(1, ${teams}) i returning id)
    insert into users (name, name_key, password_hash, role, team_id) select 'coder' || id, 'coder' || id, 'bench-no-login', 'participant', id from made returning id`);
  const coderIds = coders.map((row) => Number(row.id)).sort((a, b) => a - b);
  const cookies = await cookiesFor(coderIds);

  const slots = Number(process.env.RUNNER_CONCURRENCY ?? defaultConcurrency());
  const runner: ChildProcess = spawn(process.execPath, ["--import", "tsx", "workers/runner.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: "production", SESSION_SECRET: BENCH_SESSION_SECRET, ...productionServiceEnv(), LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const runnerExited = new Promise<never>((_, reject) => runner.once("exit", (code) => reject(new Error(`the runner exited (${code})`))));
  runnerExited.catch(() => {});

  const sends: Array<{ userId: number; language: "python3" | "cpp"; source: string }> = [];
  for (let index = 0; index < teams; index++) {
    if (index < size.python) sends.push({ userId: coderIds[index], language: "python3", source: PYTHON });
    if (index < size.cpp) sends.push({ userId: coderIds[index], language: "cpp", source: CPP });
  }

  return {
    pid: runner.pid!,
    async run(webs) {
      const sendErrors: Array<{ status: number | string }> = [];
      const started = performance.now();
      const gapMs = (size.sendOverSeconds * 1000) / Math.max(1, sends.length);
      const sent = sends.map(async (send, index) => {
        await sleep(index * gapMs);
        const body = new URLSearchParams({ language: send.language, source: send.source });
        try {
          const response = await fetch(`${webs[index % webs.length].url}/code/${challengeIds[send.language]}`, {
            method: "POST",
            headers: { cookie: cookies.get(send.userId)!, "content-type": "application/x-www-form-urlencoded" },
            body,
            redirect: "manual",
          });
          await response.arrayBuffer();
          if (response.status >= 400) sendErrors.push({ status: response.status });
        } catch (error) {
          sendErrors.push({ status: error instanceof Error ? error.message : String(error) });
        }
      });
      await Promise.all(sent);
      const ids = [challengeIds.python3, challengeIds.cpp];
      for (;;) {
        const [row] = await db.execute<{ total: number; done: number }>(
          sql`select count(*)::int as total, count(*) filter (where state = 'done')::int as done from code_runs where challenge_id in (${ids[0]}, ${ids[1]})`,
        );
        if (Number(row.done) >= sends.length - sendErrors.length) break;
        await Promise.race([sleep(250), runnerExited]);
      }
      const drainSeconds = (performance.now() - started) / 1000;
      const rows = await db.execute<{ language: string; verdict: string | null; latency_ms: number; finished_ms: number }>(sql`
        select language, verdict, extract(epoch from (finished_at - created_at)) * 1000 as latency_ms, extract(epoch from finished_at) * 1000 as finished_ms
        from code_runs where challenge_id in (${ids[0]}, ${ids[1]}) order by finished_at`);
      const verdicts: Record<string, number> = {};
      for (const row of rows) verdicts[row.verdict ?? "none"] = (verdicts[row.verdict ?? "none"] ?? 0) + 1;
      // One slot judges one run at a time and its queue is never empty before the end: the time from one verdict
      // to the next is the later run's judging (fetching, compiling, every test, writing).
      const judging = { python3: [] as number[], cpp: [] as number[] };
      for (let index = 1; index < rows.length; index++) {
        const language = rows[index].language as "python3" | "cpp";
        judging[language]?.push(Number(rows[index].finished_ms) - Number(rows[index - 1].finished_ms));
      }
      return {
        runs: rows.length,
        sendErrors,
        drainSeconds,
        verdicts,
        latencyMs: summarise(rows.map((row) => Number(row.latency_ms))),
        judgingMs: { python3: summarise(judging.python3), cpp: summarise(judging.cpp) },
        slots,
      };
    },
    async stop() {
      if (runner.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => runner.once("exit", () => resolve()));
      runner.kill("SIGTERM");
      const timer = setTimeout(() => runner.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
