#!/usr/bin/env bash
# npm test: install if needed, start services, typecheck, lint, unit + integration + fast fault drills + e2e,
# benchmark smoke. Each stage's time goes into the closing summary (scripts/test-summary.ts), also when a
# stage fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure.sh

RESULTS=.local/test-results
# A summary must never count an earlier run's reports.
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
STAGES="$RESULTS/stages.tsv"
: > "$STAGES"
RUN_STARTED=$SECONDS

# stage NAME COMMAND…: runs the command under a heading and records how long it took.
stage() {
  local name=$1
  shift
  echo "==> $name"
  local started=$SECONDS
  local status=0
  "$@" || status=$?
  printf '%s\t%s\t%s\n' "$name" "$((SECONDS - started))" "$status" >> "$STAGES"
  return "$status"
}
summary() {
  local status=$?
  printf '%s\t%s\t%s\n' "total" "$((SECONDS - RUN_STARTED))" "$status" >> "$STAGES"
  node --import tsx scripts/test-summary.ts || status=$((status == 0 ? 1 : status))
  exit "$status"
}
trap summary EXIT
build_quietly() { npm run -s build >/dev/null; }

stage "install" ensure_node_modules
stage "chromium" ensure_chromium
stage "nginx" ensure_nginx
# The code sandbox (bubblewrap, its users): where the machine cannot have it, its tests skip, saying why.
# GATEKEEPER_REQUIRE_SANDBOX=1 (CI) makes it a failure instead: a green run then proves the code runs' tests ran.
sandbox_or_skip() { if [ "${GATEKEEPER_REQUIRE_SANDBOX:-}" = 1 ]; then ensure_sandbox; else ensure_sandbox || true; fi; }
stage "sandbox" sandbox_or_skip
stage "services" node --import tsx scripts/services.ts start
stage "typecheck" npm run -s typecheck
stage "lint" npm run -s lint
stage "docker-compose.yml" check_compose_file
# Before vitest: the fault drills (vitest project "drills") run the production web process on this build.
stage "build" build_quietly
stage "vitest (unit, integration, fast drills)" \
  npx vitest run --reporter=default --reporter=json --outputFile="$RESULTS/vitest.json"
stage "e2e (Playwright, Chromium)" \
  env PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/playwright.json" npx playwright test --reporter=list,json
# Every benchmark at a size that takes seconds, so none rots: fails on a crash, a failed request or
# inexact standings, never on timing (docs/PERFORMANCE.md).
stage "benchmark smoke" npm run -s bench:smoke
