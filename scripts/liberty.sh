#!/usr/bin/env bash
# Open Liberty for Mooring: installs the runtime once into the cache and creates servers from
# liberty-config/src/main/liberty/config.
#
#   scripts/liberty.sh home                      print WLP_HOME, installing the runtime if needed
#   scripts/liberty.sh server USR_DIR NAME HTTP_PORT HTTPS_PORT [KEY=VALUE ...]
#                                                (re)create server NAME under USR_DIR/servers with
#                                                the ports and extra bootstrap properties
#
# Variables: MOORING_CACHE (default ~/.cache/mooring), LIBERTY_VERSION (default: the version in pom.xml).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${MOORING_CACHE:-$HOME/.cache/mooring}
version=${LIBERTY_VERSION:-$(sed -n 's:.*<liberty.runtime.version>\(.*\)</liberty.runtime.version>.*:\1:p' "$root/pom.xml")}
base="$cache/liberty/$version"

say() { printf '[liberty] %s\n' "$*" >&2; }

install_runtime() {
    if [ -x "$base/wlp/bin/server" ]; then
        return 0
    fi
    mkdir -p "$cache/liberty"
    exec 9>"$cache/liberty/.lock"
    flock 9
    if [ -x "$base/wlp/bin/server" ]; then
        return 0
    fi
    local tmp
    tmp=$(mktemp -d "$cache/liberty/.install.XXXXXX")
    say "installing Open Liberty $version into $base (once)"
    if ! mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
            -Dartifact="io.openliberty:openliberty-runtime:$version:zip" -DoutputDirectory="$tmp" >&2; then
        rm -rf "$tmp"
        say "could not download io.openliberty:openliberty-runtime:$version:zip from Maven Central"
        exit 1
    fi
    unzip -q "$tmp/openliberty-runtime-$version.zip" -d "$tmp/runtime"
    rm -f "$tmp/openliberty-runtime-$version.zip"
    rm -rf "$base"
    mv "$tmp/runtime" "$base"
    rm -rf "$tmp"
    say "installed $base/wlp"
}

create_server() {
    local usr=$1 name=$2 http=$3 https=$4
    shift 4
    local dir="$usr/servers/$name"
    rm -rf "$dir"
    mkdir -p "$dir/dropins" "$dir/configDropins/overrides"
    cp "$root/liberty-config/src/main/liberty/config/server.xml" "$root/liberty-config/src/main/liberty/config/jvm.options" "$dir/"
    # a local server shares the machine: a fixed heap instead of a share of all its memory
    echo "-Xmx512m" >> "$dir/jvm.options"
    {
        cat "$root/liberty-config/src/main/liberty/config/bootstrap.properties"
        # plain console lines for a terminal (the image logs JSON)
        echo "com.ibm.ws.logging.console.format=simple"
        echo "com.ibm.ws.logging.console.log.level=INFO"
        echo "http.port=$http"
        echo "https.port=$https"
        for property in "$@"; do
            echo "$property"
        done
    } > "$dir/bootstrap.properties"
    echo "$dir"
}

case "${1:-}" in
    home)
        install_runtime
        echo "$base/wlp"
        ;;
    server)
        [ $# -ge 5 ] || { echo "usage: $0 server USR_DIR NAME HTTP_PORT HTTPS_PORT [KEY=VALUE ...]" >&2; exit 2; }
        install_runtime
        shift
        create_server "$@"
        ;;
    *)
        sed -n '2,12p' "$0" >&2
        exit 2
        ;;
esac
