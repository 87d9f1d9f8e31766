#!/usr/bin/env bash
# Scans every input of the Lockit API with sqlmap (Debian's package), signed in, against the
# production server on SQLite in a temporary data dir. Prints one verdict per target and a
# summary; exits 1 when sqlmap found an injection, 2 when a target could not be scanned fully.
#   bash scripts/sqlmap-scan.sh            SQLMAP_TARGET_SECONDS (default 150) bounds each target,
#                                          SQLMAP_TOTAL_SECONDS (default 780) all of them together;
#                                          SQLMAP_LOG_DIR keeps sqlmap's and the server's logs.
# Only 127.0.0.1 is ever targeted.
set -uo pipefail
cd "$(dirname "$0")/.."
PER_TARGET=${SQLMAP_TARGET_SECONDS:-150}
TOTAL=${SQLMAP_TOTAL_SECONDS:-780}

if ! command -v sqlmap >/dev/null; then
  echo "sqlmap is missing: installing Debian's sqlmap package..."
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends sqlmap >/dev/null || { echo "Could not install sqlmap."; exit 2; }
fi
sqlmap --version

WORK=$(mktemp -d /tmp/lockit-sqlmap-XXXXXX)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill -TERM "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
  if [ -n "${SQLMAP_LOG_DIR:-}" ]; then mkdir -p "$SQLMAP_LOG_DIR" && cp "$WORK"/*.log "$SQLMAP_LOG_DIR"/; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# The production entry point, as `npm run serve` runs it. LOG_LEVEL=info puts the verification
# code in the log (no SMTP_URL) and logs every answer, so 5xx can be counted. TRUST_PROXY=1
# with sqlmap's xforwardedfor tamper gives each probe its own client address: without it the
# per-IP limits would answer most probes with 429 and the scan would test the limiter, not the
# inputs (per-account limits still apply, as in production).
PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
BASE="http://127.0.0.1:$PORT"
PORT=$PORT HOST=127.0.0.1 DATA_DIR="$WORK/data" DATABASE_URL="$WORK/data/lockit.sqlite" \
  SERVER_SECRET="$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")" \
  LOG_LEVEL=info WEB_DIST_DIR="$PWD/packages/web/dist" TRUST_PROXY=1 NODE_ENV=production \
  node --import tsx packages/server/src/main.ts >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 150); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$BASE/api/users/verify" -X POST -H 'x-lockit-client: web' || true)
  [ "$code" = "401" ] && break
  sleep 0.2
done
[ "$code" = "401" ] || { echo "The server did not start:"; cat "$WORK/server.log"; exit 2; }

# Sign-up, the logged code, sign-in and two entries, as the web app does them; entry fields must
# be real v1 ciphertexts to pass validation. Writes the cookie and one target per line:
# name, method, URL (`*` marks a path injection point), JSON body.
BASE="$BASE" LOG="$WORK/server.log" OUT="$WORK" node --import tsx --input-type=module -e "$(cat <<'EOF'
import { writeFileSync, readFileSync } from 'node:fs';
import { deriveKeysFromPassword, encryptField, generateVaultKeyBytes, importVaultKey, newEntryId, randomSalt, toBase64Url, wrapVaultKey } from '@lockit/crypto';
import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
const { BASE, LOG, OUT } = process.env;
const kdf = { algorithm: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };
const salt = randomSalt();
const keys = await deriveKeysFromPassword('sqlmap scan master password', salt, kdf);
const vaultBytes = generateVaultKeyBytes();
const protectedKey = await wrapVaultKey(vaultBytes, keys.wrapKey, kdf, salt);
const vaultKey = await importVaultKey(vaultBytes);
const username = 'scanner', email = 'scanner@example.test';
let cookie = '';
async function call(method, path, body, expected) {
  const headers = { [CLIENT_HEADER]: CLIENT_HEADER_VALUE, ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) };
  const answer = await fetch(BASE + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const set = answer.headers.getSetCookie().map((line) => line.split(';')[0]);
  if (set.length) cookie = set.join('; ');
  if (answer.status !== expected) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
}
const entry = async () => {
  const id = newEntryId();
  const seal = (field, text) => encryptField(vaultKey, id, field, text);
  return { id, serviceName: await seal('serviceName', 'Example'), username: await seal('username', 'me@example.com'), password: await seal('password', 'hunter2-but-longer'), url: await seal('url', 'https://example.com'), notes: null };
};
const account = { password: keys.authKey, kdf, salt, protectedKey };
await call('POST', apiPaths.createUser, { fullname: 'Scanner', username, email, ...account }, 201);
await call('POST', apiPaths.sendCode, { email, username }, 200);
let code;
for (let i = 0; i < 100 && !code; i++) {
  code = readFileSync(LOG, 'utf8').split('\n').filter((l) => l.includes('"devMail":true')).map((l) => JSON.parse(l)).find((r) => r.username === username)?.code;
  if (!code) await new Promise((r) => setTimeout(r, 100));
}
await call('POST', apiPaths.verifyCode, { email, username, code }, 200);
await call('POST', apiPaths.prelogin, { username }, 200);
await call('POST', apiPaths.login, { username, password: keys.authKey }, 200);
const [kept, doomed, fresh] = [await entry(), await entry(), await entry()];
await call('POST', apiPaths.addEntry, kept, 201);
await call('POST', apiPaths.addEntry, doomed, 201);
const { id: keptId, ...keptFields } = kept;
// change-password with a wrong current key: a right one would end the scan's own session.
const wrongKey = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
const targets = [
  ['prelogin', 'POST', apiPaths.prelogin, { username }],
  ['login', 'POST', apiPaths.login, { username, password: keys.authKey }],
  ['create', 'POST', apiPaths.createUser, { fullname: 'Other', username: 'other', email: 'other@example.test', ...account }],
  ['send-code', 'POST', apiPaths.sendCode, { email, username }],
  ['verify-code', 'POST', apiPaths.verifyCode, { email, username, code: '000000' }],
  ['list', 'GET', apiPaths.listEntries, null],
  ['add', 'POST', apiPaths.addEntry, fresh],
  ['update (body)', 'PUT', apiPaths.updateEntry(keptId), keptFields],
  ['update (path id)', 'PUT', apiPaths.updateEntry(keptId) + '*', keptFields],
  ['delete (path id)', 'DELETE', apiPaths.deleteEntry(doomed.id) + '*', null],
  ['update-username', 'PUT', apiPaths.updateUsername, { username }],
  ['change-password', 'PUT', apiPaths.changePassword, { oldPassword: wrongKey, newPassword: keys.authKey, kdf, salt, protectedKey }],
];
writeFileSync(`${OUT}/cookie`, cookie);
writeFileSync(`${OUT}/targets.tsv`, targets.map(([name, method, path, body]) => [name, method, BASE + path, body ? JSON.stringify(body) : ''].join('\t')).join('\n') + '\n');
EOF
)" || { echo "Could not prepare the signed-in account:"; tail -20 "$WORK/server.log"; exit 2; }
COOKIE=$(cat "$WORK/cookie")

# --level 3 also probes the cookies, User-Agent and Referer; --risk 2 adds heavy time-based
# tests. 4xx answers are the API refusing bad input, so they must not stop sqlmap.
# --drop-set-cookie keeps the scan's session even when a route sets new cookies. The headers
# are probed once each where the server reads them, to stay within the time limit: the session
# cookies and Referer on `list` (one auth hook serves every private route), User-Agent on
# `login` (stored with each new session); every target probes its own body and path.
started=$(date +%s)
found=0; clean=0; incomplete=0; total_5xx=0
declare -a LINES
while IFS=$'\t' read -r name method url body; do
  left=$((TOTAL - ($(date +%s) - started)))
  limit=$((left < PER_TARGET ? left : PER_TARGET))
  if [ "$limit" -le 5 ]; then LINES+=("$(printf '%-18s not scanned (total time limit reached)' "$name")"); incomplete=$((incomplete + 1)); continue; fi
  before=$(wc -l <"$WORK/server.log")
  args=(-u "$url" --method "$method" --cookie "$COOKIE" --headers "x-lockit-client: web" --batch --level 3 --risk 2
    --time-sec 2 --timeout 10 --retries 1 --drop-set-cookie --tamper xforwardedfor --ignore-code 400,401,403,404,409,413,415,429
    --flush-session --disable-coloring --output-dir "$WORK/sqlmap")
  [ -n "$body" ] && args+=(--data "$body")
  case "$name" in
    list) ;;
    login) args+=(--skip "lockit_access,lockit_refresh,Referer") ;;
    *) args+=(--skip "lockit_access,lockit_refresh,User-Agent,Referer") ;;
  esac
  # stdin from /dev/null: sqlmap would otherwise read the rest of the target list.
  timeout --signal=INT --kill-after=10 "$limit" sqlmap "${args[@]}" </dev/null >"$WORK/$name.log" 2>&1
  status=$?
  requests=$(tail -n +"$((before + 1))" "$WORK/server.log" | grep -c '"msg":"request completed"')
  fivexx=$(tail -n +"$((before + 1))" "$WORK/server.log" | grep '"msg":"request completed"' | grep -c '"statusCode":5[0-9][0-9]')
  total_5xx=$((total_5xx + fivexx))
  log="$WORK/$name.log"
  if grep -qE "identified the following injection point|is vulnerable" "$log"; then
    verdict="INJECTION FOUND"; found=$((found + 1)); grep -E "Parameter:|Type:|Title:" "$log" | sed 's/^/    /'
  elif grep -q "do not appear to be injectable" "$log"; then
    verdict="no injection"; clean=$((clean + 1))
  else
    verdict="incomplete (sqlmap exit $status: $(grep -E '\[(CRITICAL|ERROR)\]' "$log" | tail -1 | cut -c1-90))"; incomplete=$((incomplete + 1))
  fi
  LINES+=("$(printf '%-18s %-7s %-16s %6s requests  %3s×5xx  %s' "$name" "$method" "$(($(date +%s) - started))s elapsed" "$requests" "$fivexx" "$verdict")")
done <"$WORK/targets.tsv"

echo
echo "sqlmap $(sqlmap --version 2>/dev/null | head -1) against $BASE (--level 3 --risk 2, signed in)"
printf '%s\n' "${LINES[@]}"
echo "summary: $((found + clean + incomplete)) targets, $found with an injection, $clean clean, $incomplete incomplete; $total_5xx answers were 5xx; $(($(date +%s) - started)) s of scanning"
if [ "$found" -gt 0 ]; then exit 1; fi
if [ "$incomplete" -gt 0 ] || [ "$total_5xx" -gt 0 ]; then exit 2; fi
exit 0
