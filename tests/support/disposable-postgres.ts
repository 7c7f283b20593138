/**
 * A Postgres cluster of the test's own (initdb/pg_ctl from the distribution's binaries, as the local
 * services do, on a free port, data under /tmp), which the test may crash and start again. Unlike the
 * shared dev cluster it keeps Postgres's durable defaults (fsync, synchronous commit): a drill that
 * counts rows after a crash must not be helped by settings production would never use.
 */
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { runMigrations } from "../../scripts/migrate.ts";
import {
  ensureBinDir,
  ensureDatabase,
  initCluster,
  layoutUnder,
  prepareDirectories,
  startCluster,
  stopCluster,
  type PostgresLayout,
} from "../../scripts/lib/postgres-service.ts";
import { freePort } from "./free-port.ts";

const DATABASE = "gatekeeper";

export class DisposablePostgres {
  private running = false;

  private constructor(
    readonly port: number,
    private readonly binDir: string,
    private readonly root: string,
    private readonly layout: PostgresLayout,
  ) {}

  /** A new cluster with the app's database migrated. */
  static async start(): Promise<DisposablePostgres> {
    // /tmp, not the repo: as root the server runs as `postgres`, which must reach its data folder.
    const root = mkdtempSync("/tmp/gk-drill-pg-");
    const cluster = new DisposablePostgres(await freePort(), ensureBinDir(), root, layoutUnder(path.join(root, "postgres")));
    prepareDirectories(cluster.layout);
    initCluster(cluster.binDir, cluster.layout);
    await cluster.start();
    await runMigrations(cluster.url);
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${DATABASE}`;
  }

  /** Starts the cluster (again) and resolves once the app's database accepts queries. */
  async start(): Promise<void> {
    startCluster(this.binDir, this.layout, this.port, []);
    this.running = true;
    await ensureDatabase(this.url, 30_000);
  }

  /** pg_ctl stop -m immediate: every backend is killed at once, as in a crash; the next start replays the WAL. */
  crash(): void {
    stopCluster(this.binDir, this.layout, "immediate");
    this.running = false;
  }

  async destroy(): Promise<void> {
    if (this.running) stopCluster(this.binDir, this.layout, "immediate");
    this.running = false;
    rmSync(this.root, { recursive: true, force: true });
  }
}
