/**
 * Drill: hostile programs in the code sandbox (docs/decisions/042-code-sandbox.md). Each one is compiled and
 * run exactly as a team's submission is (app/infrastructure/sandbox), gets its verdict, and leaves nothing
 * behind: no file written on the host, no process of the slot's user, no connection to a port of the host.
 *
 * Skips, saying why, on a machine that cannot sandbox (not root, no bubblewrap, no control groups):
 * scripts/lib/ensure.sh ensure_sandbox sets one up.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileProgram, makeBox, removeBox, runProgram, type Program } from "../../app/infrastructure/sandbox/programs.server.ts";
import { type LanguageId } from "../../app/infrastructure/sandbox/languages.server.ts";
import { checkTestsArchive } from "../../app/modules/code/settings.server.ts";
import { sandboxHost, type SandboxHost, type SandboxResult } from "../../app/infrastructure/sandbox/sandbox.server.ts";
import { tarGzEntries as archive } from "../../scripts/lib/tar-gz.ts";
import { recordDrill } from "./support/report.ts";

const host = await sandboxHost();
const unavailable = "reason" in host ? host.reason : null;
if (unavailable) console.warn(`sandbox drill skipped: ${unavailable}`);
const sandbox = host as SandboxHost;

const MB = 1024 * 1024;
const LIMITS = { timeMs: 1000, memoryBytes: 64 * MB, outputBytes: 1 * MB };
const SECRET = `gk-drill-secret-${randomBytes(6).toString("hex")}`;
const HOST_MARK = `/tmp/gk-sandbox-escape-${randomBytes(4).toString("hex")}`;
const REPO_SECRET_FILE = path.resolve(import.meta.dirname, "../../.local/sandbox-drill-secret.txt");
const observations: string[] = [];
const timings: Array<{ what: string; ms: number }> = [];

let listener: Server;
let port = 0;
let connections = 0;
let inputDir: string;
let emptyInput: string;

beforeAll(async () => {
  if (unavailable) return;
  process.env.GK_DRILL_SECRET = SECRET;
  mkdirSync(path.dirname(REPO_SECRET_FILE), { recursive: true });
  writeFileSync(REPO_SECRET_FILE, SECRET);
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
  inputDir = path.join(path.dirname(REPO_SECRET_FILE), `sandbox-inputs-${randomBytes(3).toString("hex")}`);
  mkdirSync(inputDir, { recursive: true, mode: 0o700 });
  emptyInput = path.join(inputDir, "empty.in");
  writeFileSync(emptyInput, "");
});

afterAll(async () => {
  if (unavailable) return;
  listener.close();
  rmSync(REPO_SECRET_FILE, { force: true });
  rmSync(inputDir, { recursive: true, force: true });
  recordDrill({
    drill: "sandbox-hostile",
    fault: "hostile programs (fork bomb, loop, memory bomb, 10 GB write, connect, read secrets, kill -1, background process) in each language in the code sandbox; links and .. in a tests archive; a run beside a fork bomb",
    faults: observations.length,
    observations,
    items: [],
    timings,
  });
});

/**
 * The live processes of the slot's user on the host. A finished bwrap may linger as a zombie until the
 * machine's init reaps it: a zombie runs nothing and holds nothing but its pid, so it is not counted.
 */
function processesOf(uid: number): string[] {
  try {
    return execFileSync("ps", ["-u", String(uid), "-o", "pid=,stat="], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid, stat]) => pid && !stat?.startsWith("Z"))
      .map(([pid]) => pid!);
  } catch {
    return [];
  }
}

async function compileAndRun(language: LanguageId, source: string, input = emptyInput, slot = 0): Promise<{ program: Program; result: SandboxResult }> {
  const program = makeBox(sandbox.slots[slot]!, language, source);
  try {
    const compiled = await compileProgram(sandbox, program);
    if (!compiled.ok) throw new Error(`did not compile: ${compiled.message}`);
    const result = await runProgram(sandbox, program, input, LIMITS);
    return { program, result };
  } finally {
    removeBox(program);
  }
}

/** Nothing of the run is left: no process of the slot user, no file the program meant for the host, no connection. */
/**
 * The slots this drill runs programs on: 0, and 3 for a bystander. Other files of the same vitest run use their own
 * (code-judge 1, code-checker 2 and the second to last, code-runner the last; the browser tests' runner from 4,
 * after vitest), so a process seen on these is this drill's.
 */
const BYSTANDER_SLOT = 3;
const drillSlots = () => [sandbox.slots[0]!, sandbox.slots[BYSTANDER_SLOT]!].filter(Boolean);

function expectNothingOutside(what: string) {
  for (const slot of drillSlots()) expect(processesOf(slot.uid), `${what}: no process of the slot user ${slot.user} left`).toEqual([]);
  expect(existsSync(HOST_MARK), `${what}: no file written on the host`).toBe(false);
  expect(connections, `${what}: no connection reached the host's port`).toBe(0);
}

