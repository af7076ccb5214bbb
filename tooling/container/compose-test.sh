#!/usr/bin/env bash
# Brings up apps/sandbox-server/docker-compose.yml (PostgreSQL, migrate, two replicas, nginx) on the
# images named by the environment, waits for it, runs compose-burst.mjs (a payment burst through
# the balancer with one replica SIGKILLed in the middle), and takes everything down again,
# volumes included. Ports are free ones picked here, so it never clashes with a sandbox on 4010.
#   SWITCHYARD_SANDBOX_IMAGE   the sandbox image, already built (compose runs with --no-build)
#   SWITCHYARD_POSTGRES_IMAGE, SWITCHYARD_NGINX_IMAGE   default: the official images
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${SWITCHYARD_SANDBOX_IMAGE:?name the sandbox image to run}"
export SWITCHYARD_SANDBOX_IMAGE

SWITCHYARD_PORT="$(free_port)"
SWITCHYARD_REPLICA_A_PORT="$(free_port)"
SWITCHYARD_REPLICA_B_PORT="$(free_port)"
export SWITCHYARD_PORT SWITCHYARD_REPLICA_A_PORT SWITCHYARD_REPLICA_B_PORT

project="switchyard-compose-test-$$"
compose=(docker-compose --project-name "$project" --file apps/sandbox-server/docker-compose.yml)
down() {
  status=$?
  if [ "$status" != 0 ]; then
    echo "compose-test: failed (exit $status); the end of each service's log:" >&2
    "${compose[@]}" logs --no-color --tail 30 >&2 || true
  fi
  "${compose[@]}" down --volumes --remove-orphans >/dev/null 2>&1 || true
  exit "$status"
}
trap down EXIT

start=$(date +%s%N)
"${compose[@]}" up --detach --no-build >/dev/null 2>&1 || "${compose[@]}" up --detach --no-build
container_of() { "${compose[@]}" ps --quiet "$1"; }
a="$(container_of sandbox-a)"
b="$(container_of sandbox-b)"
wait_healthy "$a" 120
wait_healthy "$b" 120
[ "$(docker inspect --format '{{.State.ExitCode}}' "$(container_of migrate)")" = 0 ] || { echo "compose-test: migrate did not exit 0" >&2; exit 1; }
for _ in $(seq 1 150); do curl -fsS "http://127.0.0.1:$SWITCHYARD_PORT/health" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fsS "http://127.0.0.1:$SWITCHYARD_PORT/health" >/dev/null
echo "compose-test: postgres, migrate, two healthy replicas and the balancer up in $(ms_since "$start") ms"

network="$(docker inspect --format '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}}{{end}}' "$a")"
gateway="$(docker network inspect --format '{{(index .IPAM.Config 0).Gateway}}' "$network")"
BALANCER_URL="http://127.0.0.1:$SWITCHYARD_PORT" SURVIVOR_URL="http://127.0.0.1:$SWITCHYARD_REPLICA_B_PORT" \
  KILL_CONTAINER="$a" RECEIVER_HOST="$gateway" node "$here/compose-burst.mjs"
