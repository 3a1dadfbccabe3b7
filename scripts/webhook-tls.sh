#!/usr/bin/env bash
# A serving certificate for Mooring's admission webhooks, made with openssl.
#
#   scripts/webhook-tls.sh OUT_DIR SERVICE NAMESPACE [CA_CRT CA_KEY]
#
# Writes OUT_DIR/tls.crt and OUT_DIR/tls.key (PEM, the layout of a Kubernetes TLS Secret), valid
# for SERVICE.NAMESPACE.svc (what the API server checks for a service reference), its
# .cluster.local form, localhost and 127.0.0.1, signed by CA_CRT/CA_KEY, or by a new CA written
# to OUT_DIR/ca.crt and OUT_DIR/ca.key. OUT_DIR/ca.crt is the caBundle of the webhook
# configurations (MOORING_WEBHOOK_CA_FILE). Existing files are kept.
set -euo pipefail

[ $# -eq 3 ] || [ $# -eq 5 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
out=$1 service=$2 namespace=$3
mkdir -p "$out"
. "$(dirname "${BASH_SOURCE[0]}")/ca.sh"
use_ca "$out" mooring-webhook-ca "${@:4}"
if [ ! -f "$out/tls.crt" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    openssl req -newkey rsa:2048 -nodes -keyout "$tmp/tls.key" -out "$tmp/tls.csr" \
        -subj "/CN=$service.$namespace.svc" 2>/dev/null
    printf 'subjectAltName=DNS:%s.%s.svc,DNS:%s.%s.svc.cluster.local,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' \
        "$service" "$namespace" "$service" "$namespace" > "$tmp/ext"
    openssl x509 -req -in "$tmp/tls.csr" -CA "$ca_crt" -CAkey "$ca_key" -CAcreateserial -CAserial "$tmp/ca.srl" \
        -out "$tmp/tls.crt" -days 825 -extfile "$tmp/ext" 2>/dev/null
    mv "$tmp/tls.key" "$out/tls.key"
    mv "$tmp/tls.crt" "$out/tls.crt"
fi
echo "$out"
