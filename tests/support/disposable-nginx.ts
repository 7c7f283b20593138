/**
 * An nginx of the test's own (Debian's binary) running the reverse proxy of docker-compose.yml — the same
 * deploy/nginx/gatekeeper.conf.template, rendered with this test's upstream list — on a free port. Its
 * prefix, configuration, pid, logs and temporary files live in a temporary directory: the system's nginx
 * (if any) is never touched, and no root is needed.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { nginxBinary, renderProxyConfig, upstreamServer } from "../../scripts/lib/proxy-config.ts";
import { runCommand } from "../../scripts/lib/process.ts";
import { DisposableProcess } from "./disposable-process.ts";
import { freePort } from "./free-port.ts";

/** One line of the proxy's access log (its `gatekeeper` format). */
export interface AccessLogEntry {
  client: string;
  method: string;
  path: string;
  status: number;
  /** Socket.IO's `transport` query parameter ("polling", "websocket"), or "-". */
  transport: string;
  /** Every web process nginx tried, in order ("127.0.0.1:4001"); two when it retried on another. */
  upstreams: string[];
  upstreamStatuses: string[];
}

const LINE = /^(\S+) \[[^\]]+\] "(\S+) ([^"]*)" (\d+) \d+ rt=\S+ transport=(\S+) upstream=(.*) upstream_status=(.*)$/;

export class DisposableNginx extends DisposableProcess {
  private readonly binary = nginxBinary();

  private constructor(
    port: number,
    dir: string,
    private readonly upstreams: string[],
  ) {
    super(port, dir);
  }

  /** nginx in front of `upstreams` (host:port of each web process), started. */
  static async start(upstreams: string[]): Promise<DisposableNginx> {
    const dir = mkdtempSync(path.join(tmpdir(), "gk-nginx-"));
    // Run as root, nginx's master hands requests to workers running as `nobody`: they must reach the temp dirs.
    chmodSync(dir, 0o755);
    const nginx = new DisposableNginx(await freePort(), dir, upstreams);
    nginx.writeConfig();
    await nginx.start();
    return nginx;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get accessLogFile(): string {
    return path.join(this.dataDir, "access.log");
  }

  private writeConfig() {
    const dir = this.dataDir;
    writeFileSync(
      path.join(dir, "gatekeeper.conf"),
      renderProxyConfig({
        GATEKEEPER_LISTEN: `127.0.0.1:${this.port}`,
        GATEKEEPER_UPSTREAM: this.upstreams.map(upstreamServer).join("\n    "),
        GATEKEEPER_ACCESS_LOG: this.accessLogFile,
      }),
    );
    // Debian's binary has its temporary paths under /var/lib/nginx, which a non-root user cannot write:
    // every module compiled in gets one here.
    const configure = runCommand(this.binary, ["-V"]).output;
    const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
      .filter((module) => module === "client_body" || !configure.includes(`--without-http_${module}_module`))
      .map((module) => {
        mkdirSync(path.join(dir, "temp", module), { recursive: true });
        return `    ${module}_temp_path ${path.join(dir, "temp", module)};`;
      });
    writeFileSync(
      path.join(dir, "nginx.conf"),
      [
        "daemon off;",
        "worker_processes 1;",
        `pid ${path.join(dir, "nginx.pid")};`,
        `error_log ${path.join(dir, "error.log")} warn;`,
        "events { worker_connections 4096; }",
        "http {",
        ...temp,
        `    include ${path.join(dir, "gatekeeper.conf")};`,
        "}",
        "",
      ].join("\n"),
    );
  }

  /** Starts nginx (again) and resolves once it accepts connections; throws with its error log if it cannot. */
  async start(): Promise<void> {
    // Its own process group: a kill takes the worker with the master (a worker outlives a killed master).
    const child = spawn(this.binary, ["-p", this.dataDir, "-c", path.join(this.dataDir, "nginx.conf"), "-e", path.join(this.dataDir, "error.log")], {
      stdio: "ignore",
      detached: true,
    });
    this.process = child;
    const deadline = Date.now() + 10_000;
    while (!(await this.accepts())) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await this.kill();
        throw new Error(`nginx did not start (exit ${child.exitCode}):\n${this.errorLog()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private accepts(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = net.connect(this.port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  }

  override async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
  }

  errorLog(): string {
    try {
      return readFileSync(path.join(this.dataDir, "error.log"), "utf8");
    } catch {
      return "(no error log)";
    }
  }

  /** The requests nginx has finished so far, oldest first. */
  accessLog(): AccessLogEntry[] {
    let text = "";
    try {
      text = readFileSync(this.accessLogFile, "utf8");
    } catch {
      return [];
    }
    return text.split("\n").flatMap((line) => {
      const match = LINE.exec(line);
      if (!match) return [];
      const [, client, method, pathname, status, transport, upstream, upstreamStatus] = match;
      return [
        {
          client,
          method,
          path: pathname,
          status: Number(status),
          transport,
          upstreams: upstream === "-" ? [] : upstream.split(/, | : /),
          upstreamStatuses: upstreamStatus === "-" ? [] : upstreamStatus.split(/, | : /),
        },
      ];
    });
  }
}
