package dev.mooring.engine.certificates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only chains to a CA of the client CA file are admitted: the webhook's own serving certificate
 * (another CA, serverAuth only), which Liberty's handshake accepts because its key store is also
 * its trust store, is refused. Certificates made with openssl, as the scripts make them.
 */
class ClientTrustTest {

    @TempDir
    Path dir;

    private Path clientCa;
    private X509Certificate caCertificate;

    @BeforeEach
    void certificates() throws Exception {
        clientCa = ca("client-ca");
        caCertificate = PemKeys.certificates(Files.readAllBytes(clientCa.resolve("ca.crt")), "ca").get(0);
        ca("serving-ca");
        leaf("client-ca", "client", "clientAuth");
        leaf("client-ca", "server-usage", "serverAuth");
        leaf("serving-ca", "serving", "serverAuth");
        leaf("serving-ca", "stranger", "clientAuth");
    }

    @Test
    void aClientOfTheCaIsAdmittedWithOrWithoutTheCaInItsChain() throws Exception {
        ClientTrust trust = trust();
        assertNull(trust.refusal(chain("client")));
        assertNull(trust.refusal(new X509Certificate[] {chain("client")[0], caCertificate}));
    }

    @Test
    void theServingCertificateAndOtherCasAreRefused() throws Exception {
        ClientTrust trust = trust();
        assertEquals("the client certificate is not for TLS clients (no clientAuth extended key usage)",
                trust.refusal(chain("serving")));
        assertEquals("the client certificate does not lead to a CA of mooring.webhook.tls.client-ca-file",
                trust.refusal(chain("stranger")));
        assertEquals("the client certificate is not for TLS clients (no clientAuth extended key usage)",
                trust.refusal(chain("server-usage")));
        assertEquals("no client certificate was presented", trust.refusal(null));
        assertEquals("no client certificate was presented", trust.refusal(new X509Certificate[0]));
        assertEquals("the client certificate is a CA certificate, not a client's", trust.refusal(new X509Certificate[] {caCertificate}));
    }

    @Test
    void aRotatedCaFileIsReadAgainAndAnUnreadableOneRefusesAll() throws Exception {
        ClientTrust trust = trust();
        assertNull(trust.refusal(chain("client")));
        Files.copy(dir.resolve("serving-ca/ca.crt"), dir.resolve("clients.pem"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        trust.refresh();
        assertTrue(trust.refusal(chain("client")) != null, "the old CA is no longer trusted");
        assertNull(trust.refusal(chain("stranger")), "the new CA is");
        Files.writeString(dir.resolve("clients.pem"), "not PEM");
        trust.refresh();
        String refusal = trust.refusal(chain("stranger"));
        assertTrue(refusal.startsWith("the client CA file " + dir.resolve("clients.pem") + " cannot be read"), refusal);
    }

    @Test
    void anyAdmitsWithoutCertificateAndRefusingRefusesAll() throws Exception {
        assertNull(ClientTrust.ANY.refusal(null));
        assertEquals("why", ClientTrust.refusing("why").refusal(chain("client")));
        org.junit.jupiter.api.Assertions.assertFalse(ClientTrust.ANY.required(), "no CA file: certificates are not asked for");
        org.junit.jupiter.api.Assertions.assertFalse(ClientTrust.refusing("why").required());
        org.junit.jupiter.api.Assertions.assertTrue(trust().required());
    }

    private ClientTrust trust() throws IOException {
        Files.copy(clientCa.resolve("ca.crt"), dir.resolve("clients.pem"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ClientTrust trust = new ClientTrust(dir.resolve("clients.pem"));
        trust.refresh();
        return trust;
    }

    private X509Certificate[] chain(String name) throws Exception {
        return PemKeys.certificates(Files.readAllBytes(dir.resolve(name + ".crt")), name).toArray(new X509Certificate[0]);
    }

    private Path ca(String name) throws Exception {
        Path ca = Files.createDirectories(dir.resolve(name));
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca.resolve("ca.key").toString(), "-out",
                ca.resolve("ca.crt").toString(), "-days", "1", "-subj", "/CN=" + name, "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign");
        return ca;
    }

    private void leaf(String ca, String name, String usage) throws Exception {
        Path key = dir.resolve(name + ".key");
        Path request = dir.resolve(name + ".csr");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", request.toString(), "-subj", "/CN=" + name);
        Path extensions = dir.resolve(name + ".ext");
        Files.writeString(extensions, "extendedKeyUsage=" + usage + "\n");
        openssl("x509", "-req", "-in", request.toString(), "-CA", dir.resolve(ca + "/ca.crt").toString(), "-CAkey",
                dir.resolve(ca + "/ca.key").toString(), "-CAcreateserial", "-out", dir.resolve(name + ".crt").toString(), "-days", "1",
                "-extfile", extensions.toString());
    }

    private static void openssl(String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor(), command + ": " + output);
    }
}
