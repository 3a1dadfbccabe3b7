package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.auth.ApiKeyAuth;
import org.junit.jupiter.api.Test;

/** The watch client is the request client with another read timeout: same server, credentials and connections. */
class KubernetesConnectionTest {

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
