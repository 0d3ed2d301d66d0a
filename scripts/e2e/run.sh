#!/usr/bin/env bash
# Runs one editor end-to-end driver in a real VS Code (code-server) driven by headless Chromium:
# installs the tools (first run only, into .e2e/), packages the extension, then runs
# scripts/e2e/driver[-NAME].ts, which installs the .vsix into a clean profile; its header says what
# it checks. Screenshots land in .e2e/artifacts/. Bounded by E2E_TIMEOUT seconds (default 900).
#
#   bash scripts/e2e/run.sh             the language features (driver.ts)
#   bash scripts/e2e/run.sh contracts   contracts, newuser, forms: driver-contracts.ts, …
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E2E_DIR=${E2E_DIR:-$ROOT/.e2e}
TIMEOUT=${E2E_TIMEOUT:-900}
DRIVER=scripts/e2e/driver${1:+-$1}.ts
cd "$ROOT"
[ -f "$DRIVER" ] || { echo "e2e: no driver $DRIVER" >&2; exit 2; }

echo "e2e: installing code-server and chromium (cached in $E2E_DIR/code-server)"
timeout "$TIMEOUT" bash scripts/e2e/setup.sh "$E2E_DIR/code-server"

echo "e2e: packaging the extension"
timeout 300 node scripts/package.mjs >/dev/null

echo "e2e: driving code-server with $DRIVER"
E2E_DIR="$E2E_DIR" timeout "$TIMEOUT" node --import tsx "$DRIVER"
