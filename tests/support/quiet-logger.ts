import { afterAll, beforeAll } from "vitest";
import { getLogger } from "../../app/infrastructure/logger.server.ts";

/** For a test file whose errors are made on purpose: their log lines (with stacks) would only look like failures. */
export function quietLogger() {
  let level: string;
  beforeAll(() => {
    level = getLogger().level;
    getLogger().level = "silent";
  });
  afterAll(() => {
    getLogger().level = level;
  });
}
