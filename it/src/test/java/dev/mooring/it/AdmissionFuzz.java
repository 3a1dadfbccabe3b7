package dev.mooring.it;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Malformed admission requests for the live server: random bytes, truncated and corrupted
 * reviews, wrong kinds and shapes, deep nesting, oversized bodies, wrong methods and content
 * types. Deterministic for a seed.
 */
final class AdmissionFuzz {

    /** One request: method, content type, body. */
    record Case(String description, String method, String contentType, byte[] body) {
    }

    private final Random random;
    private final String valid;

    AdmissionFuzz(long seed, String valid) {
        this.random = new Random(seed);
        this.valid = valid;
    }

    /** {@code count} cases, most of them malformed JSON bodies of the right method and type. */
    List<Case> cases(int count) {
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            cases.add(switch (i % 10) {
                case 0 -> json("random bytes", randomBytes(random.nextInt(2000)));
                case 1 -> json("truncated", valid.substring(0, random.nextInt(valid.length())).getBytes(StandardCharsets.UTF_8));
                case 2, 3 -> json("corrupted", corrupt(valid));
                case 4 -> json("wrong shape", utf8(wrongShape()));
                case 5 -> json("deep nesting", utf8("{\"request\":" + "[".repeat(1 + random.nextInt(200_000))));
                case 6 -> new Case("wrong content type", "POST", random.nextBoolean() ? "text/plain" : "application/yaml",
                        utf8(valid));
                case 7 -> new Case("wrong method", random.nextBoolean() ? "PUT" : "DELETE", "application/json", utf8(valid));
                case 8 -> json("wrong value types", utf8(valid.replace("\"uid\":\"fuzz\"", "\"uid\":" + random.nextInt())
                        .replace("\"dryRun\":false", "\"dryRun\":\"" + random.nextInt() + "\"")));
                default -> json("unicode and escapes", utf8(valid.replace("\"probe\"", "\"\\u0000\\ud800" + random.nextInt() + "\"")));
            });
        }
        for (int i = 0; i < 4; i++) {
            byte[] big = new byte[4 * 1024 * 1024 + 1 + random.nextInt(1024 * 1024)];
            java.util.Arrays.fill(big, (byte) ' ');
            cases.add(json("oversized", big));
        }
        return cases;
    }

    private String wrongShape() {
        String[] shapes = {
            valid.replace("admission.k8s.io/v1", "admission.k8s.io/v1beta1"),
            valid.replace("\"kind\":\"AdmissionReview\"", "\"kind\":\"Review\""),
            valid.replace("\"resource\":\"databases\"", "\"resource\":\"deployments\""),
            valid.replace("\"operation\":\"CREATE\"", "\"operation\":\"DELETE\""),
            valid.replace("\"operation\":\"CREATE\"", "\"operation\":\"CONNECT\""),
            valid.replace("\"kind\":\"Database\"}", "\"kind\":\"Table\"}"),
            valid.replace("\"uid\":\"fuzz\",", ""),
            valid.replace("\"object\":{", "\"object\":[{").replace("}}}}", "}}]}}"),
            valid.replace("\"object\":{", "\"oldObject\":{"),
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":null}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":\"text\"}",
            valid.replace("\"storageGb\":5", "\"storageGb\":\"five\""),
            valid.replace("\"storageGb\":5", "\"storageGb\":1e400"),
            "[]", "null", "0", "\"x\"", "{}",
        };
        return shapes[random.nextInt(shapes.length)];
    }

    private byte[] corrupt(String text) {
        byte[] bytes = utf8(text);
        int edits = 1 + random.nextInt(8);
        for (int i = 0; i < edits; i++) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static Case json(String description, byte[] body) {
        return new Case(description, "POST", "application/json", body);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** An HTTP client that trusts the testbed's CA (the webhook certificate's issuer) and presents the API server's webhook client certificate. */
    static HttpClient client() throws Exception {
        return client(Path.of(System.getProperty("mooring.it.webhook.client")));
    }

    /**
     * An HTTP client that trusts the testbed's CA and presents the client certificate
     * {@code client.crt}/{@code client.key} of {@code identity}, or none when it is null.
     */
    static HttpClient client(Path identity) throws Exception {
        return HttpClient.newBuilder().sslContext(sslContext(identity)).connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).build();
    }

    /** A TLS context that trusts the testbed's CA and presents {@code identity}'s client certificate, or none when it is null. */
    static SSLContext sslContext(Path identity) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        byte[] ca = Files.readAllBytes(Path.of(Testbed.env().getProperty("TESTBED_CA_FILE")));
        trust.setCertificateEntry("testbed", CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(ca)));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        javax.net.ssl.KeyManager[] keys = null;
        if (identity != null) {
            KeyStore own = KeyStore.getInstance("PKCS12");
            own.load(null, null);
            java.security.cert.Certificate certificate = CertificateFactory.getInstance("X.509")
                    .generateCertificate(Files.newInputStream(identity.resolve("client.crt")));
            String pem = Files.readString(identity.resolve("client.key")).replaceAll("-----[A-Z ]+-----|\\s", "");
            java.security.PrivateKey key = java.security.KeyFactory.getInstance("RSA")
                    .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(java.util.Base64.getDecoder().decode(pem)));
            own.setKeyEntry("client", key, new char[0], new java.security.cert.Certificate[] {certificate});
            javax.net.ssl.KeyManagerFactory keyFactory = javax.net.ssl.KeyManagerFactory.getInstance("PKIX");
            keyFactory.init(own, new char[0]);
            keys = keyFactory.getKeyManagers();
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, factory.getTrustManagers(), null);
        return context;
    }

    /** An AdmissionReview of creating ConfigMap {@code namespace/name}, with uid {@code name}, as the API server sends it. */
    static String configMapCreateReview(String name, String namespace) {
        String object = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\""
                + namespace + "\"}}";
        String gvk = "{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"}";
        String gvr = "{\"group\":\"\",\"version\":\"v1\",\"resource\":\"configmaps\"}";
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"" + name
                + "\",\"kind\":" + gvk + ",\"resource\":" + gvr + ",\"requestKind\":" + gvk + ",\"requestResource\":" + gvr
                + ",\"name\":\"" + name + "\",\"namespace\":\"" + namespace + "\",\"operation\":\"CREATE\",\"userInfo\":{\"username\":"
                + "\"tester\"},\"object\":" + object + ",\"dryRun\":false}}";
    }

    static HttpResponse<String> send(HttpClient client, URI uri, Case request) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20))
                .method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.body()));
        if (request.contentType() != null) {
            builder.header("Content-Type", request.contentType());
        }
        return client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }
}
