#!/bin/sh
# `sh deploy/base-image.sh`: a base image for `npm run image` made without a container registry: Debian trixie
# (whose own nodejs is Node 20) put in a folder by debootstrap and imported into podman (or docker), tagged
# ${BASE_IMAGE:-localhost/debian-node:trixie}. Needs root and debootstrap; DEBIAN_MIRROR names a mirror.
# Then: npm run image -- --build-arg BASE=localhost/debian-node:trixie
set -eu
tag=${BASE_IMAGE:-localhost/debian-node:trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
rootfs=$(mktemp -d "${TMPDIR:-/tmp}/vtqs-rootfs-XXXXXX")
trap 'rm -rf "$rootfs"' EXIT
debootstrap --variant=minbase --include=nodejs,ca-certificates trixie "$rootfs" "$mirror" > /dev/null
if command -v podman > /dev/null; then
  tar -C "$rootfs" -c . | podman import - "$tag"
else
  tar -C "$rootfs" -c . | docker import - "$tag"
fi
