#!/usr/bin/env bash
# New-user e2e in a real VS Code (code-server + headless Chromium): packaged .vsix in a clean
# profile, empty folder, walkthrough → sample project, deploy with a TMPL_ value typed into the
# form, call through the typed form, devnet restart without stale lenses or inspector entries.
# Screenshots land in .e2e/artifacts/newuser-*.png. Bounded by E2E_TIMEOUT seconds (default 900).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E2E_DIR=${E2E_DIR:-$ROOT/.e2e}
TIMEOUT=${E2E_TIMEOUT:-900}
cd "$ROOT"
timeout "$TIMEOUT" bash scripts/e2e/setup.sh "$E2E_DIR/code-server"
echo "e2e: packaging the extension"
timeout 300 node scripts/package.mjs >/dev/null
E2E_DIR="$E2E_DIR" timeout "$TIMEOUT" node --import tsx scripts/e2e/driver-newuser.ts
