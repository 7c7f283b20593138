# Gatekeeper: one image for the web process (default command), the BullMQ worker
# (`npm run worker`) and one-off tasks (`npm run db:migrate`, `npm run db:seed`, ...).
# Builds with the classic builder or BuildKit (no BuildKit-only syntax).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- base: shared settings -------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

# ---- deps: every dependency, for the build ---------------------------------------------------
FROM base AS deps
# Exactly the lockfile (`npm ci` refuses a lockfile out of step with package.json); patches/: fixes to
# dependencies applied after the install (postinstall: patch-package, failing when one does not apply).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund

# ---- build: remix build -> build/ and public/build/ ------------------------------------------
FROM deps AS build
COPY . .
RUN npm run build

# ---- prod-deps: runtime dependencies only (tsx is a regular dependency) ----------------------
FROM base AS prod-deps
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ---------------------------------------------------------------------------------
FROM base AS runtime
ENV NODE_ENV=production \
    PORT=3000

# Files stay owned by root (read-only for the app); the process runs as the image's `node` user.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json remix.config.js server.ts ./
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY app ./app
COPY db ./db
COPY workers ./workers
# Operational scripts (e.g. a standings rebuild) may live here; small, and harmless to ship.
COPY scripts ./scripts

USER node
EXPOSE 3000

# No curl in the slim image: use Node's fetch. Overridden (disabled) for the worker in compose.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The web process itself, not `npm start`: npm runs a script through sh, which does not pass SIGTERM on, so
# `docker stop` would never reach server.ts's graceful shutdown (docs/operations.md, "Rolling restart"). Its
# flags are a web process's (scripts/lib/web-node-flags.ts).
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "server.ts"]
