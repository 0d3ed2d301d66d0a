#!/usr/bin/env bash
# Editor end-to-end test in a real VS Code (code-server) driven by headless Chromium:
# installs the tools (first run only, into .e2e/), packages the extension, installs the .vsix,
# opens a .teal file with a macro error and checks the Problems panel and hover docs.
# Screenshots land in .e2e/artifacts/. Bounded by E2E_TIMEOUT seconds (default 900).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E2E_DIR=${E2E_DIR:-$ROOT/.e2e}
TIMEOUT=${E2E_TIMEOUT:-900}
cd "$ROOT"

echo "e2e: installing code-server and chromium (cached in $E2E_DIR/code-server)"
timeout "$TIMEOUT" bash scripts/e2e/setup.sh "$E2E_DIR/code-server"

echo "e2e: packaging the extension"
timeout 300 node scripts/package.mjs >/dev/null

echo "e2e: driving code-server"
E2E_DIR="$E2E_DIR" timeout "$TIMEOUT" node --import tsx scripts/e2e/driver.ts
