import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";

/**
 * A service process a test owns (its own port and data folder): started, killed hard as in a crash,
 * started again on the same port and data, and removed at the end.
 */
export abstract class DisposableProcess {
  protected process: ChildProcess | undefined;

  protected constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {}

  /** Starts the service (again) and resolves once it answers. */
  abstract start(): Promise<void>;

  /** kill -9: no goodbye to clients, requests in flight are cut. Resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  /**
   * SIGSTOP: the process keeps its sockets open and the kernel keeps accepting what clients send, but nothing
   * answers, as with a server stuck in a long command or a host that froze. `resume` (SIGCONT) lets it go on.
   */
  pause(): void {
    this.process?.kill("SIGSTOP");
  }

  resume(): void {
    this.process?.kill("SIGCONT");
  }

  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
