#!/bin/bash
# The stand-in's features.sh. The official kernel-slim image installs here the features that the
# server configuration names, with featureUtility. The stand-in carries Liberty's full runtime
# (Maven Central serves no single features), so every feature is present: this checks that each
# feature the configuration names is one of them, and fails naming any that is not.
set -euo pipefail
missing=0
for file in /config/server.xml /config/configDropins/*/*.xml; do
    [ -f "$file" ] || continue
    for feature in $(sed -n 's:.*<feature>\s*\([^<[:space:]]*\)\s*</feature>.*:\1:p' "$file"); do
        if ! grep -rqsi "^IBM-ShortName: *$feature\s*$" /opt/ol/wlp/lib/features/; then
            echo "features.sh: feature $feature ($file) is not in this Liberty runtime" >&2
            missing=1
        fi
    done
done
exit $missing
