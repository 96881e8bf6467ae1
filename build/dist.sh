#!/usr/bin/env bash
# Packages the desktop app. Native modules (better-sqlite3, @napi-rs/keyring, @parcel/watcher) are
# rebuilt for Electron's ABI for packaging only, then rebuilt back for Node so that the tests and
# the CLI keep working in this checkout, whatever happened in between.
set -euo pipefail
cd "$(dirname "$0")/.."
restore() { npm rebuild better-sqlite3 @parcel/watcher >/dev/null; }
trap restore EXIT
npm run build
npx --no electron-builder install-app-deps
npx --no electron-builder --config electron-builder.yml "$@"
