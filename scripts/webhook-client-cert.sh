#!/usr/bin/env bash
# The API server's client certificate for calling admission webhooks, made with openssl, and the
# API server configuration that presents it.
#
#   scripts/webhook-client-cert.sh OUT_DIR [CA_CRT CA_KEY]
#
# Writes, in OUT_DIR:
#   client.crt, client.key          the client certificate (CN=kube-apiserver-webhook-client) and key
#   ca.crt (and ca.key)             its CA: CA_CRT/CA_KEY, or a new CA. Give ca.crt to Mooring as
#                                   mooring.webhook.tls.client-ca-file, with mooring.webhook.tls.client-auth=true
#   webhook-client.kubeconfig       presents client.crt to every webhook ("*")
#   admission-config.yaml           AdmissionConfiguration for both webhook plugins; start the API
#                                   server with --admission-control-config-file=OUT_DIR/admission-config.yaml
# Existing files are kept.
set -euo pipefail

[ $# -eq 1 ] || [ $# -eq 3 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/ca.sh"
use_ca "$out" mooring-webhook-client-ca "${@:2}"
if [ ! -f "$out/client.crt" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    openssl req -newkey rsa:2048 -nodes -keyout "$tmp/client.key" -out "$tmp/client.csr" \
        -subj "/CN=kube-apiserver-webhook-client" 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' > "$tmp/ext"
    openssl x509 -req -in "$tmp/client.csr" -CA "$ca_crt" -CAkey "$ca_key" -CAcreateserial -CAserial "$tmp/ca.srl" \
        -out "$tmp/client.crt" -days 825 -extfile "$tmp/ext" 2>/dev/null
    mv "$tmp/client.key" "$out/client.key"
    mv "$tmp/client.crt" "$out/client.crt"
fi
cat > "$out/webhook-client.kubeconfig" <<EOF
apiVersion: v1
kind: Config
users:
- name: "*"
  user:
    client-certificate: $out/client.crt
    client-key: $out/client.key
EOF
cat > "$out/admission-config.yaml" <<EOF
apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ValidatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: $out/webhook-client.kubeconfig
- name: MutatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: $out/webhook-client.kubeconfig
EOF
echo "$out"
