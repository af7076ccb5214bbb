#!/usr/bin/env bash
# The container part of CI, run once by .ci/run after the workspace is installed and built:
#   1. a Docker engine (engine.sh) and the offline stand-in base images (base-images.sh);
#   2. the sandbox image, built once (build-image.sh), and its hygiene: OCI labels, `--help`,
#      size above its base, no dev dependencies, no secrets;
#   3. the whole conformance suite against the running container on the memory store, then on
#      PostgreSQL (a stand-in postgres container): each container runs as a non-root user, turns
#      healthy, and exits 0 within 8 s of `docker stop`;
#   4. compose: PostgreSQL, migrate, two replicas and nginx, with a replica SIGKILLed mid-burst
#      (compose-test.sh).
# Prints each step's time and the total. Leaves the images (the next run reuses them) and nothing
# running. SWITCHYARD_NODE_IMAGE etc. may name official images instead of the stand-ins.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
# shellcheck source=lib.sh
. "$here/lib.sh"

image="${SWITCHYARD_SANDBOX_IMAGE:-switchyard-sandbox:ci}"
export SWITCHYARD_NODE_IMAGE="${SWITCHYARD_NODE_IMAGE:-switchyard-standin/node:24-slim}"
export SWITCHYARD_POSTGRES_IMAGE="${SWITCHYARD_POSTGRES_IMAGE:-switchyard-standin/postgres:15}"
export SWITCHYARD_NGINX_IMAGE="${SWITCHYARD_NGINX_IMAGE:-switchyard-standin/nginx:bookworm}"
MAX_SIZE_ABOVE_BASE_MB=80
HEALTHY_WITHIN_S=120
STOPS_WITHIN_S=8

started=$(date +%s)
step_started=$started
step() {
  local now
  now=$(date +%s)
  [ -z "${step_name:-}" ] || echo "container: $step_name took $((now - step_started)) s"
  step_name="$1"
  step_started=$now
  echo "== container: $1 =="
}
fail() { echo "container: FAILED: $*" >&2; exit 1; }

containers=()
cleanup() {
  [ "${#containers[@]}" = 0 ] || docker rm --force --volumes "${containers[@]}" >/dev/null 2>&1 || true
}
trap cleanup EXIT

