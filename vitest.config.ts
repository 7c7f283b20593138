import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };

export default defineConfig({
  resolve: { alias },
  test: {
    // 2 cores: two forks at most, each integration file with its own database and Redis prefix.
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "db/**/*.test.ts", "workers/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts"],
          environment: "node",
          // Some start a process or run the linter (the layers, the web's node flags, CPU by process): on a busy
          // 2-core machine they took 6–13 s against vitest's default 5 s, and failed without an assertion failing.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-setup.ts"],
          setupFiles: ["tests/setup/per-file.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // Fault drills (docs/RELIABILITY.md): real web and worker processes, each drill breaking a
          // service instance of its own. `npm run drills` runs them longer (DRILLS_FULL=1).
          name: "drills",
          include: ["tests/drills/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-setup.ts", "tests/drills/support/ensure-build.ts"],
          setupFiles: ["tests/setup/per-file.ts"],
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
