# syntax=docker/dockerfile:1
# Portal Pacientes. Targets: `portal` (the last stage, so the default) and `mocks` (the simulated providers and the mail
# catcher, for trial runs). Both run compiled JavaScript with production dependencies only, as the non-root user node.
#   docker build -t portal-pacientes .            docker build --target mocks -t portal-pacientes-mocks .
# docs/operacion.md, "Imagen y Docker Compose". tests/api/image-and-compose.test.ts checks the rules this file must keep.
# Node.js 24 LTS, pinned to a minor release (Node 20 reached its end of life in April 2026). Raise it on purpose, after
# the unit and API suites pass on the new release (.ci/run runs them on Node 24 as well).
ARG NODE_IMAGE=node:24.21-bookworm-slim

# --- build: every dependency, the Prisma client (postinstall), the web app (dist/web) and the server bundles ---------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -- --logLevel warn && npm run build:server

# --- prod-deps: production dependencies only. --ignore-scripts: the postinstall would generate the Prisma client with
# the prisma CLI, a dev dependency; the generated client is compiled into the bundles already. npm still installs the
# Prisma CLI and TypeScript (optional peers) and the web app's packages (bundled into dist/web): prune-runtime.mjs keeps
# only what the bundles load (dist/runtime-packages.json, from build:server): 448 MB → about 116 MB.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY scripts/prune-runtime.mjs ./scripts/
COPY --from=build /app/dist/runtime-packages.json ./dist/
RUN node scripts/prune-runtime.mjs .

# --- runtime: what both targets share. Files stay owned by root, read-only for the user that runs them.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# Log lines and the operator's commands in Chile's time (the portal's own dates use server/lib/chile-time.ts anyway).
ENV TZ=America/Santiago
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./

# --- mocks: Webpay, FHIR laboratory, DICOMweb imaging, scheduling and the mail catcher (HTTP 4300, SMTP 2525) -------
FROM runtime AS mocks
COPY --from=build /app/dist/mocks ./dist/mocks
ENV MOCKS_HOST=0.0.0.0 MOCKS_HTTP_PORT=4300 MOCKS_SMTP_PORT=2525
EXPOSE 4300 2525
USER node
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.MOCKS_HTTP_PORT}/mail`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/mocks/start.js"]

# --- portal: the server, its commands (dist/cli: migrate, seed, user-create), the migrations and the built web app --
FROM runtime AS portal
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/cli ./dist/cli
COPY --from=build /app/dist/web ./dist/web
# ./var is the only writable folder (the embedded database when no DATABASE_URL is given).
RUN mkdir -p var && chown node:node var
# MALLOC_ARENA_MAX, MALLOC_TRIM_THRESHOLD_ and the node options of the CMD: scripts/portal-process.mjs (tests/api/image-and-compose.test.ts).
ENV HOST=0.0.0.0 PORT=4200 WEB_DIST_DIR=./dist/web MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072
EXPOSE 4200
USER node
# Liveness only (/healthz never touches the database); the proxy routes by /readyz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "--no-memory-reducer", "--max-semi-space-size=16", "--heap-growing-percent=10", "--no-flush-bytecode", "dist/server/main.js"]
