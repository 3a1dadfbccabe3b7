#!/usr/bin/env bash
# Open Liberty for Mooring, through the local stack's launcher (scripts/local-stack.sh): installs the runtime once
# into the cache and writes servers with the configuration of liberty-config/src/main/liberty/config.
#
#   scripts/liberty.sh home                      print WLP_HOME, installing the runtime if needed
#   scripts/liberty.sh server USR_DIR NAME HTTP_PORT HTTPS_PORT [KEY=VALUE ...]
#                                                write server NAME under USR_DIR/servers with the
#                                                ports and extra bootstrap properties; print its folder
#
# Variables: MOORING_CACHE (default ~/.cache/mooring), LIBERTY_VERSION (default: the version in pom.xml).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export MOORING_CACHE=${MOORING_CACHE:-$HOME/.cache/mooring}
version=${LIBERTY_VERSION:-$(sed -n 's:.*<liberty.runtime.version>\(.*\)</liberty.runtime.version>.*:\1:p' "$root/pom.xml")}
zip="$MOORING_CACHE/liberty/openliberty-runtime-$version.zip"

say() { printf '[liberty] %s\n' "$*" >&2; }

# the runtime's zip from Maven Central, once per version (the launcher unpacks it)
download() {
    [ -f "$zip" ] && return 0
    mkdir -p "$MOORING_CACHE/liberty"
    exec 9>"$MOORING_CACHE/liberty/.download.lock"
    flock 9
    [ -f "$zip" ] && return 0
    local tmp
    tmp=$(mktemp -d "$MOORING_CACHE/liberty/.download.XXXXXX")
    say "downloading Open Liberty $version (once)"
    if ! mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
            -Dartifact="io.openliberty:openliberty-runtime:$version:zip" -DoutputDirectory="$tmp" >&2; then
        rm -rf "$tmp"
        say "could not download io.openliberty:openliberty-runtime:$version:zip from Maven Central"
        exit 1
    fi
    mv "$tmp/openliberty-runtime-$version.zip" "$zip"
    rm -rf "$tmp"
}

# the launcher (scripts/local-stack.sh: its classes compiled once into the cache)
stack() {
    bash "$root/scripts/local-stack.sh" "$@"
}

case "${1:-}" in
    home)
        download
        stack liberty-home "$zip" "$version"
        ;;
    server)
        [ $# -ge 5 ] || { echo "usage: $0 server USR_DIR NAME HTTP_PORT HTTPS_PORT [KEY=VALUE ...]" >&2; exit 2; }
        shift
        download
        stack liberty-server "$zip" "$version" "$root/liberty-config/src/main/liberty/config" "$@"
        ;;
    *)
        sed -n '2,11p' "$0" >&2
        exit 2
        ;;
esac
