#!/bin/sh
# The role Lockit runs as in compose.yaml: it owns the `lockit` database (so its `public`
# schema and tables) and nothing else: no superuser, no CREATEDB, no CREATEROLE. A superuser
# can run any program on the database host (COPY … PROGRAM, untrusted languages), so neither
# the server nor `npm run restore` is given one; the bootstrap superuser (POSTGRES_USER) is
# for the operator's own maintenance only.
#
# PostgreSQL's image runs this once, when the database volume is first made
# (docker-entrypoint-initdb.d). For a volume made before, run it once by hand (see
# docs/operations.md, "Compose"): it is idempotent and hands the existing tables to the role.
set -eu
: "${LOCKIT_APP_DB_PASSWORD:?set LOCKIT_APP_DB_PASSWORD (the app role's password) in .env}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v app_password="$LOCKIT_APP_DB_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE lockit_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD %L', :'app_password')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lockit_app') \gexec
ALTER ROLE lockit_app NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
SELECT format('ALTER ROLE lockit_app PASSWORD %L', :'app_password') \gexec
SELECT format('ALTER DATABASE %I OWNER TO lockit_app', current_database()) \gexec
ALTER SCHEMA public OWNER TO lockit_app;
SELECT format('ALTER TABLE public.%I OWNER TO lockit_app', tablename) FROM pg_tables WHERE schemaname = 'public' \gexec
SQL
