#!/usr/bin/env bash
# Contract-features e2e in a real VS Code (code-server + headless Chromium): devnet, simulate
# panel with a failing create, fix, deploy, call, state inspector; activation time and .vsix size.
# Screenshots land in .e2e/artifacts/contracts-*.png. Bounded by E2E_TIMEOUT seconds (default 900).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E2E_DIR=${E2E_DIR:-$ROOT/.e2e}
TIMEOUT=${E2E_TIMEOUT:-900}
cd "$ROOT"
timeout "$TIMEOUT" bash scripts/e2e/setup.sh "$E2E_DIR/code-server"
echo "e2e: packaging the extension"
timeout 300 node scripts/package.mjs >/dev/null
E2E_DIR="$E2E_DIR" timeout "$TIMEOUT" node --import tsx scripts/e2e/driver-contracts.ts