step "engine and stand-in base images"
"$here/engine.sh"
case "$SWITCHYARD_NODE_IMAGE$SWITCHYARD_POSTGRES_IMAGE$SWITCHYARD_NGINX_IMAGE" in
  *switchyard-standin/*) "$here/base-images.sh" ;;
esac
# The conformance CLI, the client the compose test drives and the sandbox whose --help the image's
# must match (turbo replays these from its cache after .ci/run's first pass).
npx -y pnpm@10 exec turbo run build --filter=@switchyard/conformance... --filter=@switchyard/sandbox-server... --output-logs=errors-only >/dev/null

step "build the image once"
"$here/build-image.sh" "$image"

step "image hygiene"
label() { docker image inspect --format "{{ index .Config.Labels \"org.opencontainers.image.$1\" }}" "$image"; }
version="$(node -p 'require("./apps/sandbox-server/package.json").version')"
[ "$(label version)" = "$version" ] || fail "label org.opencontainers.image.version is '$(label version)', not $version"
case "$(label revision)" in "$(git rev-parse HEAD)"*) ;; *) fail "label org.opencontainers.image.revision is '$(label revision)', not $(git rev-parse HEAD)" ;; esac
echo "labels: version $(label version), revision $(label revision)"
[ "$(docker image inspect --format '{{.Config.User}}' "$image")" = node ] || fail "the image's user is not node"
# `docker run IMAGE --help` is the sandbox's own --help, flag for flag.
diff <(docker run --rm "$image" --help) <(node apps/sandbox-server/dist/main.js --help) >/dev/null \
  || fail "docker run $image --help does not print the sandbox's flags"
echo "--help: $(docker run --rm "$image" --help | grep -c '^  --') flags, the same as node dist/main.js --help"
size=$(docker image inspect --format '{{.Size}}' "$image")
base_size=$(docker image inspect --format '{{.Size}}' "$SWITCHYARD_NODE_IMAGE")
above_mb=$(( (size - base_size) / 1000000 ))
echo "size: $((size / 1000000)) MB in all, $above_mb MB above its base $SWITCHYARD_NODE_IMAGE ($((base_size / 1000000)) MB)"
[ "$above_mb" -le "$MAX_SIZE_ABOVE_BASE_MB" ] || fail "the image is $above_mb MB above its base; the goal is at most $MAX_SIZE_ABOVE_BASE_MB MB"
# Every package installed in the image, by name: each must be a production dependency of the sandbox.
installed="$(docker run --rm --entrypoint node "$image" -e '
  const { readdirSync } = require("node:fs");
  const dirs = (dir) => readdirSync(dir, { withFileTypes: true }).filter((e) => !e.name.startsWith(".") && (e.isDirectory() || e.isSymbolicLink())).map((e) => e.name);
  const names = new Set();
  const scan = (dir) => { for (const e of dirs(dir)) if (e.startsWith("@")) for (const s of dirs(`${dir}/${e}`)) names.add(`${e}/${s}`); else names.add(e); };
  scan("node_modules");
  for (const id of dirs("node_modules/.pnpm")) if (id !== "node_modules") scan(`node_modules/.pnpm/${id}/node_modules`);
  console.log([...names].join("\n"));')"
# What pnpm counts as the sandbox's production dependencies, at every depth.
production="$(npx -y pnpm@10 --filter @switchyard/sandbox-server list --prod --depth Infinity --json | node -e '
  let json = "";
  process.stdin.on("data", (d) => (json += d)).on("end", () => {
    const names = new Set();
    const walk = (deps) => { for (const [name, dep] of Object.entries(deps ?? {})) { names.add(name); walk(dep.dependencies); } };
    for (const project of JSON.parse(json)) walk(project.dependencies);
    console.log([...names].join("\n"));
  });')"
leaked="$(comm -23 <(sort -u <<<"$installed") <(sort -u <<<"$production"))"
[ -z "$leaked" ] || fail "packages in the image that are no production dependency (dev dependencies?): $(echo $leaked)"
echo "dependencies: $(wc -l <<<"$installed") packages in the image, every one a production dependency of the sandbox"
# No keys, certificates, registry credentials or env files in what the image adds, nor secrets in its environment or history.
found="$(docker run --rm --user 0 --entrypoint sh "$image" -c \
  "find /app /home/node /root /tmp -xdev \( -name '*.pem' -o -name '*.key' -o -name '*.crt' -o -name '*.p12' -o -name 'id_*' -o -name '.npmrc' -o -name '.env' -o -name '.env.*' -o -name '.git-credentials' \) -print")"
[ -z "$found" ] || fail "files that may hold secrets in the image: $(echo $found)"
docker image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image" | grep -Eiq '^[^=]*(secret|password|token|pepper|_key)[^=]*=' \
  && fail "the image's environment sets a secret"
docker history --no-trunc --format '{{.CreatedBy}}' "$image" | grep -q 'build-ca' && fail "the image's history mentions the build's CA bundle"
echo "secrets: no key, certificate, credential or env file in /app, /home/node, /root or /tmp; none in the environment"

# Runs a container of the image on the host's network (the suite's webhook receiver listens on
# the runner's 127.0.0.1, which the sandbox must reach), checks it runs as non-root and turns
# healthy, runs the whole conformance suite against it, then stops it. Extra arguments: `docker run` options.
conformance_against() {
  local name="$1" port cid t0 log status
  shift
  port="$(free_port)"
  t0=$(date +%s%N)
  cid="$(docker run --detach --network host -e SANDBOX_HOST=127.0.0.1 -e "SANDBOX_PORT=$port" "$@" "$image")"
  containers+=("$cid")
  wait_healthy "$cid" "$HEALTHY_WITHIN_S" || fail "the $name container did not turn healthy"
  echo "$name: healthy $(ms_since "$t0") ms after docker run"
  local uid
  uid="$(docker exec "$cid" id -u)"
  [ "$uid" != 0 ] || fail "the $name container runs as root"
  echo "$name: runs as uid $uid ($(docker exec "$cid" id -un))"
  log="$(mktemp)"
  t0=$(date +%s%N)
  status=0
  node apps/conformance/bin/switchyard-conformance.js --base-url "http://127.0.0.1:$port" >"$log" 2>&1 || status=$?
  if [ "$status" != 0 ]; then
    cat "$log"
    echo "the end of the $name container's log:" >&2
    docker logs --tail 40 "$cid" >&2
    fail "the conformance suite against the $name container exited $status"
  fi
  echo "$name: conformance $(grep -E '^checks: ' "$log") in $(( $(ms_since "$t0") / 1000 )) s"
  rm -f "$log"
  t0=$(date +%s%N)
  docker stop --time 30 "$cid" >/dev/null
  local stop_ms exit_code
  stop_ms=$(ms_since "$t0")
  exit_code="$(docker inspect --format '{{.State.ExitCode}}' "$cid")"
  [ "$exit_code" = 0 ] || { docker logs --tail 20 "$cid" >&2; fail "the $name container exited $exit_code on docker stop"; }
  [ "$stop_ms" -lt $((STOPS_WITHIN_S * 1000)) ] || fail "the $name container took $stop_ms ms to stop (at most $STOPS_WITHIN_S s)"
  echo "$name: docker stop → exit 0 in $stop_ms ms"
}

step "conformance against the container, memory store"
conformance_against memory

step "conformance against the container, PostgreSQL"
pg="$(docker run --detach -e POSTGRES_USER=switchyard -e POSTGRES_PASSWORD=switchyard -e POSTGRES_DB=sandbox -p 127.0.0.1::5432 "$SWITCHYARD_POSTGRES_IMAGE")"
containers+=("$pg")
# Over TCP, not the socket: on first start the image runs a temporary server on the socket alone
# to create the database, then stops it. The socket answers ready before the database exists and
# refuses while that server shuts down; only the final server listens on TCP.
for _ in $(seq 1 300); do docker exec "$pg" pg_isready -q -h 127.0.0.1 -U switchyard -d sandbox 2>/dev/null && break; sleep 0.2; done
docker exec "$pg" pg_isready -q -h 127.0.0.1 -U switchyard -d sandbox || { docker logs "$pg" >&2; fail "PostgreSQL did not start"; }
pg_port="$(docker port "$pg" 5432/tcp | head -1 | sed 's/.*://')"
conformance_against postgresql -e "DATABASE_URL=postgres://switchyard:switchyard@127.0.0.1:$pg_port/sandbox"

step "compose: two replicas behind nginx, one SIGKILLed mid-burst"
SWITCHYARD_SANDBOX_IMAGE="$image" "$here/compose-test.sh"

step "done"
echo "container: the container part took $(($(date +%s) - started)) s in all"
