#!/usr/bin/env bash
# Runs every suite: type checks, lint (ESLint, Prettier), crypto, contract, server on SQLite and
# on PostgreSQL, web, and end-to-end in Debian's Chromium against the built app. Installs
# Chromium (and Firefox ESR, for the extension's Firefox run) when missing.
# Exits non-zero when anything fails; ends with one "N passed, N failed" line per suite.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-chromium.sh || { echo "Could not install Chromium for the end-to-end tests."; exit 1; }
# The extension's Firefox run is skipped (saying why) without Firefox ESR: not a reason to stop.
bash scripts/ensure-firefox.sh || echo "Could not install Firefox ESR: the extension's Firefox run will be skipped."

export LOCKIT_TEST_PG_URL="${LOCKIT_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test}"

# The type checks (one tsc -b over every project, one thread) and lint (ESLint, then Prettier,
# one thread) run side by side; each one's output is printed whole once it is done.
stage_start=$(date +%s)
# Where the time goes: each stage's wall time, printed as it ends.
stage_done() { echo "$1 took $(( $(date +%s) - stage_start )) s"; stage_start=$(date +%s); }

echo "== type check and lint"
checks=$(mktemp -d)
npm run typecheck --silent >"$checks/typecheck.log" 2>&1 &
typecheck_pid=$!
npm run lint --silent >"$checks/lint.log" 2>&1 &
lint_pid=$!
wait "$typecheck_pid"; typecheck_status=$?
wait "$lint_pid"; lint_status=$?
cat "$checks/typecheck.log" "$checks/lint.log"
rm -rf "$checks"
[ "$typecheck_status" -eq 0 ] || { echo "typecheck: 0 passed, 1 failed"; exit 1; }
[ "$lint_status" -eq 0 ] || { echo "lint: 0 passed, 1 failed"; exit 1; }
stage_done "type check and lint"

echo "== build the web app (the end-to-end suite drives the built app)"
npm run build --silent || { echo "build: 0 passed, 1 failed"; exit 1; }
stage_done "build"

echo "== tests"
mkdir -p test-results
export LOCKIT_TEST_FIGURES="$PWD/test-results/figures.jsonl"
rm -f "$LOCKIT_TEST_FIGURES"
npx vitest run --reporter=default --reporter=./scripts/summary-reporter.mjs "$@"
status=$?
stage_done "tests"
node scripts/print-figures.mjs "$LOCKIT_TEST_FIGURES"
exit $status