const C_HOSTILE: Array<{ name: string; source: () => string; expected: SandboxResult["outcome"][] }> = [
  {
    name: "fork bomb",
    source: () => `#include <unistd.h>\nint main(void){ for(;;) fork(); }`,
    // Its processes (up to the PIDs limit) together may hit the group's memory limit before the time runs out: a CI
    // run reported Memory limit exceeded. Any of the three is a verdict, as for the other languages' fork bombs.
    expected: ["time", "signaled", "memory"],
  },
  { name: "infinite loop", source: () => `int main(void){ volatile unsigned long i=0; for(;;) i++; }`, expected: ["time"] },
  {
    name: "memory bomb",
    source: () => `#include <stdlib.h>\n#include <string.h>\nint main(void){ for(;;){ char *p = malloc(1<<20); if(!p) return 3; memset(p, 1, 1<<20);} }`,
    expected: ["memory"],
  },
  {
    name: "10 GB written to a file",
    source: () =>
      `#include <stdio.h>\n#include <string.h>\nint main(void){ static char b[1<<20]; memset(b,'x',sizeof b); FILE *f = fopen("/tmp/big","w"); if(!f) return 2;` +
      ` for(int i=0;i<10240;i++){ if(fwrite(b,1,sizeof b,f)!=sizeof b) return 4; } fclose(f); FILE *h = fopen("${HOST_MARK}","w"); return h ? 0 : 5; }`,
    expected: ["exited", "signaled"],
  },
  {
    name: "10 GB written to standard output",
    source: () => `#include <stdio.h>\n#include <string.h>\nint main(void){ static char b[1<<20]; memset(b,'y',sizeof b); for(int i=0;i<10240;i++) fwrite(b,1,sizeof b,stdout); return 0; }`,
    expected: ["output"],
  },
  {
    name: "kill -1",
    source: () => `#include <signal.h>\nint main(void){ kill(-1, SIGKILL); return 0; }`,
    expected: ["exited", "signaled"],
  },
  {
    name: "background process meant to outlive the run",
    source: () =>
      `#include <unistd.h>\n#include <stdio.h>\nint main(void){ if(fork()==0){ setsid(); if(fork()==0){ sleep(30); FILE *f=fopen("${HOST_MARK}","w"); return 0; } return 0; } return 0; }`,
    expected: ["exited"],
  },
];

