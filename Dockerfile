# fabscope: one image for every role (emulator, collector, API + dashboard); the command picks it.
# The base is a build argument: the official image by default, a mirror's or a local stand-in's name
# elsewhere (deploy/images/build-standins.sh). Needs BuildKit (DOCKER_BUILDKIT=1 with docker-compose 1.x).
ARG NODE_IMAGE=node:20-bookworm-slim

# The workspaces' manifests, whatever the workspace list says: the dependency layer below is
# rebuilt when one changes, not on every source edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete \
  && find . -depth -mindepth 1 -type d -empty -delete

# All dependencies, the web bundle and the CLI's compiled bundle, then the development ones dropped.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /app ./
# The host's CA bundle, for a network that needs it (a TLS-inspecting proxy, a base without a CA
# store): a build secret, mounted for this step only and never in a layer. `npm ls` because npm 10
# can exit 0 after a failed fetch ("Exit handler never called!") and leave node_modules empty.
RUN --mount=type=secret,id=host_ca \
  if [ -s /run/secrets/host_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/host_ca; fi \
  && npm ci --no-audit --no-fund \
  && npm ls --all >/dev/null
COPY . .
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf apps/web/src apps/web/public /root/.npm /tmp/*

# The site image (docker-compose.infiniband.yml): the same tree, with the InfiniBand tools and
# libibumad that `FABSCOPE_FABRIC=infiniband fabscope serve` reads the subnet through.
FROM ${NODE_IMAGE} AS infiniband
RUN apt-get update \
  && apt-get install -y --no-install-recommends infiniband-diags libibumad3 \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /var/lib/fabscope \
  && chown node:node /var/lib/fabscope
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app ./
USER node
ENTRYPOINT ["node", "/app/apps/cli/bin/fabscope.js"]
CMD ["serve"]

# The built tree as it is (same base, so the compiled bundle's manifest still matches), run as node.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app ./
USER node
EXPOSE 8080
HEALTHCHECK --interval=5s --timeout=10s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "apps/cli/bin/fabscope.js"]
CMD ["serve"]
