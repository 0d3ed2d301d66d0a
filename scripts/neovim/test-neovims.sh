#!/usr/bin/env bash
# The README's Neovim set-ups in more than the host's Neovim: unpacks Debian stable's (trixie,
# Neovim 0.10) and unstable's (sid, the newest release) Neovim into .e2e/ with
# scripts/neovim/get-neovim.sh, then runs test/server/neovim.test.ts in each of them and in the
# `nvim` on PATH (installed here from the host's own Debian release when missing).
#
# A suite that cannot be read (the archive unreachable, a suite with no neovim) is reported and
# left out; a set-up that fails in a Neovim that was obtained fails the run.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v nvim >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null || echo "test-neovims: could not install the host's neovim" >&2
  fi
fi

list=''
if command -v nvim >/dev/null; then list=nvim; fi
for suite in trixie sid; do
  dest=.e2e/nvim-$suite
  if [ -x "$dest/bin/nvim" ] || bash scripts/neovim/get-neovim.sh "$suite" "$dest"; then
    list=${list:+$list:}$PWD/$dest/bin/nvim
  else
    echo "test-neovims: WARNING: no Neovim from $suite; its set-ups are not tested in this run" >&2
  fi
done
[ -n "$list" ] || { echo "test-neovims: no Neovim at all to test in" >&2; exit 1; }
echo "test-neovims: testing in $list" >&2
TEALWORKS_NVIM=$list npx mocha --timeout 120000 test/server/neovim.test.ts
