import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/lib/chromium.ts";

const port = Number(process.env.E2E_PORT ?? 3105);

const chromium = chromiumLaunchOptions;
const browser = { ...devices["Desktop Chrome"], launchOptions: chromium };

/**
 * Tests tagged @event-wide change what every participant sees (the freeze, the final instant, the home
 * videos, announcements and notifications): they run one at a time in their own project, so no other
 * test sees the event move under it (tests/e2e/README.md).
 */
const EVENT_WIDE = /@event-wide/;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // 2 cores, shared with the web process, the worker, Postgres, Redis, the S3 server and the browsers.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Per test; a test of several screens sets its own budget (tests/e2e/support/budget.ts).
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // Animations and artificial delays are skipped for people (and tests) who ask for less motion.
    reducedMotion: "reduce",
    launchOptions: chromium,
  },
  projects: [
    // Tests that need the event as seeded (e.g. no announcement yet) run first, alone.
    { name: "fresh-event", testMatch: /fresh-event\.spec\.ts/, workers: 1, use: browser },
    // Then the tests that move event-wide state, one at a time.
    { name: "event-wide", testIgnore: /fresh-event\.spec\.ts/, grep: EVENT_WIDE, dependencies: ["fresh-event"], workers: 1, use: browser },
    // Then everything else, two at a time.
    { name: "chromium", testIgnore: /fresh-event\.spec\.ts/, grepInvert: EVENT_WIDE, dependencies: ["event-wide"], use: browser },
  ],
  webServer: {
    // Prepares a fresh, migrated and seeded e2e database, then starts the built server on it.
    command: `node --import tsx tests/e2e/support/start-server.ts`,
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: { E2E_PORT: String(port) },
  },
});
