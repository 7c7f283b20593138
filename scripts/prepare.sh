#!/usr/bin/env bash
# What a script needs on a fresh machine, made ready before it runs: `bash scripts/prepare.sh services [chromium]`.
# package.json's single benchmarks and the soak start with it, so each works from a fresh clone as `npm test` and
# `npm run bench` do: the project-local services (or the ones DATABASE_URL, REDIS_URL and S3_ENDPOINT name), and
# Debian's headless Chromium for a benchmark that loads pages in a browser, and the code sandbox (bubblewrap, its users
# and its seccomp filter) for the runner's benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure.sh
for need in "$@"; do
  case "$need" in
    services) node --import tsx scripts/services.ts start ;;
    chromium) ensure_chromium ;;
    sandbox) ensure_sandbox ;;
    *) echo "scripts/prepare.sh: unknown need '$need' (services, chromium, sandbox)" >&2; exit 2 ;;
  esac
done
