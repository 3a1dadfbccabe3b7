#!/usr/bin/env bash
# Prometheus and promtool from Debian's packages (prometheus, promtool), for the monitoring kit's tests: downloaded and
# unpacked once into the cache (no root, no system apt state touched), keyed by the package's
# version; safe for two first uses at once (a lock, unpacked into a temporary folder, renamed).
#
#   scripts/prometheus.sh bin      print the folder holding prometheus and promtool
#
# Variables: MOORING_CACHE (default ~/.cache/mooring), PROMETHEUS_MIRROR (default
# http://deb.debian.org/debian), PROMETHEUS_SUITE (default trixie).
set -euo pipefail

export MOORING_CACHE=${MOORING_CACHE:-$HOME/.cache/mooring}
H="$MOORING_CACHE/prometheus"
MIRROR=${PROMETHEUS_MIRROR:-http://deb.debian.org/debian}
SUITE=${PROMETHEUS_SUITE:-trixie}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

say() { printf '[prometheus] %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[ "${1:-}" = bin ] || die "usage: scripts/prometheus.sh bin"
for c in apt-get apt-cache dpkg-deb flock; do command -v $c >/dev/null || die "needs $c"; done
[ -r "$KEYRING" ] || die "no Debian archive keyring at $KEYRING"
mkdir -p "$H"
exec 9>"$H/.lock"
flock 9

# a private apt configuration: the lists of one suite, refreshed at most once a day
A="$H/apt"
mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial"
echo "deb [signed-by=$KEYRING] $MIRROR $SUITE main" > "$A/sources.list"
APTX=(-o "Dir::Etc::sourcelist=$A/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State=$A/state"
  -o "Dir::Cache=$A/cache" -o "Dir::Etc::preferences=$A/preferences" -o "Dir::Etc::preferencesparts=$A/preferences.d"
  -o APT::Default-Release= -o Debug::NoLocking=1)
mkdir -p "$A/preferences.d"
: > "$A/preferences"
[ "$(id -u)" = 0 ] && APTX+=(-o APT::Sandbox::User=root)
lists=$(find "$A/state/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 | head -1)
if [ -z "$lists" ]; then
    # an installed version is used as it is when the archive cannot be reached
    if ! apt-get "${APTX[@]}" -qq update >&2; then
        installed=$(ls -d "$H"/[0-9]*/usr/bin 2>/dev/null | sort -V | tail -1)
        [ -n "$installed" ] || die "apt-get update of $MIRROR $SUITE failed and no Prometheus is cached"
        say "apt-get update failed; using the cached $installed"
        echo "$installed"
        exit 0
    fi
fi
version=$(apt-cache "${APTX[@]}" show prometheus 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1)
[ -n "$version" ] || die "Debian $SUITE has no package prometheus"
dir="$H/${version//[:~]/_}"
if [ ! -x "$dir/usr/bin/prometheus" ]; then
    say "downloading Debian's prometheus $version (once)"
    tmp=$(mktemp -d "$H/.unpack.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    tool=$(apt-cache "${APTX[@]}" show promtool 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1)
    [ -n "$tool" ] || die "Debian $SUITE has no package promtool"
    (cd "$tmp" && apt-get "${APTX[@]}" -qq download "prometheus=$version" "promtool=$tool" >&2) \
        || die "apt-get download prometheus=$version promtool=$tool failed"
    for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
    [ -x "$tmp/root/usr/bin/prometheus" ] && [ -x "$tmp/root/usr/bin/promtool" ] || die "the packages hold no prometheus and promtool"
    rm -rf "$dir"
    mv "$tmp/root" "$dir"
fi
echo "$dir/usr/bin"
