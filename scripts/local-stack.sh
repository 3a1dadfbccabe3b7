#!/usr/bin/env bash
# The local stack's launcher from a shell: mooring-local-stack's StackCommand, its plain-JDK classes
# compiled once per content of their sources into the cache (no Maven build needed). Every start of a
# local API server and every Liberty server the scripts write go through it.
#
#   scripts/local-stack.sh apiserver-up RUN_DIR [FLAG ...]   start a local API server from this
#                                                            checkout's local-apiserver; print its kubeconfig
#   scripts/local-stack.sh apiserver-down RUN_DIR            stop it
#   scripts/local-stack.sh COMMAND ARGS...                   any other StackCommand command
#
# Variables: MOORING_CACHE (default ~/.cache/mooring).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export MOORING_CACHE=${MOORING_CACHE:-$HOME/.cache/mooring}
sources="$root/mooring-local-stack/src/main/java/dev/mooring/stack"

# the launcher's classes, compiled once per content of its sources (they need nothing but the JDK)
classes() {
    local key dir tmp
    key=$(cat "$sources"/*.java | sha256sum | cut -c1-16)
    dir="$MOORING_CACHE/local-stack/$key"
    if [ ! -f "$dir/.compiled" ]; then
        mkdir -p "$MOORING_CACHE/local-stack"
        exec 8>"$MOORING_CACHE/local-stack/.lock"
        flock 8
        if [ ! -f "$dir/.compiled" ]; then
            tmp=$(mktemp -d "$MOORING_CACHE/local-stack/.compile.XXXXXX")
            javac -nowarn -d "$tmp" "$sources"/*.java >&2
            touch "$tmp/.compiled"
            rm -rf "$dir"
            mv "$tmp" "$dir"
        fi
        exec 8>&-
    fi
    echo "$dir"
}

[ $# -ge 1 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
case "$1" in
    apiserver-up|apiserver-down)
        command=$1
        shift
        exec java -cp "$(classes)" dev.mooring.stack.StackCommand "$command" "$root/local-apiserver" "$@"
        ;;
    *)
        exec java -cp "$(classes)" dev.mooring.stack.StackCommand "$@"
        ;;
esac
