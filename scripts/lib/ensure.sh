# Shared by quickstart.sh and test.sh: install what the project needs, once, on a fresh machine.

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}

# Install when node_modules is missing or older than the lockfile. `npm install` (which keeps the
# locked versions) rather than `npm ci`: the registry mirror on these machines serves only the
# packages for this platform, so the lockfile cannot list rollup's and msgpackr's optional builds for
# other platforms, and `npm ci` refuses a lockfile without them.
ensure_node_modules() {
  if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "==> installing npm packages"
    npm install --no-audit --no-fund
  fi
}

# Debian's Chromium for Playwright (never a downloaded browser).
ensure_chromium() {
  local browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
  if [ -x "$browser" ]; then return 0; fi
  echo "==> installing Debian's chromium for the browser tests"
  if ! { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >/dev/null; }; then
    echo "error: $browser is missing and could not be installed (apt-get install chromium needs root)." >&2
    return 1
  fi
}
