# Helpers shared by ci.sh and compose-test.sh (sourced, not run).

# A TCP port free on 127.0.0.1 right now, for a container or a compose service to publish.
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }

# Milliseconds since a `date +%s%N` reading.
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# Waits until a container's HEALTHCHECK reports healthy: returns 1, saying so, when it does not
# within the given seconds or when the container stops first.
wait_healthy() { # container seconds
  local deadline=$(( $(date +%s) + $2 ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    case "$(docker inspect --format '{{.State.Health.Status}} {{.State.Running}}' "$1")" in
      "healthy true") return 0 ;;
      *" false") echo "container $1 stopped before it was healthy; its log ends:" >&2; docker logs --tail 20 "$1" >&2; return 1 ;;
    esac
    sleep 0.1
  done
  echo "container $1 was not healthy within $2 s" >&2
  return 1
}
