#!/bin/bash
# The stand-in's configure.sh, run last in an application image as on the official one. The
# official one also fills OpenJ9's shared class cache by starting the server once; the stand-in
# runs HotSpot, which has no such cache to fill, so this only checks that the server configuration
# is in place and leaves the output folder empty, as the official one does.
set -euo pipefail
[ -f /config/server.xml ] || { echo "configure.sh: /config/server.xml is missing" >&2; exit 1; }
rm -rf /output/workarea /output/resources/security /logs/*
