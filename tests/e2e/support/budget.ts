import { test } from "@playwright/test";

/**
 * What one step of a test may take: a page load, a form's round trip or a live update waited for. On a
 * quiet 2-core machine of this project's kind a step takes well under 1.5 s (two browsers, the web
 * process, the worker, Postgres, Redis and the S3 server sharing the cores); 4 s leaves room for a machine
 * with other work on it.
 */
export const STEP_MS = 4_000;

/**
 * A test of many steps gets a time budget of `steps` × STEP_MS instead of the default 30 s: call it
 * first in the test, with the steps counted in a comment. The default per-test timeout is never raised
 * for everyone (tests/e2e/README.md).
 */
export function budgetSteps(steps: number) {
  test.setTimeout(Math.max(30_000, steps * STEP_MS));
}
