#!/usr/bin/env bash
# npm run quickstart: install, start services, migrate, seed the demo event, build, then run one web
# process and one worker, in production mode, until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure.sh

ensure_node_modules
echo "==> starting services"
node --import tsx scripts/services.ts start
echo "==> migrating"
npm run -s db:migrate
echo "==> seeding the demo event"
node --import tsx scripts/seed.ts --reset-clock
echo "==> building"
npm run -s build >/dev/null

# The web port: PORT, else 3000 moved by GATEKEEPER_PORT_OFFSET as every local port is (app/infrastructure/local-services.ts).
port="${PORT:-$(node --import tsx -e 'import("./app/infrastructure/local-services.ts").then((m) => console.log(m.localPorts().web))')}"
export PORT="$port"
pids=()
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

# The demo runs as an event would: production mode with the project-local services (scripts/quickstart-env.ts).
eval "$(node --import tsx scripts/quickstart-env.ts)"

node --import tsx workers/index.ts &
pids+=($!)
# A web process's flags: scripts/lib/web-node-flags.ts.
node --max-semi-space-size=64 --import tsx server.ts &
pids+=($!)

for _ in $(seq 1 60); do
  if node -e "fetch('http://127.0.0.1:${port}/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then break; fi
  if ! kill -0 "${pids[1]}" 2>/dev/null; then echo "error: the web server did not start (is port ${port} free?)" >&2; exit 1; fi
  sleep 0.5
done
node --import tsx scripts/print-logins.ts "http://localhost:${port}"
wait -n "${pids[@]}"
