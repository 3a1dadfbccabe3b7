#!/usr/bin/env bash
# The stand-in for the official Open Liberty image (kernel-slim), made from what the registries
# here serve: a Debian root file system (debootstrap, with Debian's OpenJDK JRE, a HotSpot JVM:
# 17 on bookworm by default, 21 or 25 on trixie with MOORING_BASE_JAVA=21 or 25)
# and Open Liberty's full runtime zip from Maven Central (scripts/liberty.sh), laid out as the
# official image is: /opt/ol/wlp, /config, /output, /logs, user 1001 in group 0, features.sh and
# configure.sh on the PATH, the same ENTRYPOINT and CMD. Mooring's Containerfiles build on it with
# --build-arg BASE=<the name this prints>, as they build on the official image without it.
#
#   liberty-base/build.sh            build (or load from the cache) and print the image's name
#   MOORING_BASE_JAVA=25 liberty-base/build.sh     the same on Java 25
#
# Cached under $MOORING_CACHE/liberty-base/<key>/image.tar (default ~/.cache/mooring), keyed by the
# Liberty version, the Debian suite, the JRE package and these files; two builds at once take
# turns (flock). Needs root, podman and debootstrap.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
cache=${MOORING_CACHE:-$HOME/.cache/mooring}
mirror=${MOORING_DEBIAN_MIRROR:-http://deb.debian.org/debian}
java=${MOORING_BASE_JAVA:-17}
case "$java" in
    17) default_suite=bookworm ;;
    21|25) default_suite=trixie ;;
    *) echo "[liberty-base] MOORING_BASE_JAVA must be 17, 21 or 25, not '$java'" >&2; exit 2 ;;
esac
suite=${MOORING_DEBIAN_SUITE:-$default_suite}
jre=openjdk-$java-jre-headless
liberty_version=$(sed -n 's:.*<liberty.runtime.version>\(.*\)</liberty.runtime.version>.*:\1:p' "$root/pom.xml")
files_hash=$(cat "$here/build.sh" "$here"/helpers/*/* | sha256sum | cut -c1-12)
key="$liberty_version-$suite-${jre%%-headless}-$files_hash"
image="localhost/mooring-liberty-base:$key"

say() { printf '[liberty-base] %s\n' "$*" >&2; }
podman() { command podman --runtime runc --cgroup-manager=cgroupfs "$@"; }

if podman image exists "$image"; then
    echo "$image"
    exit 0
fi
mkdir -p "$cache/liberty-base"
exec 9>"$cache/liberty-base/.lock"
flock 9
archive="$cache/liberty-base/$key/image.tar"
if [ -f "$archive" ]; then
    podman load -q -i "$archive" >&2
    echo "$image"
    exit 0
fi

command -v debootstrap >/dev/null || { say "debootstrap is needed (apt-get install debootstrap)"; exit 1; }
wlp=$(bash "$root/scripts/liberty.sh" home)
work=$(mktemp -d "$cache/liberty-base/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
say "building $image: Debian $suite with $jre (debootstrap, a few minutes), Open Liberty $liberty_version"
debootstrap --variant=minbase --include="$jre,ca-certificates,openssl" "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; say "debootstrap failed (log above)"; exit 1; }
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*

# the layout of the official image
mkdir -p "$rootfs/opt/ol/helpers" "$rootfs/logs" "$rootfs/etc/wlp"
cp -a "$wlp" "$rootfs/opt/ol/wlp"
rm -rf "$rootfs/opt/ol/wlp/usr/servers"/* "$rootfs/opt/ol/wlp/output"
cp -a "$here/helpers/build" "$here/helpers/runtime" "$rootfs/opt/ol/helpers/"
mkdir -p "$rootfs/opt/ol/wlp/usr/servers/defaultServer/configDropins/defaults" \
    "$rootfs/opt/ol/wlp/usr/servers/defaultServer/configDropins/overrides" "$rootfs/opt/ol/wlp/output/defaultServer"
cat > "$rootfs/opt/ol/wlp/usr/servers/defaultServer/server.xml" <<'XML'
<server description="Default Server">
    <featureManager>
        <feature>jakartaee-10.0</feature>
    </featureManager>
</server>
XML
echo '<server description="Default Server"><httpEndpoint id="defaultHttpEndpoint" host="*" /></server>' \
    > "$rootfs/opt/ol/wlp/usr/servers/defaultServer/configDropins/defaults/open-default-port.xml"
ln -s /opt/ol/wlp/usr/servers/defaultServer "$rootfs/config"
ln -s /opt/ol/wlp/output/defaultServer "$rootfs/output"
ln -s /opt/ol/wlp "$rootfs/liberty"
echo "default:x:1001:0:Default user:/opt/ol:/usr/sbin/nologin" >> "$rootfs/etc/passwd"
chown -R 1001:0 "$rootfs/opt/ol" "$rootfs/logs" "$rootfs/etc/wlp"
chmod -R g+rw "$rootfs/opt/ol" "$rootfs/logs" "$rootfs/etc/wlp"
chmod -R ug+rwx "$rootfs/opt/ol/helpers"

say "importing the root file system"
tar -C "$rootfs" -c . | podman import -q \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/ol/wlp/bin:/opt/ol/helpers/build' \
    --change "ENV JAVA_HOME=/usr/lib/jvm/java-$java-openjdk-amd64" \
    --change 'ENV LOG_DIR=/logs' --change 'ENV WLP_OUTPUT_DIR=/opt/ol/wlp/output' --change 'ENV WLP_SKIP_MAXPERMSIZE=true' \
    --change 'ENV RANDFILE=/tmp/.rnd' \
    --change 'USER 1001' --change 'EXPOSE 9080' --change 'EXPOSE 9443' \
    --change 'ENTRYPOINT ["/opt/ol/helpers/runtime/docker-server.sh"]' \
    --change 'CMD ["/opt/ol/wlp/bin/server", "run", "defaultServer"]' \
    - "$image" >&2
mkdir -p "$(dirname "$archive")"
podman save -q -o "$archive.tmp" "$image" >&2
mv "$archive.tmp" "$archive"
say "built $image (cached in $archive)"
echo "$image"
