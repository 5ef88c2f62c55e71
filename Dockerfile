# The service's image: the server, the offline build and the update job, without data (a volume at /data, or
# DATA_URL to pull published bundles). `npm run image` builds it; ARG BASE names the base image, which must
# bring Node 20 (a Node image, or Debian with its own nodejs package, as the tests make one).
ARG BASE=docker.io/library/node:20-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
# A base with Node but without npm (Debian's nodejs alone) gets Debian's npm here, in this stage only.
RUN command -v npm > /dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm > /dev/null)
COPY package.json package-lock.json ./
# No dependency's install script runs (as with npm 11 on a developer's machine).
# The secret npm-ca, when given (deploy/image.sh), is the CA bundle of a TLS proxy in front of the registry.
RUN --mount=type=secret,id=npm-ca \
  if [ -s /run/secrets/npm-ca ]; then export npm_config_cafile=/run/secrets/npm-ca; fi; \
  npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src src
COPY build build
RUN npm run compile && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM ${BASE}
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0 PORT=8000 MALLOC_ARENA_MAX=2
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist/src dist/src
COPY --from=build /app/dist/build dist/build
# Read at run time: the build's SQL and, for its cache keys, its sources; the read models; the contract; the
# pages; the manifest and the tables the answers cite.
COPY build build
COPY projections projections
COPY src/contract src/contract
COPY src/web src/web
COPY data/releases.json data/citations.json data/dictionary.yaml data/
# Any non-root user: nothing in the image is written at run time (bulk downloads are derived into /tmp).
USER 10001:10001
EXPOSE 8000
# Liveness: the process answers. Readiness (a verified build loaded) is GET /ready, for the load balancer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The flags of `npm start` (package.json; test/image.test.ts holds the two equal).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=16", "--heap-growing-percent=100", "--expose-gc", "dist/src/server.js"]
