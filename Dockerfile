# syntax=docker/dockerfile:1
# One recipe for all six service images. The whole workspace is built once (the build stage does
# not depend on SERVICE, so building the six images reuses it), then the prune stage keeps only
# the production dependencies of the service named by the SERVICE build argument.
#
#   docker build --build-arg SERVICE=api-gateway -t destiny/api-gateway .

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV PNPM_VERSION=10.34.9 \
    PNPM_STORE=/pnpm-store \
    CI=true \
    npm_config_update_notifier=false
WORKDIR /repo
# pnpm comes from the npm registry at a pinned version: corepack's signature check is unreliable.
# Fetching from the lockfile alone keeps this layer cached across source edits. Only the services
# and the packages they reference are compiled: the devstack never goes into an image.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN npx --yes pnpm@${PNPM_VERSION} fetch --store-dir=${PNPM_STORE}
COPY . .
RUN npx --yes pnpm@${PNPM_VERSION} install --offline --frozen-lockfile --store-dir=${PNPM_STORE} \
 && node node_modules/typescript/bin/tsc -b services/*

FROM build AS prune
ARG SERVICE
RUN if [ -z "${SERVICE}" ] || [ ! -f "services/${SERVICE}/package.json" ]; then \
      echo "build argument SERVICE must name a folder under services/ (got '${SERVICE}')" >&2; exit 1; \
    fi
# Reinstall production dependencies for this service and the workspace packages it uses only,
# then copy those packages without their sources. The workspace layout is kept (rather than
# `pnpm deploy`) so paths the code resolves from its own location, such as protos/ at the root
# and packages/contracts/openapi.json, resolve exactly as they do in development.
RUN rm -rf node_modules packages/*/node_modules services/*/node_modules \
 && npx --yes pnpm@${PNPM_VERSION} install --offline --frozen-lockfile --prod --store-dir=${PNPM_STORE} \
      --filter "@destiny/${SERVICE}..." \
 && mkdir -p /out \
 && cp -a package.json pnpm-workspace.yaml node_modules /out/ \
 && if [ -d protos ]; then cp -a protos /out/; fi \
 && for dir in $(npx --yes pnpm@${PNPM_VERSION} --silent --filter "@destiny/${SERVICE}..." exec pwd); do \
      rel="${dir#/repo/}" \
      && mkdir -p "/out/${rel}" && cp -a "${dir}/." "/out/${rel}/" \
      && rm -rf "/out/${rel}/src" "/out/${rel}/test" "/out/${rel}/tsconfig.json" \
      || exit 1; \
    done \
 && find /out -name '*.tsbuildinfo' -delete \
 && test -f "/out/services/${SERVICE}/dist/main.js"

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
# A 64 MB young generation: services allocate many short-lived documents per reference (bench/README.md).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=64 \
    DESTINY_SERVICE=${SERVICE} \
    HEALTH_PORT=9464 \
    GRPC_PORT=50051
LABEL org.opencontainers.image.title="destiny-${SERVICE}" \
      org.opencontainers.image.description="DESTINY Reference Enhancement Repository: ${SERVICE}"
# Files stay owned by root: the service process (user node) can read its code but not change it.
COPY --from=prune /out/ /app/
WORKDIR /app/services/${SERVICE}
USER node
EXPOSE 9464 50051 8080
# The slim image has no curl; Node 20's fetch asks the service's health port for liveness.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HEALTH_PORT || 9464) + '/livez', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# dist/main.js starts the service (dist/index.js only exports its start function for tests).
CMD ["node", "dist/main.js"]
