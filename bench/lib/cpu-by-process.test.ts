import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { cpuByProcessWindow } from "./cpu-by-process.ts";

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/**
 * A node process that, once told to on its stdin, starts a child that burns `ms` of CPU and stays alive after,
 * then says "burned" when that child has (the child ends with its parent). Started before a window opens: only the
 * burning falls inside it.
 */
async function parentOfABurner(ms: number): Promise<{ process: ChildProcess; burn: () => Promise<void> }> {
  const burner = `const until = process.cpuUsage().user / 1000 + ${ms}; let x = 0; while (process.cpuUsage().user / 1000 < until) for (let i = 0; i < 1e6; i++) x += i; console.log("burned"); const parent = process.ppid; setInterval(() => { if (process.ppid !== parent) process.exit(); }, 50);`;
  const parent = spawn(
    process.execPath,
    ["-e", `process.stdin.once("data", () => { const child = require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(burner)}], { stdio: ["ignore", "inherit", "inherit"] }); }); console.log("ready");`],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  running.push(parent);
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  parent.stdout!.on("data", (chunk: Buffer) => {
    lines.push(...chunk.toString().trim().split("\n"));
    for (const waiter of waiters.splice(0)) waiter();
  });
  const said = async (line: string) => {
    while (!lines.includes(line)) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  await said("ready");
  return {
    process: parent,
    burn: async () => {
      parent.stdin!.write("go\n");
      await said("burned");
    },
  };
}

describe("where the machine's CPU went, by kind of process", () => {
  it("counts a process's CPU, and its children's, to the kind it is named as; nothing before the window", async () => {
    const web = await parentOfABurner(400);
    // Burned before the window: not counted.
    const before = await parentOfABurner(300);
    await before.burn();

    const window = cpuByProcessWindow({ webPids: [web.process.pid!], workerPids: [before.process.pid!] });
    await web.burn();
    const measured = window.end();

    expect(measured).not.toBeNull();
    const seconds = Object.fromEntries(measured!.shares.map((share) => [share.kind, share.cpuSeconds]));
    // The web's child burned 400 ms inside the window (/proc counts in 10 ms ticks; node's start adds some).
    expect(seconds["web processes"]).toBeGreaterThanOrEqual(0.35);
    // The "worker" burned its 300 ms before the window opened and idled in it.
    expect(seconds["worker processes"]).toBeLessThan(0.1);
    const named = measured!.shares.reduce((sum, share) => sum + share.machinePct, 0);
    // The kinds and the rest add up to the machine's busy share (each counted in 10 ms ticks, rounded to a tenth).
    expect(Math.abs(named - measured!.busyPct)).toBeLessThan(3);
  });

  it("names this process the load generator", async () => {
    const window = cpuByProcessWindow({ webPids: [], workerPids: [] });
    // 200 ms of this process's CPU, in user code (asking for the usage is a system call: asked between chunks).
    const until = process.cpuUsage().user / 1000 + 200;
    let sum = 0;
    while (process.cpuUsage().user / 1000 < until) for (let i = 0; i < 1e6; i++) sum += i;
    expect(sum).toBeGreaterThan(0);
    const measured = window.end()!;
    const generator = measured.shares.find((share) => share.kind.startsWith("load generator"))!;
    expect(generator.cpuSeconds).toBeGreaterThanOrEqual(0.15);
  });
});
