#!/bin/sh
# First start: a cluster whose superuser is POSTGRES_USER with POSTGRES_PASSWORD, password
# (SCRAM) authentication from the network, and the database POSTGRES_DB. Then PostgreSQL itself.
set -eu
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?the stand-in postgres image needs POSTGRES_PASSWORD}"
  pwfile="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --pgdata="$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    pg_ctl --pgdata="$PGDATA" --options="-c listen_addresses=''" --wait --silent start
    createdb --username="$user" "$db"
    pg_ctl --pgdata="$PGDATA" --mode=fast --wait --silent stop
  fi
  echo "postgres stand-in: initialised $PGDATA (user $user, database $db)"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
