# Shared by quickstart.sh, test.sh and drills.ts: install what the project needs, once, on a fresh machine.

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}

# Install when node_modules is missing or older than the lockfile, or when patches/ changed since the last
# install (a patch added, edited or removed by a pull). `npm install` keeps the locked versions and, unlike
# `npm ci`, keeps a working node_modules it only has to top up. The Docker image uses `npm ci`: the lockfile
# lists every platform's optional builds (scripts/lockfile.test.ts). When patches/ changed, every package a
# patch names, now or at the last install, is removed first: the install puts it back as published and
# patch-package applies the patches as they now are (applied over the old ones, they would fail; a package
# whose patch was removed would keep it). A node_modules with no record of its patches is installed anew.
PATCHES_SEEN=node_modules/.gatekeeper-patches
ensure_node_modules() {
  local stale=0 now before name
  if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    stale=1
  fi
  now=$(cat patches/*.patch 2>/dev/null | sha256sum | cut -d' ' -f1)
  if [ -d node_modules ] && [ ! -f "$PATCHES_SEEN" ]; then
    rm -rf node_modules
    stale=1
  elif [ -d node_modules ] && [ "$(head -n 1 "$PATCHES_SEEN" 2>/dev/null)" != "$now" ]; then
    before=$(tail -n +2 "$PATCHES_SEEN" 2>/dev/null || true)
    # patches/@scope+name+1.2.3.patch → @scope/name
    for name in $before $(for patch in patches/*.patch; do [ -e "$patch" ] && basename "$patch" .patch; done); do
      name=${name%+*}
      rm -rf "node_modules/${name//+//}"
    done
    stale=1
  fi
  if [ "$stale" -eq 1 ]; then
    echo "==> installing npm packages"
    npm install --no-audit --no-fund
    # npm leaves its record alone when nothing in the lockfile changed: it now dates this install.
    touch node_modules/.package-lock.json
    { echo "$now"; for patch in patches/*.patch; do [ -e "$patch" ] && basename "$patch" .patch; done; } > "$PATCHES_SEEN"
  fi
}

# Debian's Chromium for Playwright (never a downloaded browser): the headless shell the e2e tests run in
# (package chromium-headless-shell, decision 014), or whatever CHROMIUM_PATH names.
ensure_chromium() {
  local browser="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
  if [ -x "$browser" ]; then return 0; fi
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    echo "error: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable." >&2
    return 1
  fi
  echo "==> installing Debian's chromium-headless-shell for the browser tests"
  if ! apt_install chromium-headless-shell; then
    echo "error: $browser is missing and could not be installed (apt-get install chromium-headless-shell needs root)." >&2
    return 1
  fi
}

# Debian's nginx for the web-tier drill (tests/drills/web-tier-scale-out.test.ts: the proxy of
# docker-compose.yml in front of two web processes), or whatever NGINX_PATH names. Only the binary is used:
# the drill runs its own nginx, on its own configuration and port.
ensure_nginx() {
  if [ -n "${NGINX_PATH:-}" ]; then
    if [ -x "$NGINX_PATH" ]; then return 0; fi
    echo "error: NGINX_PATH=$NGINX_PATH is not an executable." >&2
    return 1
  fi
  if [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1; then return 0; fi
  echo "==> installing Debian's nginx for the web-tier drill"
  if ! apt_install nginx; then
    echo "error: nginx is missing and could not be installed (apt-get install nginx needs root); the web-tier drill needs it." >&2
    return 1
  fi
}

# `env` carries the variable through sudo, which would otherwise reset the environment.
apt_install() {
  as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# Checks docker-compose.yml without a Docker engine (none runs on these machines): Debian's docker-compose
# 1.29 parses and validates the file offline. Skipped, with a note, where it cannot be installed.
check_compose_file() {
  if ! command -v docker-compose >/dev/null 2>&1 && ! apt_install docker-compose; then
    echo "note: docker-compose could not be installed (needs root and apt); docker-compose.yml not checked"
    return 0
  fi
  SESSION_SECRET=compose-config-check docker-compose -f docker-compose.yml config -q
}

# The code challenges' sandbox (docs/decisions/042-code-sandbox.md): Debian's bubblewrap, python3-seccomp (the
# seccomp filter is generated with libseccomp's own bindings), util-linux's setpriv and prlimit, the compilers and
# runtimes of the languages offered, and one unprivileged user per runner slot (gk-sandbox-0 …, no home, no
# shell, no password). Needs root. Where the machine cannot sandbox, says why and returns 1: the sandbox tests
# then skip saying so, and a runner refuses to start.
# Each command the sandbox runs and the Debian package that provides it where it is missing.
SANDBOX_COMMANDS="bwrap:bubblewrap setpriv:util-linux prlimit:util-linux gcc:gcc g++:g++ python3:python3 javac:default-jdk-headless node:nodejs"
ensure_sandbox() {
  local slots="${GATEKEEPER_SANDBOX_SLOTS:-8}" missing="" pair index user
  for pair in $SANDBOX_COMMANDS; do
    [ -x "/usr/bin/${pair%%:*}" ] || missing="$missing ${pair#*:}"
  done
  /usr/bin/python3 -c "import seccomp" 2>/dev/null || missing="$missing python3-seccomp"
  if [ -n "$missing" ]; then
    echo "==> installing the sandbox's Debian packages:$missing"
    if ! apt_install $missing; then
      echo "note: the code sandbox cannot be set up here (apt-get install$missing needs root); its tests skip." >&2
      return 1
    fi
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "note: the code sandbox needs root to make its slot users and control groups; its tests skip." >&2
    return 1
  fi
  for index in $(seq 0 $((slots - 1))); do
    user="gk-sandbox-$index"
    id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group "$user"
  done
}
