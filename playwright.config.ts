import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3105);

/** Debian's Chromium, never a downloaded browser (STACK.md gotcha 11). */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
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
    { name: "fresh-event", testMatch: /fresh-event\.spec\.ts/, use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    { name: "chromium", testIgnore: /fresh-event\.spec\.ts/, dependencies: ["fresh-event"], use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
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
