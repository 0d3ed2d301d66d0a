#!/usr/bin/env bash
# Typed method form, read-only program views, High Contrast and workflow-deployed apps in a real
# VS Code (code-server + headless Chromium): see the header of driver-forms.ts.
# Screenshots land in .e2e/artifacts/forms-*.png. Bounded by E2E_TIMEOUT seconds (default 900).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E2E_DIR=${E2E_DIR:-$ROOT/.e2e}
TIMEOUT=${E2E_TIMEOUT:-900}
cd "$ROOT"
timeout "$TIMEOUT" bash scripts/e2e/setup.sh "$E2E_DIR/code-server"
echo "e2e: packaging the extension"
timeout 300 node scripts/package.mjs >/dev/null
E2E_DIR="$E2E_DIR" timeout "$TIMEOUT" node --import tsx scripts/e2e/driver-forms.ts
