#!/usr/bin/env bash
# Checks that a repository Mooring was deployed to (mvn -Ppublish deploy
# -DaltDeploymentRepository=ID::file:DIR) holds every artifact a user needs, each with the files a
# public repository requires: the POM (with licence, scm, url and developers), and for a module with
# Java sources its -sources.jar and -javadoc.jar. Exit 1 naming what is missing.
#
#   scripts/check-publish.sh DIR [VERSION]      VERSION: the version in pom.xml by default
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=${1:?usage: scripts/check-publish.sh DIR [VERSION]}
version=${2:-$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$root/pom.xml")}
missing=()

# the newest file of ARTIFACT's VERSION folder ending in SUFFIX (a snapshot's files carry a timestamp)
file() {
    ls -t "$repo/dev/mooring/$1/$version/"*"$2" 2>/dev/null | grep -v -- '-sources\.jar$\|-javadoc\.jar$' | head -1 || true
}
classified() {
    ls -t "$repo/dev/mooring/$1/$version/"*"$2" 2>/dev/null | head -1 || true
}

# artifact, its main file's extension (pom: none but the POM), whether it has Java sources
while read -r artifact extension sources; do
    [ -n "$artifact" ] || continue
    pom=$(file "$artifact" .pom)
    if [ -z "$pom" ]; then
        missing+=("dev.mooring:$artifact:$version (no POM)")
        continue
    fi
    for element in '<licenses>' '<scm>' '<url>' '<developers>'; do
        # the parent's metadata counts for the modules that inherit it
        grep -q "$element" "$pom" || grep -q '<artifactId>mooring-parent</artifactId>' "$pom" || missing+=("$artifact: $element in its POM")
    done
    if [ "$extension" != pom ] && [ -z "$(file "$artifact" ".$extension")" ]; then
        missing+=("$artifact: its .$extension")
    fi
    if [ "$sources" = yes ]; then
        [ -n "$(classified "$artifact" -sources.jar)" ] || missing+=("$artifact: its -sources.jar")
        [ -n "$(classified "$artifact" -javadoc.jar)" ] || missing+=("$artifact: its -javadoc.jar")
    fi
done <<'LIST'
mooring-parent pom no
mooring-bom pom no
operator-api jar yes
mooring-engine jar yes
operator-ejb jar yes
operator-web war yes
mooring-runtime pom no
operator-manifests jar yes
mooring-test jar yes
mooring-local-stack jar yes
mooring-maven-plugin jar yes
mooring-archetype jar no
operator-ear ear no
liberty-config pom no
local-apiserver zip no
LIST

parent=$(file mooring-parent .pom)
for element in '<licenses>' '<scm>' '<url>' '<developers>'; do
    [ -z "$parent" ] || grep -q "$element" "$parent" || missing+=("mooring-parent: $element in its POM")
done
if [ ${#missing[@]} -gt 0 ]; then
    printf '[publish] missing in %s:\n' "$repo" >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 1
fi
echo "[publish] every artifact a user needs is complete in $repo (version $version)" >&2
