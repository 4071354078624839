#!/usr/bin/env bash
# Starts a throw-away PostgreSQL server on 127.0.0.1:$PGPORT for the tests, owned by the
# `postgres` system user, with its data in a temporary directory. Prints the URL to use.
# Usage: source .ci/postgres.sh   (sets ARBITER_TEST_POSTGRES and PG_STOP)
set -euo pipefail
PGPORT=${PGPORT:-55432}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PGDATA=$(mktemp -d /tmp/arbiter-pg.XXXXXX)
chown postgres:postgres "$PGDATA"
runuser -u postgres -- "$PGBIN/initdb" -D "$PGDATA" -A trust -U postgres >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -o "-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=on -c max_wal_size=64MB -c min_wal_size=32MB" -l "$PGDATA/log" -w start >/dev/null
export ARBITER_TEST_POSTGRES="postgres://postgres@127.0.0.1:$PGPORT/postgres"
export PG_STOP="runuser -u postgres -- $PGBIN/pg_ctl -D $PGDATA -m fast stop >/dev/null 2>&1; rm -rf $PGDATA"
