#!/usr/bin/env bash
# Runs a command while a bounded CPU hog keeps every core busy, to show that the tests do not
# depend on how busy the machine is (a test's time budget runs on an injected clock or on CPU
# time, never on the wall clock of a loaded machine).
#
#   scripts/under-load.sh [-p HOGS_PER_CORE] [-t SECONDS] COMMAND [ARGS...]
#
# -p  busy processes per core (default 2: a load of about twice the cores, plus the command's own)
# -t  the most any hog lives, even if this script is killed (default 3600)
#
# Each hog is `timeout SECONDS sha256sum /dev/zero` at normal priority; all of them end when the
# command ends. Prints the load average before and after; exits with the command's status.
# Example (the unit phase, then the admission ITs):
#   scripts/under-load.sh mvn -B -pl operator-api,mooring-engine,operator-manifests test
#   scripts/under-load.sh mvn -B verify -pl it -Dit.test='AdmissionIT,AdmissionStartIT'
set -euo pipefail

per_core=2
bound=3600
while getopts "p:t:" option; do
    case "$option" in
        p) per_core=$OPTARG ;;
        t) bound=$OPTARG ;;
        *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ] || ! [[ "$per_core" =~ ^[0-9]+$ ]] || ! [[ "$bound" =~ ^[1-9][0-9]*$ ]]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi

cores=$(nproc)
hogs=()
stop_hogs() {
    [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap stop_hogs EXIT
for _ in $(seq $((cores * per_core))); do
    timeout "$bound" sha256sum /dev/zero >/dev/null 2>&1 &
    hogs+=($!)
done
echo "[under-load] $((cores * per_core)) busy processes on $cores cores (each at most ${bound}s); load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
status=0
"$@" || status=$?
echo "[under-load] done (exit $status); load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
