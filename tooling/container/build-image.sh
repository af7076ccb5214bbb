#!/usr/bin/env bash
# Builds the sandbox's image from the repository root, once, with its OCI labels: the version of
# @switchyard/sandbox-server and the git revision. Prints the build context's size.
#   tooling/container/build-image.sh [TAG]                     official base images (a registry is needed)
#   SWITCHYARD_NODE_IMAGE=switchyard-standin/node:24-slim tooling/container/build-image.sh [TAG]
#                                                              the stand-ins of base-images.sh
# SWITCHYARD_BUILD_CA (default: NODE_EXTRA_CA_CERTS, when set) names a PEM bundle the build stage
# trusts for its registry downloads; it is copied into the build context for this build only.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
tag="${1:-switchyard-sandbox}"
node_image="${SWITCHYARD_NODE_IMAGE:-node:24-slim}"
version="$(node -p 'require("./apps/sandbox-server/package.json").version')"
revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
# An edited working tree is not the revision it names.
if [ "$revision" != unknown ] && [ -n "$(git status --porcelain 2>/dev/null)" ]; then revision="$revision-dirty"; fi

ca="${SWITCHYARD_BUILD_CA-${NODE_EXTRA_CA_CERTS:-}}"
ca_copy="tooling/container/build-ca/ca-certificates.crt"
if [ -n "$ca" ]; then
  cp "$ca" "$ca_copy"
  trap 'rm -f "$root/$ca_copy"' EXIT
fi

export DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}"
log="$(mktemp)"
start=$(date +%s)
status=0
docker build --file apps/sandbox-server/Dockerfile \
  --build-arg "NODE_IMAGE=$node_image" --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
  --tag "$tag" . >"$log" 2>&1 || status=$?
if [ "$status" != 0 ]; then
  tail -40 "$log" >&2
  echo "build-image: docker build failed (exit $status)" >&2
  exit "$status"
fi
# The classic builder says "Sending build context to Docker daemon  48.1MB" (all of it, every
# build); BuildKit "transferring context: 48.1MB" per transfer (only what changed since its last
# build): the largest is reported.
context="$(grep -Eo '(Sending build context to Docker daemon|transferring context:) +[0-9.]+ ?[kMG]?B' "$log" \
  | grep -Eo '[0-9.]+ ?[kMG]?B$' | tr -d ' ' \
  | awk '{ n = $0 + 0; u = $0; gsub(/[0-9.]/, "", u); f = (u == "kB" ? 1e3 : u == "MB" ? 1e6 : u == "GB" ? 1e9 : 1); if (n * f > max) { max = n * f; best = $0 } } END { print (best == "" ? "?" : best) }')"
rm -f "$log"
echo "build-image: $tag (version $version, revision $revision, base $node_image) built in $(($(date +%s) - start)) s; build context $context"
