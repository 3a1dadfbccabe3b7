# Sourced by the certificate scripts: sets ca_crt and ca_key to the CA that signs their certificates.
#
#   use_ca OUT_DIR COMMON_NAME [CA_CRT CA_KEY]
#
# With CA_CRT and CA_KEY, that CA (its certificate is copied to OUT_DIR/ca.crt once); otherwise
# OUT_DIR/ca.crt and OUT_DIR/ca.key, made with openssl (CN=COMMON_NAME) unless they exist.
use_ca() {
    local out=$1 name=$2
    if [ $# -eq 4 ]; then
        ca_crt=$3 ca_key=$4
        [ -f "$out/ca.crt" ] || cp "$ca_crt" "$out/ca.crt"
    else
        ca_crt=$out/ca.crt ca_key=$out/ca.key
        if [ ! -f "$ca_crt" ]; then
            openssl req -x509 -newkey rsa:2048 -nodes -keyout "$ca_key" -out "$ca_crt" -days 3650 \
                -subj "/CN=$name" 2>/dev/null
        fi
    fi
}
