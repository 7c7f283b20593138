/** The environment a child process (web or worker) of an integration test should run with. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "test",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
    ...extra,
  };
}
