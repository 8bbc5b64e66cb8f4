#!/bin/sh
# Backups of the portal's PostgreSQL database with the PostgreSQL client of the server's own image (the compose
# "backup" service runs on the same postgres image as "db", so pg_dump always matches the server's major version), or
# natively with the machine's client. docs/operacion.md, "Copias de seguridad". tests/api/backup-drill.test.ts runs it natively.
#
#   portal-backup.sh backup [<file>]          one copy now (pg_dump --format=custom), by default into $BACKUP_DIR
#   portal-backup.sh restore <file> [--yes]   into $PGDATABASE: all or nothing (--single-transaction); a database
#                                             that already has tables only with --yes (stop the replicas first)
#   portal-backup.sh prune                    deletes copies older than $BACKUP_KEEP_DAYS days (always keeps the newest)
#   portal-backup.sh check                    exit 0 when the newest copy is younger than 26 hours (the health check)
#   portal-backup.sh daily                    runs forever: a copy at start when none is younger than a day, then one
#                                             every day at $BACKUP_AT (local time, TZ), each followed by prune
#
# Connection: the standard libpq variables (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE).
set -eu

BACKUP_DIR="${BACKUP_DIR:-/backups}"
BACKUP_KEEP_DAYS="${BACKUP_KEEP_DAYS:-14}"
BACKUP_AT="${BACKUP_AT:-03:30}"
: "${PGDATABASE:?defina PGDATABASE (la base del portal)}"

say() { printf '%s %s\n' "$(date '+%Y-%m-%d %H:%M:%S %Z')" "$*"; }
fail() {
  say "$*" >&2
  exit 1
}

case "$BACKUP_KEEP_DAYS" in '' | *[!0-9]*) fail "BACKUP_KEEP_DAYS debe ser un número de días" ;; esac
case "$BACKUP_AT" in [0-2][0-9]:[0-5][0-9]) ;; *) fail "BACKUP_AT debe ser una hora HH:MM" ;; esac

newest() { ls -1t "$BACKUP_DIR"/*.dump 2>/dev/null | head -n 1; }

backup() {
  mkdir -p "$BACKUP_DIR"
  file="${1:-$BACKUP_DIR/$PGDATABASE-$(date '+%Y%m%d-%H%M%S').dump}"
  # Written beside its final name and renamed when complete: a copy cut short never looks like a good one.
  pg_dump --format=custom --no-owner --file="$file.partial" && mv "$file.partial" "$file" || {
    rm -f "$file.partial"
    fail "La copia de $PGDATABASE falló."
  }
  say "Copia de $PGDATABASE: $file ($(wc -c <"$file") bytes)."
}

restore() {
  file="${1:?Uso: portal-backup.sh restore <archivo> [--yes]}"
  [ -r "$file" ] || fail "No se puede leer $file."
  pg_restore --list "$file" >/dev/null || fail "$file no es una copia de pg_dump (formato custom)."
  tables="$(psql -X -At -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")"
  if [ "$tables" != "0" ] && [ "${2:-}" != "--yes" ]; then
    fail "$PGDATABASE ya tiene $tables tablas: se reemplazan solo con --yes (detenga antes las réplicas del portal)."
  fi
  # Triggers come back after the data (pg_restore's post-data section): the audit trail's append-only trigger and
  # the counters triggers keep do not run on the restored rows.
  pg_restore --clean --if-exists --no-owner --single-transaction --exit-on-error --dbname="$PGDATABASE" "$file" ||
    fail "La restauración falló; $PGDATABASE quedó como estaba (una sola transacción)."
  say "Restaurada $file en $PGDATABASE."
}

prune() {
  keep="$(newest)"
  find "$BACKUP_DIR" -maxdepth 1 -name '*.dump' -type f -mtime "+$BACKUP_KEEP_DAYS" | while read -r old; do
    [ "$old" = "$keep" ] && continue
    rm -f "$old"
    say "Borrada por antigua (más de $BACKUP_KEEP_DAYS días): $old"
  done
}

check() {
  keep="$(newest)"
  [ -n "$keep" ] || fail "No hay copias en $BACKUP_DIR."
  [ -n "$(find "$keep" -mmin -1560)" ] || fail "La copia más nueva tiene más de 26 horas: $keep"
}

seconds_until() {
  now="$(date +%s)"
  next="$(date -d "$1" +%s)"
  [ "$next" -gt "$now" ] || next="$(date -d "tomorrow $1" +%s)"
  echo $((next - now))
}

daily() {
  say "Copias diarias de $PGDATABASE a las $BACKUP_AT en $BACKUP_DIR, guardadas $BACKUP_KEEP_DAYS días."
  # Each in a subshell: a failed copy is logged and retried the next night, it does not end the schedule; the health
  # check (check) turns unhealthy once the newest copy is older than 26 hours.
  if [ -z "$(find "$BACKUP_DIR" -maxdepth 1 -name '*.dump' -mmin -1440 2>/dev/null)" ]; then (backup && prune) || true; fi
  while :; do
    sleep "$(seconds_until "$BACKUP_AT")"
    (backup && prune) || true
  done
}

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
  backup) backup "$@" ;;
  restore) restore "$@" ;;
  prune) prune ;;
  check) check ;;
  daily) daily ;;
  *) fail "Uso: portal-backup.sh backup [<archivo>] | restore <archivo> [--yes] | prune | check | daily" ;;
esac
