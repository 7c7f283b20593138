/**
 * Node's flags for a web process (server.ts) in production: one list, which `npm start`, the image's command
 * (Dockerfile), `npm run quickstart`, the benchmarks' and the end-to-end tests' web processes all use
 * (scripts/lib/web-node-flags.test.ts holds them to it).
 *
 * `--max-semi-space-size=64`: V8's young generation up to 2 × 64 MB instead of 2 × 16. A page makes
 * short-lived objects only, but at a hundred pages in flight many are alive when the young generation fills,
 * and each collection copies them; four times the room means a quarter of the collections. Measured on the
 * participant pages: 4–10 % less CPU a request, for up to 96 MB more young generation a busy web process
 * (more RSS under load: docs/decisions/035-young-generation.md).
 */
export const WEB_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];
