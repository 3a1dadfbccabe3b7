#!/usr/bin/env bash
# Mooring's local Kubernetes API server (the testbed: upstream k8s.io/apiserver and etcd, built
# from Debian's packages, cached under ~/.cache/mooring/testbed, incremental). Starts or stops one
# instance on free loopback ports (etcd's always; the API server's unless PORT is set, as a restart
# on the same port does). The demo, mooring:run and the tests use it.
#
#   local-apiserver.sh up RUN_DIR [EXTRA_ARGS...]   build if needed, start; writes RUN_DIR/testbed.env
#                                                   and RUN_DIR/admin.kubeconfig
#   local-apiserver.sh down RUN_DIR                 stop it
#   local-apiserver.sh build                        build only
#   local-apiserver.sh unit-test                    build if needed, then the testbed's Go unit tests
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
testbed="$here/testbed"
export TESTBED_HOME=${TESTBED_HOME:-${MOORING_CACHE:-$HOME/.cache/mooring}/testbed}
mirror=${TESTBED_MIRROR:-http://deb.debian.org/debian}

build() {
    if [ ! -x "$TESTBED_HOME/bin/testbed-apiserver" ] && ! curl -s -o /dev/null --max-time 20 "$mirror/dists/sid/Release"; then
        echo "testbed: Debian's archive ($mirror) cannot be reached and no cached build exists in $TESTBED_HOME;" >&2
        echo "testbed: the API server for the tests cannot be built on this machine." >&2
        exit 1
    fi
    if ! bash "$testbed/build.sh" >&2; then
        echo "testbed: the build failed (output above); cache: $TESTBED_HOME" >&2
        exit 1
    fi
}

case "${1:-}" in
    build)
        build
        ;;
    unit-test)
        build
        bash "$testbed/unit-test.sh"
        ;;
    up)
        [ $# -ge 2 ] || { echo "usage: $0 up RUN_DIR [EXTRA_ARGS...]" >&2; exit 2; }
        run_dir=$2
        shift 2
        build
        mkdir -p "$run_dir"
        # etcd's ports are always picked free: with a fixed API server PORT (a restart) run.sh would take 2379
        PORT=${PORT:-0} EPORT=${EPORT:-0} RUN_DIR=$run_dir EXTRA_ARGS="$*" ETCD_EXTRA_ARGS=${ETCD_EXTRA_ARGS:---unsafe-no-fsync} \
            bash "$testbed/run.sh" start
        ;;
    down)
        [ $# -eq 2 ] || { echo "usage: $0 down RUN_DIR" >&2; exit 2; }
        RUN_DIR=$2 bash "$testbed/run.sh" stop || true
        ;;
    *)
        sed -n '2,11p' "$0" >&2
        exit 2
        ;;
esac
