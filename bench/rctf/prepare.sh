#!/usr/bin/env bash
# Builds rCTF at the pinned commit, once, for `npm run bench:flags -- --rctf DIR` (bench/rctf/README.md):
#
#   bench/rctf/prepare.sh DIR          RCTF_GIT=<a mirror's URL or path> to clone from it instead of GitHub
#
# Clones rCTF into DIR (or uses the clone there), checks out the commit, installs its locked dependencies with
# yarn 1 (its lockfile's), compiles its server (`yarn build:ts`), writes a stub page for `/` in place of its
# Preact client (not built: the bench uses only its API), then creates the database `rctf` on the bench's
# Postgres server (DATABASE_URL's, else the project-local one) if missing and runs rCTF's migrations there.
# Safe to run again: each step redoes only what is missing or changed.
set -euo pipefail
COMMIT=debc13d43fb7c0e10c6ff49c747afd4882b1871d
DIR=${1:?usage: bench/rctf/prepare.sh DIR}
GIT=${RCTF_GIT:-https://github.com/redpwn/rctf}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$(dirname "$DIR")"
DIR=$(cd "$(dirname "$DIR")" && pwd)/$(basename "$DIR")

if [ ! -d "$DIR/.git" ]; then git clone "$GIT" "$DIR"; fi
cd "$DIR"
git cat-file -e "$COMMIT^{commit}" 2>/dev/null || git fetch "$GIT"
git -c advice.detachedHead=false checkout "$COMMIT"

# --ignore-engines: its packages name Node 12 (it runs on the Node of this project unchanged). --ignore-scripts:
# the install scripts left out are banners (core-js, nodent-runtime), git hooks (husky) and dev tools (ejs,
# nodemon); nothing native, nothing the server runs.
npx --yes yarn@1 install --frozen-lockfile --ignore-engines --ignore-scripts
npx --yes yarn@1 build:ts

# The server reads dist/build/index.html at start to serve `/` (the client's page, with the config in it).
mkdir -p dist/build
if [ ! -f dist/build/index.html ]; then
  printf '<!doctype html><html><head><title>rCTF</title></head><body><script>window.config = JSON.parse(`{{{jsonConfig}}}`)</script></body></html>\n' >dist/build/index.html
fi

cd "$REPO"
node --import tsx bench/rctf/rctf.ts migrate "$DIR" rctf
echo "rCTF $COMMIT built in $DIR: npm run bench:flags -- --rctf $DIR"
