#!/bin/sh
# Builds local stand-ins for the base images fabscope's Dockerfile and docker-compose.yml name, for a
# machine that reaches Debian's archive but no image registry (the compose test's CI): one minimal
# trixie debootstrapped once, then Debian's nodejs, prometheus and prometheus-alertmanager on it.
# Usage (as root, dockerd running): build-standins.sh NODE_IMAGE PROMETHEUS_IMAGE ALERTMANAGER_IMAGE
# Each stand-in carries the hash of this directory's files as a label and is rebuilt only when they
# change; a name that already holds an image without that label (the official one, pulled) is left
# as it is.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 NODE_IMAGE PROMETHEUS_IMAGE ALERTMANAGER_IMAGE" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
docker=${DOCKER:-docker}
suite=trixie
# The npm the official node:20 images ship.
npm_version=10.8.2
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
label=org.fabscope.standin
# The base's inputs: what debootstrap is asked for (bump the last word when the steps below change).
hash=$(echo "$suite $mirror minbase 1" | sha256sum | cut -c1-16)
base=fabscope-standin-base:$hash
root=''

if ! $docker image inspect "$base" >/dev/null 2>&1; then
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  started=$(date +%s)
  debootstrap --variant=minbase "$suite" "$root/rootfs" "$mirror" >"$root/debootstrap.log" 2>&1 \
    || { tail -n 30 "$root/debootstrap.log" >&2; exit 1; }
  rm -rf "$root/rootfs/var/cache/apt/archives/"*.deb "$root/rootfs/var/lib/apt/lists/"*
  # apt in a build container: no recommends, no interactive questions.
  printf 'APT::Install-Recommends "false";\n' >"$root/rootfs/etc/apt/apt.conf.d/90fabscope-standin"
  tar -C "$root/rootfs" -c . | $docker import \
    --change 'ENV DEBIAN_FRONTEND=noninteractive' --change 'CMD ["/bin/bash"]' - "$base" >/dev/null
  rm -rf "$root"
  echo "stand-ins: debootstrapped $suite into $base in $(( $(date +%s) - started )) s"
  # Bases of earlier inputs are not used again: keep one on disk.
  $docker image ls --format '{{.Repository}}:{{.Tag}}' fabscope-standin-base | grep -vx "$base" \
    | xargs -r $docker image rm >/dev/null 2>&1 || true
fi

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
(cd "$context" && npm pack --silent "npm@$npm_version" >/dev/null && mv npm-*.tgz npm.tgz)

for pair in "node=$1" "prometheus=$2" "alertmanager=$3"; do
  role=${pair%%=*}
  name=${pair#*=}
  # The base's hash and the role's Dockerfile: a change to one stand-in rebuilds that one only.
  role_hash=$( (echo "$hash $npm_version"; cat "$here/$role.Dockerfile") | sha256sum | cut -c1-16)
  current=$($docker image inspect --format "{{ index .Config.Labels \"$label\" }}" "$name" 2>/dev/null || echo none)
  [ "$current" = "$role_hash" ] && continue
  if [ "$current" != none ] && [ -z "$current" -o "$current" = "<no value>" ]; then
    echo "stand-ins: $name is already there and is not a stand-in: using it"
    continue
  fi
  started=$(date +%s)
  DOCKER_BUILDKIT=1 $docker build --quiet --network host --label "$label=$role_hash" --build-arg "BASE=$base" \
    -f "$here/$role.Dockerfile" -t "$name" "$context" >/dev/null
  echo "stand-ins: built $name in $(( $(date +%s) - started )) s"
done
