#!/bin/bash
# The testbed's Go unit tests (src/testbed/*_test.go: the pod runner with a fake podman and
# client-go's fake clientset), on the toolchain, GOPATH and Go cache of build.sh's TESTBED_HOME,
# offline. Builds first when needed (through local-apiserver.sh unit-test). Prints go test's
# verdict per test with -v; exits as go test does.
#
# Env: TESTBED_HOME (default ~/.cache/mooring/testbed), TESTBED_TEST_ARGS (extra go test flags, e.g. -run Probe)
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
H=${TESTBED_HOME:-${HOME:?set TESTBED_HOME or HOME}/.cache/mooring/testbed}
[ -f "$H/env.sh" ] || { echo "unit-test.sh: no build in $H; run build.sh first" >&2; exit 1; }
# shellcheck disable=SC1091 # written by build.sh
. "$H/env.sh"
export XDG_CONFIG_HOME=$H/xdg
# one build or test at a time per TESTBED_HOME (build.sh's lock)
exec 9>"$H/.build.lock"
flock 9
# the package with its tests in a GOPATH entry of their own, before the build's (which holds the generated openapi package)
T=$H/gotest/src/mooring/testbed
rm -rf "$T"
mkdir -p "$T"
install -m 0644 "$SRC"/src/testbed/*.go "$T/"
export GOPATH=$H/gotest:$GOPATH
# shellcheck disable=SC2086 # extra flags, split on spaces
go test -count=1 ${TESTBED_TEST_ARGS:-} mooring/testbed
