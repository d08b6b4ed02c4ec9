# syntax=docker/dockerfile:1
# The portal's container image (docs/decisions/066-several-instances-and-deployment.md): built in one
# stage, run from another that holds only the built server, its production dependencies and the
# server scripts, as an unprivileged user. The build steps are the ones CI runs before its tests
# (npm install, astro build), and the command is the one the tests start instances with
# (scripts/start.mjs --no-build: tests/fixtures/instances.ts).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4321 \
    DATA_DIR=/var/lib/portal
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/scripts ./scripts
# The code belongs to root and is read-only to the server; only DATA_DIR (temporary files of uploads
# and reports, and the files themselves when STORAGE_DRIVER=local) is the server's to write.
RUN mkdir -p /var/lib/portal && chown node:node /var/lib/portal
USER node
EXPOSE 4321
VOLUME ["/var/lib/portal"]
# Alive = the process answers; the load balancer reads /readyz (database, storage, not stopping).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4321)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM stops it gracefully (decision 022): no shell in between to swallow the signal.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "scripts/start.mjs", "--no-build"]
