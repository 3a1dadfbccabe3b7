package dev.mooring.engine.replica;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Writes are checked against the shard of the key the current thread passes, and only during its pass. */
class ShardGuardTest {

    private final Set<String> writable = new java.util.concurrent.CopyOnWriteArraySet<>(Set.of("mine"));
    private final ShardGuard guard = new ShardGuard(key -> true, key -> writable.contains(key.name()));

    @Test
    void aPassWritesWhileItsKeysShardIsFreshAndNoLonger() {
        try (ShardGuard.Passing passing = guard.passing(new ObjectKey("default", "mine"))) {
            assertTrue(guard.writesAllowed());
            writable.clear(); // the shard's Lease went stale or is being released
            assertFalse(guard.writesAllowed());
        }
        assertTrue(guard.writesAllowed(), "outside a pass nothing is checked");
    }

    @Test
    void aGuardedClientSendsNoWriteOfAPassWhoseShardWentStale() {
        java.util.List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.kubernetes.client.openapi.ApiClient client = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new okhttp3.OkHttpClient.Builder().addInterceptor(chain -> {
            sent.add(chain.request().method());
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(200).message("ok")
                    .body(okhttp3.ResponseBody.create("{}", okhttp3.MediaType.get("application/json"))).build();
        }).build());
        dev.mooring.engine.kube.KubeHttp http = guard.guard(new dev.mooring.engine.kube.KubeHttp(client));
        String path = "/api/v1/namespaces/default/configmaps/theirs";
        try (ShardGuard.Passing passing = guard.passing(new ObjectKey("default", "theirs"))) {
            org.junit.jupiter.api.Assertions.assertThrows(dev.mooring.engine.kube.KubeHttp.WriteRefused.class,
                    () -> http.send("PUT", path, java.util.Map.of(), "{}", "application/json", java.time.Duration.ofSeconds(5)));
        }
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), sent, "nothing sent");
        http.send("PUT", path, java.util.Map.of(), "{}", "application/json", java.time.Duration.ofSeconds(5));
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of("PUT"), sent, "outside a pass the write goes");
    }

    @Test
    void theKeyBelongsToThePassingThreadOnly() throws Exception {
        try (ShardGuard.Passing passing = guard.passing(new ObjectKey("default", "theirs"))) {
            assertFalse(guard.writesAllowed());
            assertTrue(CompletableFuture.supplyAsync(guard::writesAllowed).get(), "another thread passes nothing");
        }
    }
}
