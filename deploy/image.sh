#!/bin/sh
# `npm run image [-- <build options>]`: builds the service's image (Dockerfile) with podman or docker,
# whichever is installed, tagged ${IMAGE:-vtqs:latest}. Options after `--` go to the build, e.g.
# `--build-arg BASE=localhost/debian-node:trixie` for a base made locally.
# Podman reads the project's containers.conf (deploy/containers.conf) unless CONTAINERS_CONF names another;
# it builds in Docker's format, whose HEALTHCHECK the OCI format has no field for.
# A machine that reaches the npm registry through a TLS proxy trusts the proxy's CA in a file named by
# NODE_EXTRA_CA_CERTS: that file is handed to the build's npm as a build secret (never kept in the image).
set -eu
cd "$(dirname "$0")/.."
tag=${IMAGE:-vtqs:latest}
secret=""
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -s "$NODE_EXTRA_CA_CERTS" ]; then
  secret="--secret id=npm-ca,src=$NODE_EXTRA_CA_CERTS"
fi
if command -v podman > /dev/null; then
  export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/deploy/containers.conf}"
  # shellcheck disable=SC2086
  exec podman build --format docker --network host $secret -t "$tag" "$@" .
elif command -v docker > /dev/null; then
  # shellcheck disable=SC2086
  exec docker build --network host $secret -t "$tag" "$@" .
else
  echo "npm run image: neither podman nor docker is installed" >&2
  exit 1
fi
