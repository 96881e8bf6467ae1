#!/usr/bin/env bash
# The one command that runs every test: lint and format, type check, then every test file under a
# private D-Bus session with an unlocked gnome-keyring, so the keychain tests reach a real Secret
# Service, and with a fresh HOME so nothing of the developer's own keychain or config is touched.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== lint and format (biome)"
node_modules/.bin/biome check .
echo "== type check (tsc: src-shared, src-renderer, src-main, tools, then tests)"
npm run --silent typecheck

mkdir -p test-artifacts
export ASSETS_SYNC_TEST_HOME="$(mktemp -d)"
echo "== tests (vitest, under dbus-run-session with gnome-keyring)"
status=0
HOME="$ASSETS_SYNC_TEST_HOME" dbus-run-session -- bash -c '
  bash test/keyring.sh & keeper=$!
  trap "kill -TERM $keeper 2>/dev/null; wait $keeper 2>/dev/null" EXIT
  bash test/keyring.sh --wait
  node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest.json "$@"
' bash "$@" 2> >(grep -v "Failed to set fd limit" >&2) || status=$?

node -e '
  const r = JSON.parse(require("fs").readFileSync("test-artifacts/vitest.json", "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
' || true
echo "npm test took ${SECONDS} s (lint, type check and every test)"
exit $status
