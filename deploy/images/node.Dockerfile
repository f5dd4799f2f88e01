# Stand-in for the official node:20-bookworm-slim, for machines that reach Debian's archive but no
# image registry: Debian's nodejs (20.19 in trixie), npm from its registry tarball where the official
# image has it (Debian's npm package brings ~300 MB of dependencies), the `node` user (uid 1000), and
# no system CA store, as in the official slim image: the build stage gets the host's bundle as a secret.
ARG BASE
FROM ${BASE}
RUN --mount=type=bind,target=/context \
  apt-get update \
  && apt-get install -y --no-install-recommends nodejs \
  && apt-get clean \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /usr/share/doc /usr/share/man \
  && mkdir -p /usr/local/lib/node_modules/npm \
  && tar -xzf /context/npm.tgz --strip-components=1 -C /usr/local/lib/node_modules/npm \
  && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && groupadd --gid 1000 node \
  && useradd --uid 1000 --gid node --shell /bin/sh --create-home node
CMD ["node"]
