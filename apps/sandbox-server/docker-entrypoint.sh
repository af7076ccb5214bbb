#!/bin/sh
# The image's entrypoint. Without a command, or with one that starts with a flag or is `migrate`,
# it runs the sandbox's own command line: `docker run IMAGE`, `docker run IMAGE --help`,
# `docker run IMAGE --seed demo`, `docker run IMAGE migrate`. Any other command runs as given
# (`docker run IMAGE node dist/main.js migrate`, `docker run -it IMAGE sh`). `exec` leaves the
# sandbox as the container's first process, so `docker stop`'s SIGTERM reaches it directly.
set -e
case "${1:-}" in
  '' | -* | migrate) exec node --max-semi-space-size=64 /app/dist/main.js "$@" ;;
esac
exec "$@"
