package dev.mooring.runtime;

import dev.mooring.engine.certificates.PemKeys;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.credentials.Authentication;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;

/**
 * Authentication by the client certificate of a kubeconfig's user, read by the JDK.
 *
 * <p>client-java reads a kubeconfig's client key with BouncyCastle, whose provider and parsers
 * take about half a second to load at every start of the operator. A user who authenticates with
 * a client certificate and key alone (PEM: PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted) is
 * authenticated here instead; any other user (a token, an exec plugin, an auth provider, a
 * password, or a key the JDK cannot read) is left to client-java, unchanged.
 */
final class ClientCertificate {

    private static final Set<String> OTHER_CREDENTIALS = Set.of("token", "tokenFile", "exec", "auth-provider", "username",
            "password");
    private static final char[] STORE_PASSWORD = "mooring-client".toCharArray();

    private ClientCertificate() {
    }

    /** The authentication of the current context's user, when it is a client certificate alone. */
    static Optional<Authentication> of(KubeConfig kubeconfig) throws IOException {
        Map<?, ?> user = currentUser(kubeconfig);
        if (user == null || user.keySet().stream().anyMatch(OTHER_CREDENTIALS::contains)) {
            return Optional.empty();
        }
        byte[] certificate = kubeconfig.getDataOrFileRelative(kubeconfig.getClientCertificateData(),
                kubeconfig.getClientCertificateFile());
        byte[] key = kubeconfig.getDataOrFileRelative(kubeconfig.getClientKeyData(), kubeconfig.getClientKeyFile());
        if (certificate == null || key == null) {
            return Optional.empty();
        }
        KeyManagerFactory keys;
        try {
            List<X509Certificate> chain = PemKeys.certificates(certificate, "the kubeconfig's client certificate");
            PrivateKey privateKey = PemKeys.privateKey(key, "the kubeconfig's client key");
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("client", privateKey, STORE_PASSWORD, chain.toArray(new Certificate[0]));
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, STORE_PASSWORD);
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return Optional.empty(); // client-java reads it, or says what is wrong with it
        }
        return Optional.of(client -> client.setKeyManagers(keys.getKeyManagers()));
    }

    /** The {@code user} map of the current context's user, or null. */
    private static Map<?, ?> currentUser(KubeConfig kubeconfig) {
        String context = kubeconfig.getCurrentContext();
        Object userName = named(kubeconfig.getContexts(), context, "context") instanceof Map<?, ?> map ? map.get("user") : null;
        return userName instanceof String name && named(kubeconfig.getUsers(), name, "user") instanceof Map<?, ?> user ? user : null;
    }

    private static Object named(List<Object> entries, String name, String member) {
        if (entries == null || name == null) {
            return null;
        }
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> map && name.equals(map.get("name"))) {
                return map.get(member);
            }
        }
        return null;
    }
}
