package dev.mooring.manifests;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the webhook's serving certificate comes from ({@code --certificates}, Maven
 * {@code mooring.manifests.certificates}), and the cert-manager objects that make it in that mode.
 */
public final class Certificates {

    /** How the serving certificate and the configurations' CA bundle are provided. */
    public enum Mode {
        /** The operator makes its CA and certificate, in Secret {@code <name>-tls}, and writes the bundle (the default). */
        SELF_MANAGED,
        /** cert-manager issues the certificate into {@code <name>-tls} from a generated Certificate and injects the CA. */
        CERT_MANAGER,
        /** Someone else provides Secret {@code <name>-tls}; the bundle comes from {@code --ca-file} or {@code --inject-ca-from}. */
        GIVEN;

        /**
         * The mode a {@code --certificates} value names.
         *
         * @throws IllegalArgumentException naming the option and its Maven setting
         */
        public static Mode of(String value) {
            return switch (value) {
                case "self-managed" -> SELF_MANAGED;
                case "cert-manager" -> CERT_MANAGER;
                default -> throw new IllegalArgumentException(GenerateManifests.option("--certificates")
                        + " must be self-managed or cert-manager, not '" + value + "'");
            };
        }
    }

    private Certificates() {
    }

    /** The Secret the serving certificate is kept in. */
    public static String secretName(String name) {
        return name + "-tls";
    }

    /** The cert-manager Certificate of {@link Mode#CERT_MANAGER}. */
    public static String certificateName(String name) {
        return name + "-serving";
    }

    /**
     * cert-manager's objects: a self-signed {@code Issuer} (unless {@code issuer} names one) and the
     * {@code Certificate} for the webhook Service's DNS names, kept in {@link #secretName}, with a new
     * key at every renewal.
     *
     * @param issuer {@code Issuer/NAME} or {@code ClusterIssuer/NAME} to issue from, or null for a self-signed Issuer
     * @throws IllegalArgumentException naming {@code --issuer} and its Maven setting when it is not of that form
     */
    public static List<JsonObject> certManager(String name, String namespace, String issuer) {
        List<JsonObject> objects = new ArrayList<>();
        String issuerKind = "Issuer";
        String issuerName = name + "-selfsigned";
        if (issuer == null) {
            objects.add(Json.createObjectBuilder().add("apiVersion", "cert-manager.io/v1").add("kind", "Issuer")
                    .add("metadata", Json.createObjectBuilder().add("name", issuerName).add("namespace", namespace))
                    .add("spec", Json.createObjectBuilder().add("selfSigned", Json.createObjectBuilder())).build());
        } else {
            String[] parts = issuer.split("/", -1);
            if (parts.length != 2 || !(parts[0].equals("Issuer") || parts[0].equals("ClusterIssuer"))
                    || !parts[1].matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
                throw new IllegalArgumentException(GenerateManifests.option("--issuer") + " must be Issuer/NAME or ClusterIssuer/NAME,"
                        + " not '" + issuer + "'");
            }
            issuerKind = parts[0];
            issuerName = parts[1];
        }
        String service = name + "." + namespace + ".svc";
        objects.add(Json.createObjectBuilder().add("apiVersion", "cert-manager.io/v1").add("kind", "Certificate")
                .add("metadata", Json.createObjectBuilder().add("name", certificateName(name)).add("namespace", namespace))
                .add("spec", Json.createObjectBuilder()
                        .add("secretName", secretName(name))
                        .add("dnsNames", Json.createArrayBuilder().add(service).add(service + ".cluster.local"))
                        .add("usages", Json.createArrayBuilder().add("server auth").add("digital signature"))
                        .add("privateKey", Json.createObjectBuilder().add("algorithm", "ECDSA").add("size", 256)
                                .add("rotationPolicy", "Always"))
                        .add("issuerRef", Json.createObjectBuilder().add("name", issuerName).add("kind", issuerKind)
                                .add("group", "cert-manager.io")))
                .build());
        return objects;
    }
}
