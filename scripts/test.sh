#!/usr/bin/env bash
# npm test: install if needed, start services, typecheck, lint, unit + integration + fast fault drills + e2e,
# benchmark smoke.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure.sh

ensure_node_modules
ensure_chromium
echo "==> starting services"
node --import tsx scripts/services.ts start
mkdir -p .local/test-results

echo "==> typecheck"
npm run -s typecheck
echo "==> lint"
npm run -s lint
echo "==> docker-compose.yml"
check_compose_file
# Before vitest: the fault drills (vitest project "drills") run the production web process on this build.
echo "==> build"
npm run -s build >/dev/null
echo "==> unit, integration tests and fast fault drills"
npx vitest run --reporter=default --reporter=json --outputFile=.local/test-results/vitest.json
echo "==> end-to-end tests (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME=.local/test-results/playwright.json npx playwright test --reporter=list,json
echo "==> benchmark smoke"
# Every benchmark at a size that takes seconds, so none rots: fails on a crash, a failed request or
# inexact standings, never on timing (docs/PERFORMANCE.md).
npm run -s bench:smoke
node --import tsx scripts/test-summary.ts
