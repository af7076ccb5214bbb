#!/usr/bin/env bash
# Makes sure a Docker engine answers: installs Debian's docker.io, docker-compose and debootstrap
# when they are missing, and starts dockerd when nothing answers on its socket. CI machines start
# with nothing running, so the engine is started here (as root) rather than assumed.
set -euo pipefail

as_root=""
[ "$(id -u)" = 0 ] || as_root="sudo"

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "engine: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $as_root apt-get update -q >/dev/null
  $as_root apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  log="${SWITCHYARD_DOCKERD_LOG:-/var/log/switchyard-dockerd.log}"
  echo "engine: starting dockerd (log: $log)"
  # setsid: the daemon outlives this script and is not in its process group, so stopping a CI
  # step does not take the engine (and every container) down with it mid-way.
  $as_root setsid dockerd >>"$log" 2>&1 </dev/null &
  for _ in $(seq 1 120); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  docker info >/dev/null 2>&1 || { echo "engine: dockerd did not answer within 60 s; the end of $log:" >&2; tail -20 "$log" >&2; exit 1; }
fi
docker info --format 'engine: Docker {{.ServerVersion}}, storage {{.Driver}}, cgroup v{{.CgroupVersion}}'
