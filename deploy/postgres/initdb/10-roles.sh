#!/bin/sh
# Runs once, when the postgres image initialises an empty data volume (/docker-entrypoint-initdb.d; docs/operacion.md,
# "Privilegios mínimos"): the portal's database owned by an owner role, which runs the migrations, and an application
# role for the replicas, which gets data rights only (dist/cli/migrate.js grants them after each migration, with
# DATABASE_APP_ROLE). The superuser (POSTGRES_USER) stays for the operator alone. Also runs natively:
#   POSTGRES_USER=postgres PGHOST=127.0.0.1 POSTGRES_OWNER_PASSWORD=… POSTGRES_APP_PASSWORD=… sh deploy/postgres/initdb/10-roles.sh
set -eu
: "${POSTGRES_OWNER_PASSWORD:?defina POSTGRES_OWNER_PASSWORD}"
: "${POSTGRES_APP_PASSWORD:?defina POSTGRES_APP_PASSWORD}"
PORTAL_DB="${PORTAL_DB:-portal_pacientes}"
PORTAL_DB_OWNER="${PORTAL_DB_OWNER:-portal_owner}"
PORTAL_DB_APP="${PORTAL_DB_APP:-portal_app}"

psql -X -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  -v db="$PORTAL_DB" -v owner="$PORTAL_DB_OWNER" -v app="$PORTAL_DB_APP" \
  -v owner_password="$POSTGRES_OWNER_PASSWORD" -v app_password="$POSTGRES_APP_PASSWORD" <<'SQL'
CREATE ROLE :"owner" LOGIN PASSWORD :'owner_password';
CREATE ROLE :"app" LOGIN PASSWORD :'app_password';
CREATE DATABASE :"db" OWNER :"owner";
-- Only these two roles (and the superuser) connect; nobody else creates temporary tables there.
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"db" TO :"app";
SQL
echo "Roles ${PORTAL_DB_OWNER} (dueño, migraciones) y ${PORTAL_DB_APP} (réplicas) creados; base ${PORTAL_DB}."
