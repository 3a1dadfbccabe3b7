package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.auth.ApiKeyAuth;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clients from a kubeconfig; the watch client is the request client with another read timeout. */
class KubernetesConnectionTest {

    @TempDir
    Path dir;

    /** A user with a client certificate alone is read by the JDK: BouncyCastle is never registered. */
    @Test
    void aClientCertificateUserIsReadWithoutBouncyCastle() throws Exception {
        Path key = dir.resolve("client.key");
        Path certificate = dir.resolve("client.crt");
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.toString());
        openssl("req", "-new", "-x509", "-key", key.toString(), "-subj", "/CN=operator", "-days", "1", "-out", certificate.toString());
        Path kubeconfig = kubeconfig("client-certificate-data: " + base64(certificate) + "\n      client-key-data: " + base64(key));

        ApiClient client = KubernetesConnection.fromKubeconfig(kubeconfig, 5_000);

        assertEquals("https://127.0.0.1:6443", client.getBasePath());
        assertEquals(1, client.getKeyManagers().length);
        javax.net.ssl.X509KeyManager keys = (javax.net.ssl.X509KeyManager) client.getKeyManagers()[0];
        assertEquals("CN=operator", keys.getCertificateChain("client")[0].getSubjectX500Principal().getName());
        assertEquals(null, java.security.Security.getProvider("BC"), "BouncyCastle was registered");
    }

    /** Any other user is client-java's: a token still becomes the bearer token. */
    @Test
    void aTokenUserIsLeftToClientJava() throws Exception {
        ApiClient client = KubernetesConnection.fromKubeconfig(kubeconfig("token: secret-token"), 5_000);

        ApiKeyAuth token = (ApiKeyAuth) client.getAuthentication("BearerToken");
        assertEquals("secret-token", token.getApiKey());
        assertEquals(5_000, client.getReadTimeout());
    }

    /** A relative certificate-authority path is the kubeconfig's folder's, not the working directory's. */
    @Test
    void aRelativeCertificateAuthorityIsReadBesideTheKubeconfig() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("elsewhere"));
        Path key = folder.resolve("ca.key");
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.toString());
        openssl("req", "-new", "-x509", "-key", key.toString(), "-subj", "/CN=cluster-ca", "-days", "1", "-out",
                folder.resolve("cluster-ca.crt").toString());
        Path file = folder.resolve("kubeconfig");
        Files.writeString(file, String.join("\n", "apiVersion: v1", "kind: Config", "clusters:", "- name: local", "  cluster:",
                "    server: https://127.0.0.1:6443", "    certificate-authority: cluster-ca.crt", "users:", "- name: operator",
                "  user:", "    token: t", "contexts:", "- name: local", "  context:", "    cluster: local", "    user: operator",
                "current-context: local", ""));
        assertTrue(Files.notExists(Path.of("cluster-ca.crt")), "no such file in the working directory");

        ApiClient client = KubernetesConnection.fromKubeconfig(file, 5_000);

        assertTrue(client.isVerifyingSsl());
        assertTrue(client.getSslCaCert() != null, "the CA beside the kubeconfig was read");
    }

    @Test
    void aKubeconfigWithoutACurrentContextFailsNamingTheFile() throws Exception {
        Path file = kubeconfig("token: secret-token");
        Files.writeString(file, Files.readString(file).replace("current-context: local\n", ""));

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> KubernetesConnection.fromKubeconfig(file, 5_000));

        assertEquals("The kubeconfig file " + file + " has no current-context: set one (kubectl config use-context NAME --kubeconfig "
                + file + ")", refused.getMessage());
    }

    @Test
    void aMissingKubeconfigFailsNamingTheFile() {
        Path file = dir.resolve("absent");
        assertEquals("The kubeconfig file " + file + " does not exist or is not readable",
                assertThrows(IllegalStateException.class, () -> KubernetesConnection.fromKubeconfig(file, 5_000)).getMessage());
    }

    private Path kubeconfig(String credentials) throws Exception {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, String.join("\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: local",
                "  cluster:",
                "    server: https://127.0.0.1:6443",
                "    insecure-skip-tls-verify: true",
                "users:",
                "- name: operator",
                "  user:",
                "      " + credentials,
                "contexts:",
                "- name: local",
                "  context:",
                "    cluster: local",
                "    user: operator",
                "current-context: local",
                ""));
        return file;
    }

    private static String base64(Path file) throws Exception {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
    }

    private static void openssl(String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), "openssl " + List.of(arguments) + ": " + output);
    }

    @Test
    void theWatchClientSharesServerCredentialsAndConnections() {
        ApiClient requests = new ApiClient().setBasePath("https://api.example:6443").setReadTimeout(10_000);
        requests.setApiKeyPrefix("Bearer");
        requests.setApiKey("token-1");

        ApiClient watches = KubernetesConnection.withReadTimeout(requests, 120_000);

        assertEquals("https://api.example:6443", watches.getBasePath());
        assertEquals(120_000, watches.getReadTimeout());
        assertEquals(10_000, requests.getReadTimeout());
        ApiKeyAuth token = (ApiKeyAuth) watches.getAuthentication("BearerToken");
        assertEquals("token-1", token.getApiKey());
        assertEquals("Bearer", token.getApiKeyPrefix());
        assertSame(requests.getHttpClient().connectionPool(), watches.getHttpClient().connectionPool());
        assertSame(requests.getHttpClient().sslSocketFactory(), watches.getHttpClient().sslSocketFactory());
    }
}