describe.skipIf(unavailable !== null)("drill: hostile programs in the sandbox", () => {
  for (const hostile of C_HOSTILE) {
    it(`C: ${hostile.name} gets its verdict and leaves nothing outside`, async () => {
      const { result } = await compileAndRun("c", hostile.source());
      observations.push(`C ${hostile.name}: ${result.outcome} (exit ${result.exitCode ?? "-"}, signal ${result.signal ?? "-"}, ${Math.round(result.cpuMs)} ms CPU, ${Math.round(result.wallMs)} ms wall)`);
      expect(hostile.expected).toContain(result.outcome);
      if (hostile.name === "10 GB written to a file") expect(result.exitCode ?? result.signal, "the write is stopped (ENOSPC: exit 4, or SIGXFSZ)").not.toBe(0);
      expectNothingOutside(hostile.name);
    });
  }

  it("C: a connection to the host's port is refused inside; the host's listener sees nothing", async () => {
    const source = `#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\n#include <stdio.h>\n#include <errno.h>\n#include <string.h>
int main(void){ int s = socket(AF_INET, SOCK_STREAM, 0); if (s < 0) { printf("socket: %s\\n", strerror(errno)); return 0; }
struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(${port}); a.sin_addr.s_addr = inet_addr("127.0.0.1");
int r = connect(s, (struct sockaddr*)&a, sizeof a); printf("connect: %d %s\\n", r, r ? strerror(errno) : "connected"); return 0; }`;
    const { result } = await compileAndRun("c", source);
    observations.push(`C connect to the host's port ${port}: ${result.stdout.toString().trim()}`);
    expect(result.stdout.toString()).toMatch(/connect: -1/);
    expectNothingOutside("connect");
  });

  it("C: reading the runner's environment, the repository, /etc and other processes finds nothing", async () => {
    const source = `#include <stdio.h>\n#include <stdlib.h>\n#include <dirent.h>
static void show(const char *p){ FILE *f = fopen(p, "r"); if(!f){ printf("%s: closed\\n", p); return; } char b[256]; size_t n = fread(b,1,255,f); b[n]=0; printf("%s: %s\\n", p, b); fclose(f); }
int main(int argc, char **argv, char **env){ for(char **e=env; *e; e++) printf("env %s\\n", *e);
show("${REPO_SECRET_FILE}"); show("/etc/shadow"); show("/etc/passwd"); show("/proc/1/environ"); show("/proc/self/environ");
DIR *d = opendir("/proc"); struct dirent *x; while(d && (x = readdir(d))) printf("proc %s\\n", x->d_name); return 0; }`;
    const { result } = await compileAndRun("c", source);
    const seen = result.stdout.toString();
    expect(result.outcome).toBe("exited");
    expect(seen).not.toContain(SECRET);
    expect(seen).toContain(`${REPO_SECRET_FILE}: closed`);
    expect(seen).toContain("/etc/shadow: closed");
    expect(seen).not.toMatch(/env (DATABASE_URL|REDIS_URL|S3_|SESSION_SECRET|GK_DRILL_SECRET)/);
    // The run's own pid namespace: a handful of its own processes, none of the host's.
    const pids = [...seen.matchAll(/^proc (\d+)$/gm)].map((match) => Number(match[1]));
    observations.push(`C reads: environment ${[...seen.matchAll(/^env (\w+)=/gm)].map((match) => match[1]).join(", ")}; pids seen ${pids.join(", ")}`);
    expect(pids.length).toBeLessThanOrEqual(3);
    expectNothingOutside("reads");
  });

  it("C: writes anywhere but /tmp and /dev/shm are refused, /dev/shm is capped, and the refused kernel calls are refused", async () => {
    const source = `#define _GNU_SOURCE\n#include <stdio.h>\n#include <errno.h>\n#include <string.h>\n#include <unistd.h>\n#include <sched.h>\n#include <sys/syscall.h>\n#include <sys/socket.h>\n#include <signal.h>
static void put(const char *p){ FILE *f = fopen(p, "w"); printf("write %s %d\\n", p, f ? 0 : errno); if (f) fclose(f); }
static void call(const char *name, long r){ printf("call %s %d\\n", name, r < 0 ? errno : 0); }
int main(void){ setvbuf(stdout, NULL, _IONBF, 0); signal(SIGXFSZ, SIG_IGN); put("/x"); put("/dev/x"); put("/usr/x"); put("/box/x"); put("/tmp/x");
static char b[1<<20]; memset(b, 'z', sizeof b); size_t mb = 0; const char *shm[] = { "/dev/shm/a", "/dev/shm/b", "/dev/shm/c" };
for (int k = 0; k < 3; k++) { FILE *s = fopen(shm[k], "w"); if (!s) break; for (int i = 0; i < 8; i++) { if (fwrite(b, 1, sizeof b, s) != sizeof b || fflush(s)) break; mb++; } fclose(s); } printf("shm %zu\\n", mb);
call("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0)); call("bpf", syscall(SYS_bpf, 0, 0, 0));
call("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0)); call("io_uring_setup", syscall(SYS_io_uring_setup, 1, 0));
call("mount", syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, 0)); call("unshare", unshare(CLONE_NEWUSER)); call("vsock", socket(40, SOCK_STREAM, 0)); call("vsock-high", syscall(SYS_socket, 0x100000028L, SOCK_STREAM, 0));
printf("sys %d\\nrun %d\\n", access("/sys/kernel", F_OK) ? errno : 0, access("/run", F_OK) ? errno : 0); return 0; }`;
    const { result } = await compileAndRun("c", source);
    const seen = result.stdout.toString();
    observations.push(`C writes and refused calls: ${seen.trim().split("\n").join("; ")}`);
    expect(result.outcome, seen).toBe("exited");
    const errnoOf = (line: string) => Number(new RegExp(`^${line} (\\d+)$`, "m").exec(seen)?.[1]);
    // EROFS: the root, /dev, /usr and the box (read-only while a program runs); /tmp is the run's own.
    for (const path of ["/x", "/dev/x", "/usr/x", "/box/x"]) expect(errnoOf(`write ${path}`), `write to ${path}`).toBe(30);
    expect(errnoOf("write /tmp/x")).toBe(0);
    // /dev/shm holds 16 MB at most (then ENOSPC), over three files of 8 MB (each under a file's own 16 MB limit).
    expect(errnoOf("shm")).toBeGreaterThanOrEqual(8);
    expect(errnoOf("shm")).toBeLessThanOrEqual(16);
    // EPERM from the seccomp filter (unshare: the filter or --disable-userns); a vsock socket too, its family also with
    // high bits set (the kernel reads an int). The kernel's own answer without a vsock transport would be EAFNOSUPPORT.
    for (const name of ["keyctl", "bpf", "perf_event_open", "io_uring_setup", "mount", "unshare", "vsock", "vsock-high"]) expect(errnoOf(`call ${name}`), name).toBe(1);
    // ENOENT: no /sys, no /run inside.
    expect([errnoOf("sys"), errnoOf("run")]).toEqual([2, 2]);
    expectNothingOutside("writes and refused calls");
  });

  it("kill -1 inside does not reach a process of the same user on the host", async () => {
    const { uid, gid } = sandbox.slots[0]!;
    const bystander: ChildProcess = spawn("/usr/bin/setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "/bin/sleep", "60"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => bystander.once("spawn", resolve));
      const { result } = await compileAndRun("c", `#include <signal.h>\nint main(void){ return kill(-1, SIGKILL); }`);
      expect(result.outcome === "exited" || result.outcome === "signaled").toBe(true);
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
      expect(processesOf(uid)).toEqual([String(bystander.pid)]);
    } finally {
      bystander.kill("SIGKILL");
      await new Promise((resolve) => (bystander.exitCode !== null || bystander.signalCode !== null ? resolve(null) : bystander.once("exit", resolve)));
    }
  });

  it("C: a program including /dev/zero is a compilation error, not a stuck runner", async () => {
    const program = makeBox(sandbox.slots[0]!, "c", `#include "/dev/zero"\nint main(void){ return 0; }`);
    try {
      const compiled = await compileProgram(sandbox, program);
      observations.push(`C #include "/dev/zero": ${compiled.ok ? "compiled" : (compiled.problem ?? compiled.message.split("\n")[0])} (${Math.round(compiled.result.wallMs)} ms)`);
      expect(compiled.ok).toBe(false);
      // Why it stopped is a code the pages put in words (English or Arabic), never an English sentence in the message.
      if (!compiled.ok) {
        expect(compiled.problem).toMatch(/^compile-(memory|timeout|output)$/);
        expect(compiled.message).not.toMatch(/^The compil/);
      }
    } finally {
      removeBox(program);
    }
    expectNothingOutside("include /dev/zero");
  });

  it("C++: templates expanded for ever are a compilation error (the compile's own limits), not a stuck runner", async () => {
    // Two distinct instantiations a level, 40 levels deep (within g++'s depth limit): 2^40 types to make.
    const source = `#include <utility>\ntemplate <class T, int N> struct E { static constexpr long v = E<std::pair<T, char>, N - 1>::v + E<std::pair<T, int>, N - 1>::v; };
template <class T> struct E<T, 0> { static constexpr long v = 1; };\nint main() { return E<char, 40>::v == 0; }`;
    const program = makeBox(sandbox.slots[0]!, "cpp", source);
    try {
      const compiled = await compileProgram(sandbox, program);
      observations.push(`C++ templates expanded for ever: ${compiled.ok ? "compiled" : (compiled.problem ?? compiled.message.split("\n")[0])} (${Math.round(compiled.result.wallMs)} ms)`);
      expect(compiled.ok).toBe(false);
      if (!compiled.ok) expect(compiled.problem).toMatch(/^compile-(memory|timeout|output)$/);
    } finally {
      removeBox(program);
    }
    expectNothingOutside("templates expanded for ever");
    // The compile's own limits end it (512 MB: about 10 s here; 30 s of wall time at most), beyond vitest's default.
  }, 60_000);

  // Every language: the usual answer is accepted, and its hostile programs get their verdicts.
  const PER_LANGUAGE: Record<Exclude<LanguageId, "c">, { sum: string; loop: string; memory: string; fork: string; secret: string }> = {
    cpp: {
      sum: `#include <iostream>\nint main(){ long a,b; std::cin>>a>>b; std::cout<<a+b<<"\\n"; }`,
      loop: `int main(){ volatile long i=0; for(;;) i++; }`,
      memory: `#include <vector>\n#include <cstdio>\nint main(){ std::vector<std::vector<char>> v; for(;;) v.emplace_back(1<<20, 'x'); }`,
      fork: `#include <unistd.h>\nint main(){ for(;;) fork(); }`,
      secret: `#include <cstdlib>\n#include <cstdio>\nint main(){ const char* s = std::getenv("GK_DRILL_SECRET"); std::puts(s ? s : "none"); }`,
    },
    python3: {
      sum: `a, b = map(int, input().split())\nprint(a + b)`,
      loop: `while True:\n    pass`,
      memory: `x = []\nwhile True:\n    x.append(bytearray(1 << 20))`,
      fork: `import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass`,
      secret: `import os\nprint(os.environ.get("GK_DRILL_SECRET", "none"))`,
    },
    java: {
      sum: `import java.util.*;\npublic class Main { public static void main(String[] a){ Scanner s = new Scanner(System.in); long x = s.nextLong(), y = s.nextLong(); System.out.println(x + y); } }`,
      loop: `public class Main { public static void main(String[] a){ long i = 0; while (true) i++; } }`,
      memory: `import java.util.*;\npublic class Main { public static void main(String[] a){ List<byte[]> l = new ArrayList<>(); while (true) l.add(new byte[1 << 20]); } }`,
      fork: `public class Main { public static void main(String[] a) throws Exception { while (true) { try { new ProcessBuilder("/bin/sh", "-c", "sleep 100").start(); } catch (Exception e) { } } } }`,
      secret: `public class Main { public static void main(String[] a){ String s = System.getenv("GK_DRILL_SECRET"); System.out.println(s == null ? "none" : s); } }`,
    },
    javascript: {
      sum: `const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\nconsole.log(a + b);`,
      loop: `for (;;) {}`,
      memory: `const k = []; for (;;) k.push(Buffer.alloc(1 << 20, 1));`,
      fork: `const { spawn } = require("child_process"); for (;;) { try { spawn("/bin/sh", ["-c", "sleep 100"]); } catch {} }`,
      secret: `console.log(process.env.GK_DRILL_SECRET ?? "none");`,
    },
  };

  for (const [language, programs] of Object.entries(PER_LANGUAGE) as Array<[Exclude<LanguageId, "c">, (typeof PER_LANGUAGE)["cpp"]]>) {
    it(`${language}: the usual answer runs; a loop, a memory bomb, a fork bomb and a look at the environment get their verdicts`, async () => {
      const input = path.join(inputDir, `${language}.in`);
      writeFileSync(input, "2 40\n");
      const sum = await compileAndRun(language, programs.sum, input);
      expect(sum.result.stdout.toString().trim(), `${language} sum: ${sum.result.stderr.toString()}`).toBe("42");
      expect(sum.result.outcome).toBe("exited");
      const loop = await compileAndRun(language, programs.loop);
      expect(loop.result.outcome).toBe("time");
      const memory = await compileAndRun(language, programs.memory);
      // The JVM and V8 stop at their own heap size (set below the limit): an error exit, never a pass.
      expect(language === "java" || language === "javascript" ? ["memory", "exited", "signaled"] : ["memory"]).toContain(memory.result.outcome);
      if (memory.result.outcome === "exited") expect(memory.result.exitCode).not.toBe(0);
      const fork = await compileAndRun(language, programs.fork);
      expect(["time", "signaled", "memory", "exited"]).toContain(fork.result.outcome);
      const secret = await compileAndRun(language, programs.secret);
      expect(secret.result.stdout.toString().trim()).toBe("none");
      observations.push(
        `${language}: sum ${Math.round(sum.result.wallMs)} ms wall, loop ${loop.result.outcome}, memory bomb ${memory.result.outcome}, fork bomb ${fork.result.outcome}, environment read: none`,
      );
      expectNothingOutside(language);
    });
  }

  // The rest of the hostile list in the four other languages, each written as a team would write it in that
  // language (C++ as C++'s streams would not change what the kernel sees: the C sources, compiled by g++).
  type Hostile = "file" | "stdout" | "connect" | "reads" | "kill" | "background";
  const c = (name: string) => C_HOSTILE.find((hostile) => hostile.name === name)!.source();
  const OTHER_HOSTILE: Record<Exclude<LanguageId, "c">, Record<Hostile, () => string>> = {
    cpp: {
      file: () => c("10 GB written to a file"),
      stdout: () => c("10 GB written to standard output"),
      connect: () => `#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\n#include <cstdio>\n#include <cerrno>\n#include <cstring>
int main(){ int s = socket(AF_INET, SOCK_STREAM, 0); if (s < 0) { std::printf("connect: -1 socket %s\\n", std::strerror(errno)); return 0; }
sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(${port}); a.sin_addr.s_addr = inet_addr("127.0.0.1");
int r = connect(s, (sockaddr*)&a, sizeof a); std::printf("connect: %d %s\\n", r, r ? std::strerror(errno) : "connected"); }`,
      reads: () => `#include <fstream>\n#include <iostream>\n#include <sstream>\n#include <dirent.h>
static void show(const char* p){ std::ifstream f(p); if (!f) { std::cout << p << ": closed\\n"; return; } std::stringstream b; b << f.rdbuf(); std::cout << p << ": " << b.str().substr(0, 255) << "\\n"; }
int main(int, char**, char** env){ for (char** e = env; *e; e++) std::cout << "env " << *e << "\\n";
show("${REPO_SECRET_FILE}"); show("/etc/shadow"); show("/proc/1/environ");
DIR* d = opendir("/proc"); while (dirent* x = d ? readdir(d) : nullptr) std::cout << "proc " << x->d_name << "\\n"; }`,
      kill: () => `#include <csignal>\nint main(){ kill(-1, SIGKILL); }`,
      background: () => c("background process meant to outlive the run"),
    },
    python3: {
      file: () =>
        `import sys\nb = b"x" * (1 << 20)\ntry:\n    with open("/tmp/big", "wb") as f:\n        for _ in range(10240):\n            f.write(b)\nexcept OSError as e:\n    print("stopped", e.errno)\n    sys.exit(4)\nopen("${HOST_MARK}", "w")`,
      stdout: () => `import sys\nb = b"y" * (1 << 20)\nfor _ in range(10240):\n    sys.stdout.buffer.write(b)`,
      connect: () =>
        `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2)\n    print("connect: connected")\nexcept OSError as e:\n    print("connect: -1", e)`,
      reads: () =>
        `import os\nfor k in os.environ:\n    print("env " + k + "=")\nfor p in ["${REPO_SECRET_FILE}", "/etc/shadow", "/proc/1/environ"]:\n    try:\n        print(p + ": " + open(p, errors="replace").read(255))\n    except OSError:\n        print(p + ": closed")\nfor x in os.listdir("/proc"):\n    print("proc " + x)`,
      kill: () => `import os, signal\nos.kill(-1, signal.SIGKILL)`,
      background: () =>
        `import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(30)\n    open("${HOST_MARK}", "w")\n    os._exit(0)\nprint("started")`,
    },
    java: {
      file: () =>
        `import java.io.*;\npublic class Main { public static void main(String[] a) { byte[] b = new byte[1 << 20]; try (FileOutputStream f = new FileOutputStream("/tmp/big")) { for (int i = 0; i < 10240; i++) f.write(b); } catch (IOException e) { System.out.println("stopped " + e); System.exit(4); } try { new FileOutputStream("${HOST_MARK}").close(); } catch (IOException e) { System.exit(5); } } }`,
      stdout: () => `public class Main { public static void main(String[] a) { byte[] b = new byte[1 << 20]; for (int i = 0; i < 10240; i++) System.out.write(b, 0, b.length); System.out.flush(); } }`,
      connect: () =>
        `public class Main { public static void main(String[] a) { try (java.net.Socket s = new java.net.Socket()) { s.connect(new java.net.InetSocketAddress("127.0.0.1", ${port}), 2000); System.out.println("connect: connected"); } catch (Exception e) { System.out.println("connect: -1 " + e); } } }`,
      reads: () =>
        `import java.nio.file.*;\npublic class Main { public static void main(String[] a) { for (String k : System.getenv().keySet()) System.out.println("env " + k + "="); for (String p : new String[] { "${REPO_SECRET_FILE}", "/etc/shadow", "/proc/1/environ" }) { try { String t = new String(Files.readAllBytes(Paths.get(p))); System.out.println(p + ": " + t.substring(0, Math.min(255, t.length()))); } catch (Exception e) { System.out.println(p + ": closed"); } } String[] l = new java.io.File("/proc").list(); if (l != null) for (String x : l) System.out.println("proc " + x); } }`,
      // No kill(2) in Java: every process it can see, forcibly destroyed.
      kill: () => `public class Main { public static void main(String[] a) { ProcessHandle.allProcesses().filter(p -> !p.equals(ProcessHandle.current())).forEach(p -> p.destroyForcibly()); System.out.println("killed"); } }`,
      background: () =>
        `public class Main { public static void main(String[] a) { try { new ProcessBuilder("/bin/sh", "-c", "sleep 30; : > ${HOST_MARK}").start(); System.out.println("started"); } catch (Exception e) { System.out.println("no start " + e); } } }`,
    },
    javascript: {
      file: () =>
        `const fs = require("fs"); const b = Buffer.alloc(1 << 20, 120);\ntry { const fd = fs.openSync("/tmp/big", "w"); for (let i = 0; i < 10240; i++) fs.writeSync(fd, b); } catch (e) { console.log("stopped " + e.code); process.exit(4); }\nfs.writeFileSync("${HOST_MARK}", "x");`,
      // A pipe may refuse for a moment (EAGAIN): written again until all 10 GB are out or the run is stopped.
      stdout: () =>
        `const fs = require("fs"); const b = Buffer.alloc(1 << 20, 121);\nfor (let i = 0; i < 10240; ) { try { fs.writeSync(1, b); i++; } catch (e) { if (e.code !== "EAGAIN") throw e; } }`,
      connect: () =>
        `const s = require("net").connect(${port}, "127.0.0.1");\ns.on("connect", () => { console.log("connect: connected"); process.exit(0); });\ns.on("error", (e) => { console.log("connect: -1 " + e.code); process.exit(0); });`,
      reads: () =>
        `const fs = require("fs");\nfor (const k of Object.keys(process.env)) console.log("env " + k + "=");\nfor (const p of ["${REPO_SECRET_FILE}", "/etc/shadow", "/proc/1/environ"]) { try { console.log(p + ": " + fs.readFileSync(p, "utf8").slice(0, 255)); } catch { console.log(p + ": closed"); } }\nfor (const x of fs.readdirSync("/proc")) console.log("proc " + x);`,
      kill: () => `process.kill(-1, "SIGKILL");`,
      background: () =>
        `const c = require("child_process").spawn("/bin/sh", ["-c", "sleep 30; : > ${HOST_MARK}"], { detached: true, stdio: "ignore" });\nc.on("error", () => {}); c.unref();\nconsole.log(c.pid ? "started" : "no start");`,
    },
  };

  for (const [language, hostile] of Object.entries(OTHER_HOSTILE) as Array<[Exclude<LanguageId, "c">, Record<Hostile, () => string>]>) {
    it(`${language}: a 10 GB file, 10 GB of output, a connection, reads of secrets, kill -1 and a background process get their verdicts and leave nothing outside`, async () => {
      const file = await compileAndRun(language, hostile.file());
      // The write is stopped: SIGXFSZ, or the error it becomes where the runtime ignores the signal (Python, the JVM).
      expect(["exited", "signaled", "memory"], `${language} 10 GB file: ${file.result.stdout.toString().slice(0, 200)}`).toContain(file.result.outcome);
      expect(file.result.exitCode ?? file.result.signal, `${language}: the write is stopped`).not.toBe(0);
      expectNothingOutside(`${language} 10 GB file`);

      const stdout = await compileAndRun(language, hostile.stdout());
      expect(stdout.result.outcome, `${language} 10 GB of output`).toBe("output");
      expect(stdout.result.stdout.length).toBeLessThanOrEqual(LIMITS.outputBytes);
      expectNothingOutside(`${language} 10 GB of output`);

      const connect = await compileAndRun(language, hostile.connect());
      expect(connect.result.stdout.toString(), `${language} connect: ${connect.result.stderr.toString().slice(0, 300)}`).toMatch(/connect: -1/);
      expectNothingOutside(`${language} connect`);

      const reads = await compileAndRun(language, hostile.reads());
      const seen = reads.result.stdout.toString();
      expect(reads.result.outcome, `${language} reads: ${reads.result.stderr.toString().slice(0, 300)}`).toBe("exited");
      expect(seen).not.toContain(SECRET);
      expect(seen).toContain(`${REPO_SECRET_FILE}: closed`);
      expect(seen).toContain("/etc/shadow: closed");
      expect(seen).not.toMatch(/env (DATABASE_URL|REDIS_URL|S3_|SESSION_SECRET|GK_DRILL_SECRET)=/);
      // The run's own pid namespace: a handful of its own processes (a runtime's helpers among them), none of the host's.
      const pids = [...seen.matchAll(/^proc (\d+)$/gm)].map((match) => Number(match[1]));
      expect(pids.length, `${language} sees pids ${pids.join(", ")}`).toBeLessThanOrEqual(5);
      expectNothingOutside(`${language} reads`);

      // A process of the slot's user on the host, which kill -1 inside must not reach.
      const { uid, gid } = sandbox.slots[0]!;
      const bystander: ChildProcess = spawn("/usr/bin/setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "/bin/sleep", "60"], { stdio: "ignore" });
      let kill: Awaited<ReturnType<typeof compileAndRun>>;
      try {
        await new Promise((resolve) => bystander.once("spawn", resolve));
        kill = await compileAndRun(language, hostile.kill());
        expect(["exited", "signaled"]).toContain(kill.result.outcome);
        expect(bystander.exitCode, `${language} kill -1: the host's process of the same user lives`).toBeNull();
        expect(bystander.signalCode).toBeNull();
        expect(processesOf(uid)).toEqual([String(bystander.pid)]);
      } finally {
        bystander.kill("SIGKILL");
        await new Promise((resolve) => (bystander.exitCode !== null || bystander.signalCode !== null ? resolve(null) : bystander.once("exit", resolve)));
      }
      expectNothingOutside(`${language} kill -1`);

      const background = await compileAndRun(language, hostile.background());
      expect(["exited", "signaled"]).toContain(background.result.outcome);
      // It did start one (C++'s is C's, which says nothing): what the run leaves must be gone with it.
      if (language !== "cpp") expect(background.result.stdout.toString(), `${language} background: ${background.result.stderr.toString().slice(0, 300)}`).toContain("started");
      expectNothingOutside(`${language} background process`);

      observations.push(
        `${language}: 10 GB file ${file.result.outcome} (exit ${file.result.exitCode ?? "-"}, signal ${file.result.signal ?? "-"}), 10 GB output ${stdout.result.outcome}, ` +
          `${connect.result.stdout.toString().trim().slice(0, 80)}, pids seen ${pids.join(" ")}, kill -1 ${kill.result.outcome}, background ${background.result.outcome} (${background.result.stdout.toString().trim().slice(0, 60) || "no output"})`,
      );
    });
  }

  // How much a hostile run beside it slows another team's run: the bound this drill states is the one its verdict
  // depends on. A run's CPU time decides Time limit exceeded, and its wall clock leaves out the time it waited for a
  // CPU: so a bystander's verdict and output must not change, and its CPU time must stay within 2 × its own alone
  // + 20 ms. Its wall time beside the hostile run is recorded (the drill's report), not bounded: on two cores, a
  // CPU-bound neighbour shares them by design.
  it("a run beside a fork bomb keeps its verdict, and its CPU time stays within 2 × its own alone + 20 ms", async () => {
    const input = path.join(inputDir, "bystander.in");
    writeFileSync(input, "2 40\n");
    const sum = `#include <stdio.h>\nint main(void){ long a, b; if (scanf("%ld %ld", &a, &b) != 2) return 1; printf("%ld\\n", a + b); return 0; }`;
    expect(sandbox.slots[BYSTANDER_SLOT], `a slot gk-sandbox-${BYSTANDER_SLOT} (scripts/lib/ensure.sh ensure_sandbox makes 8)`).toBeDefined();
    const bystander = makeBox(sandbox.slots[BYSTANDER_SLOT]!, "c", sum);
    try {
      const compiled = await compileProgram(sandbox, bystander);
      expect(compiled.ok).toBe(true);
      const runs = async (count: number) => {
        const results: SandboxResult[] = [];
        for (let index = 0; index < count; index++) results.push(await runProgram(sandbox, bystander, input, LIMITS));
        return results;
      };
      const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
      const alone = await runs(7);
      // As many processes spinning as its PIDs limit lets it make (a handful), on both cores, until its limits stop it.
      const hostile = makeBox(sandbox.slots[0]!, "c", `#include <unistd.h>\nint main(void){ for(int i = 0; i < 6; i++) fork(); for(;;); }`);
      let beside: SandboxResult[];
      try {
        const bombCompiled = await compileProgram(sandbox, hostile);
        expect(bombCompiled.ok).toBe(true);
        // The bystander runs again and again while the bomb does: each of its runs starts before the bomb is stopped.
        let bombDone = false;
        const bomb = runProgram(sandbox, hostile, emptyInput, LIMITS).finally(() => {
          bombDone = true;
        });
        beside = [];
        do beside.push(await runProgram(sandbox, bystander, input, LIMITS));
        while (!bombDone && beside.length < 50);
        const bombResult = await bomb;
        observations.push(`bystander ran ${beside.length} times beside the bomb; the bomb: ${bombResult.outcome}, ${Math.round(bombResult.cpuMs)} ms CPU, ${Math.round(bombResult.wallMs)} ms wall`);
        // The bomb spun until a limit stopped it: the bystander ran beside a real one.
        expect(["time", "memory", "signaled"]).toContain(bombResult.outcome);
        expect(bombResult.cpuMs).toBeGreaterThan(LIMITS.timeMs / 2);
      } finally {
        removeBox(hostile);
      }
      for (const result of [...alone, ...beside]) {
        expect(result.outcome).toBe("exited");
        expect(result.stdout.toString().trim()).toBe("42");
      }
      const cpuAlone = median(alone.map((result) => result.cpuMs));
      const cpuBeside = median(beside.map((result) => result.cpuMs));
      const wallAlone = median(alone.map((result) => result.wallMs));
      const wallBeside = median(beside.map((result) => result.wallMs));
      timings.push({ what: "bystander CPU alone (median of 7)", ms: cpuAlone }, { what: `bystander CPU beside a fork bomb (median of ${beside.length})`, ms: cpuBeside });
      timings.push({ what: "bystander wall alone (median of 7)", ms: wallAlone }, { what: `bystander wall beside a fork bomb (median of ${beside.length})`, ms: wallBeside });
      observations.push(`bystander: CPU ${cpuAlone.toFixed(1)} ms alone, ${cpuBeside.toFixed(1)} ms beside; wall ${Math.round(wallAlone)} ms alone, ${Math.round(wallBeside)} ms beside`);
      expect(cpuBeside).toBeLessThanOrEqual(2 * cpuAlone + 20);
    } finally {
      removeBox(bystander);
    }
    expectNothingOutside("bystander");
  });

  it("leaves no box behind", () => {
    const root = process.env.GATEKEEPER_SANDBOX_DIR ?? "/var/lib/gatekeeper-sandbox";
    for (const slot of drillSlots()) expect(readdirSync(root).filter((name) => name.startsWith(`box-${slot.index}-`))).toEqual([]);
  });
});

// Needs no sandbox: the tests archive is read by the web process, before any runner sees it.
describe("drill: a hostile tests archive", () => {
  // The archive is read in memory, never unpacked onto a disk: refused entry by entry as it streams, naming the entry.
  it("a tests archive's links, .. and absolute paths are refused as it is read, naming them", async () => {
    const hostile: Array<[string, Buffer, RegExp]> = [
      ["a symbolic link out of the archive", await archive([{ name: "1.in", type: "file", content: "1\n" }, { name: "1.out", type: "symlink", linkname: HOST_MARK }]), /symlink/],
      ["a hard link", await archive([{ name: "1.in", type: "file", content: "1\n" }, { name: "1.out", type: "link", linkname: HOST_MARK }]), /link/],
      ["a path with ..", await archive([{ name: `small/../../..${HOST_MARK}.in`, type: "file", content: "x" }]), /climbs/],
      ["an absolute path", await archive([{ name: `${HOST_MARK}.in`, type: "file", content: "x" }]), /absolute/],
    ];
    for (const [what, bytes, reason] of hostile) {
      // The function the admin's upload calls, reading from storage as it does.
      const checked = await checkTestsArchive("drill", async () => Readable.from([bytes]));
      observations.push(`tests archive with ${what}: ${checked.ok ? "accepted" : checked.reason}`);
      expect(checked.ok, what).toBe(false);
      if (!checked.ok) expect(checked.reason, what).toMatch(reason);
    }
  });
});
