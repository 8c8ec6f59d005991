# syntax=docker/dockerfile:1
# Loupe as a container: dependencies installed at build time (no registry needed to start), node run
# as a non-root user under tini (PID 1 forwards SIGTERM to node and reaps children such as git), a
# healthcheck on /readyz. Data lives in the /data volume.
#
#   docker build -t loupe .
#   docker run --rm -p 8080:8080 -v loupe-data:/data -e LOUPE_API_KEY=<long random key> loupe

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; install scripts only for the packages package.json allows.
RUN npm ci --omit=dev --strict-allow-scripts --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
# git: mirrors and diffs; tini: PID 1; ca-certificates: https clones and host APIs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY bin ./bin
COPY src ./src
COPY projections ./projections
COPY schema ./schema
COPY scripts/replay.ts scripts/audit.ts scripts/rebuild-code-index.ts scripts/cli-support.ts ./scripts/
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production \
    PORT=8080 \
    LOUPE_HOST=0.0.0.0 \
    LOUPE_DATA_DIR=/data \
    LOUPE_LOG_FORMAT=json
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "src/main.ts"]
