#!/usr/bin/env bash
# Unpacks a Debian suite's Neovim, with that suite's libraries, into a folder of its own, without
# installing anything into the system, so the README's Neovim set-ups can be tested in versions
# the machine's Debian release does not ship:
#
#   scripts/neovim/get-neovim.sh trixie /opt/nvim-0.10     # Neovim 0.10.x
#   scripts/neovim/get-neovim.sh sid /opt/nvim-0.12        # whatever unstable carries
#   TEALWORKS_NVIM=/opt/nvim-0.10/bin/nvim:/opt/nvim-0.12/bin/nvim npx mocha test/server/neovim.test.ts
#
# The archive address is read from the apt sources already configured on this machine; the suite's
# index goes to a private apt folder. The result is DEST/root (the unpacked packages) and
# DEST/bin/nvim, a wrapper that starts the binary through the suite's own dynamic loader and
# libraries (a newer suite's Neovim needs a newer C library than the host's) and points Neovim at
# its runtime files. Needs apt-get, apt-cache and dpkg-deb; not needed by CI.
set -euo pipefail

usage() { echo "usage: $0 SUITE DEST   (e.g. $0 trixie /opt/nvim-0.10)" >&2; exit 2; }
[ $# -eq 2 ] || usage
suite=$1
dest=$2
case $suite in *[!a-z0-9-]*|'') echo "get-neovim: '$suite' is not a suite name" >&2; exit 2 ;; esac
for tool in apt-get apt-cache dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "get-neovim: $tool is needed (a Debian-based system)" >&2; exit 1; }
done

# The configured Debian archive: the first URI of a deb822 "URIs:" or one-line "deb" entry that
# ends in /debian, skipping the security archive, which carries no full suites.
archive=''
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] || continue
  archive=$(awk '
    /^[ \t]*#/ { next }
    /^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }
    /^deb[ \t]/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\// && $i !~ /security/) { print $i; exit } }
  ' "$f")
  case $archive in */debian|*/debian/) break ;; *) archive='' ;; esac
done
[ -n "$archive" ] || { echo "get-neovim: no Debian archive found in /etc/apt/sources.list{,.d}" >&2; exit 1; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { echo "get-neovim: $keyring is missing (package debian-archive-keyring)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs"
echo "deb [signed-by=$keyring] $archive $suite main" >"$work/sources.list"
: >"$work/status"
apt=(-o "Dir::Etc::sourcelist=$work/sources.list" -o "Dir::Etc::sourceparts=$work/none"
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Dir::State::status=$work/status"
  -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")

echo "get-neovim: reading $suite from $archive" >&2
apt-get "${apt[@]}" -qq update || { echo "get-neovim: could not read suite $suite from $archive (see apt's message above)" >&2; exit 1; }
version=$(apt-cache "${apt[@]}" show neovim 2>/dev/null | awk '/^Version:/ { print $2; exit }' || true)
[ -n "$version" ] || { echo "get-neovim: $suite has no neovim package" >&2; exit 1; }
# Everything neovim needs at run time in that suite (virtual names and alternatives dropped).
mapfile -t pkgs < <(apt-cache "${apt[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances neovim | grep -v '^[ <]' | sort -u)
echo "get-neovim: neovim $version and ${#pkgs[@]} packages: ${pkgs[*]}" >&2
(cd "$work/debs" && apt-get "${apt[@]}" -qq download "${pkgs[@]}")

rm -rf "$dest/root" "$dest/bin"
mkdir -p "$dest/root" "$dest/bin"
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$dest/root"; done
loader=$(cd "$dest/root" && for l in usr/lib/*-linux-gnu/ld-linux-*.so.* lib/*-linux-gnu/ld-linux-*.so.* lib64/ld-linux-*.so.*; do if [ -f "$l" ]; then echo "$l"; break; fi; done)
[ -n "$loader" ] || { echo "get-neovim: the suite's libc6 has no dynamic loader" >&2; exit 1; }
triplet=$(cd "$dest/root/usr/lib" && for t in *-linux-gnu*; do if [ -f "$t/libc.so.6" ]; then echo "$t"; break; fi; done)
[ -n "$triplet" ] || { echo "get-neovim: the suite's libc6 has no libc.so.6 under usr/lib" >&2; exit 1; }

cat >"$dest/bin/nvim" <<WRAP
#!/bin/sh
# Neovim $version from Debian $suite, unpacked by scripts/neovim/get-neovim.sh. Runs through the
# suite's own loader and libraries; --library-path (not LD_LIBRARY_PATH) keeps them away from the
# programs Neovim starts, such as the language server.
root=\$(CDPATH= cd -- "\$(dirname -- "\$0")/../root" && pwd)
VIMRUNTIME=\$root/usr/share/nvim/runtime
LUA_CPATH="\$root/usr/lib/$triplet/lua/5.1/?.so;;"
export VIMRUNTIME LUA_CPATH
exec "\$root/$loader" --library-path "\$root/lib/$triplet:\$root/usr/lib/$triplet" "\$root/usr/bin/nvim" "\$@"
WRAP
chmod +x "$dest/bin/nvim"
echo "$suite $version" >"$dest/VERSION"
"$dest/bin/nvim" --version | head -n1
