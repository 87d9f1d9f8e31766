# syntax=docker/dockerfile:1
# Lockit: the API and the built web app in one image. Written against docs/configuration.md;
# see docs/operations.md "Packaging" for how it was checked (no Docker engine on the machine it
# was written on: this file has not been built there).

ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: every workspace's dependencies, then the web app (Vite) -----------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Compilers only for the case where argon2 or better-sqlite3 has no prebuilt binary for the
# platform; they stay in this stage.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# npm ci checks the lock file against every workspace's package.json, so all are copied.
COPY package.json package-lock.json ./
COPY packages/crypto/package.json packages/crypto/
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY packages/test-support/package.json packages/test-support/
COPY packages/transfer/package.json packages/transfer/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
# No build settings: the credit and social links are the server's run-time settings
# (LOCKIT_AUTHOR_NAME & co), so the web app's scripts are the release's (decision 0082).
RUN npm run build

# --- prod-deps: only what the server needs at run time -------------------------------------
# The server runs its TypeScript through tsx, which is one of its own dependencies, so
# dropping dev dependencies keeps it runnable; the benches' and e2e's packages are left out.
FROM build AS prod-deps
RUN rm -rf node_modules packages/*/node_modules \
 && npm ci --omit=dev --workspace=@lockit/server --no-audit --no-fund

# --- runtime -------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# postgresql-client: pg_dump/pg_restore/psql for `npm run backup` and `npm run restore` on
# PostgreSQL (Debian bookworm ships 15; it must not be older than the server's major version).
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system lockit \
 && useradd --system --gid lockit --home-dir /app --shell /usr/sbin/nologin lockit \
 && mkdir -p /data \
 && chown lockit:lockit /data \
 && chmod 0700 /data
WORKDIR /app
COPY --from=prod-deps /app/package.json /app/package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/packages/crypto ./packages/crypto
COPY --from=prod-deps /app/packages/contract ./packages/contract
COPY --from=prod-deps /app/packages/server ./packages/server
COPY --from=build /app/packages/web/dist ./packages/web/dist

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    LOG_FORMAT=json
USER lockit
VOLUME ["/data"]
EXPOSE 3000
# /healthz answers while the process is up (no database call); /readyz also checks the
# database and Redis, for a load balancer's readiness probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: finish requests in flight (10 s grace), close the database; give `docker stop -t 20`.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "packages/server/src/main.ts"]
