package dev.mooring.engine.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WrittenVersionsTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);
    private static final String MAPS = WrittenVersions.kindKey("", "ConfigMap");

    private final List<Informer<?>> informers = new CopyOnWriteArrayList<>();
    private final AtomicLong clock = new AtomicLong(TimeUnit.HOURS.toNanos(3));
    private final WrittenVersions written = new WrittenVersions(() -> informers, clock::get);

    private static JsonObject answer(String apiVersion, String kind, String namespace, String name, String version, String labels) {
        return JsonParser.parseString("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"metadata\":{"
                + (namespace == null ? "" : "\"namespace\":\"" + namespace + "\",") + "\"name\":\"" + name + "\""
                + (version == null ? "" : ",\"resourceVersion\":\"" + version + "\"")
                + (labels == null ? "" : ",\"labels\":" + labels) + "}}").getAsJsonObject();
    }

    @Test
    void anAnswerRecordsTheHighestVersionOfItsObjectWhateverTheApiVersion() {
        written.answered(answer("apps/v1", "Deployment", "ops", "web", "12", "{\"tier\":\"front\"}"));
        written.answered(answer("apps/v1beta2", "Deployment", "ops", "web", "9", null)); // an older answer, arriving late
        WrittenVersions.Write write = written.pending(WrittenVersions.kindKey("apps", "Deployment"), new ObjectKey("ops", "web"));
        assertEquals(12, write.version());
        assertEquals(Map.of("tier", "front"), write.labels());
        written.answered(answer("apps/v1", "Deployment", "ops", "web", "15", null));
        assertEquals(15, written.pending(WrittenVersions.kindKey("apps", "Deployment"), new ObjectKey("ops", "web")).version());
        written.answered(answer("v1", "Namespace", null, "team-a", "3", null));
        assertEquals(3, written.pending(WrittenVersions.kindKey("", "Namespace"), new ObjectKey(null, "team-a")).version(),
                "a cluster-scoped object, in the core group");
    }

    @Test
    void aWriteKnowsItsControllerOwner() {
        written.answered(JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"namespace\":\"ops\","
                + "\"name\":\"child\",\"resourceVersion\":\"4\",\"ownerReferences\":[{\"uid\":\"u-other\"},"
                + "{\"uid\":\"u-owner\",\"controller\":true}]}}").getAsJsonObject());
        written.answered(answer("v1", "ConfigMap", "ops", "orphan", "5", null));
        assertEquals("u-owner", written.pending(MAPS, new ObjectKey("ops", "child")).controllerUid());
        assertNull(written.pending(MAPS, new ObjectKey("ops", "orphan")).controllerUid());
    }

    @Test
    void answersThatAreNoCachedObjectAreIgnored() {
        written.answered(answer("v1", "Status", null, "web", "12", null));
        written.answered(answer("v1", "ConfigMap", "ops", "web", null, null));
        written.answered(answer("v1", "ConfigMap", "ops", "web", "abc", null));
        written.answered(answer("v1", "ConfigMap", "ops", "web", "0", null));
        written.answered(JsonParser.parseString("{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\",\"resourceVersion\":\"1\"}}")
                .getAsJsonObject());
        written.answered(JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"resourceVersion\":\"1\"}}")
                .getAsJsonObject());
        written.answered(JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":[]}").getAsJsonObject());
        assertEquals(0, written.size());
    }

    @Test
    void aListWaitsForThePendingWritesOfItsNamespaceOrOfAll() {
        written.answered(answer("v1", "ConfigMap", "ops", "a", "5", null));
        written.answered(answer("v1", "ConfigMap", "dev", "b", "6", null));
        assertEquals(List.of("a"), written.pending(MAPS, "ops").stream().map(write -> write.key().name()).toList());
        assertEquals(2, written.pending(MAPS, (String) null).size());
        assertEquals(List.of(), written.pending(WrittenVersions.kindKey("", "Secret"), (String) null));
    }

    @Test
    void aWriteGoesOnceEveryInformerOfItsKindDeliveredItOrCannotHoldIt() {
        Informer<V1ConfigMap> all = informer(null, null);
        Informer<V1ConfigMap> labelled = informer("ops", "tier=front");
        informers.addAll(List.of(all, labelled));
        written.answered(answer("v1", "ConfigMap", "ops", "web", "5", "{\"tier\":\"back\"}"));
        written.answered(answer("v1", "ConfigMap", "dev", "db", "6", "{\"tier\":\"front\"}"));
        written.prune(MAPS);
        assertEquals(2, written.size(), "the informer of every namespace has not delivered them");

        all.seen().applied("5");
        written.prune(MAPS);
        assertNull(written.pending(MAPS, new ObjectKey("ops", "web")),
                "delivered to the informer of all; the labelled one's selector does not take it");
        assertEquals(6, written.pending(MAPS, new ObjectKey("dev", "db")).version(), "not delivered yet");

        all.seen().applied("6");
        written.prune(MAPS);
        assertEquals(0, written.size(), "the labelled informer watches ops only");
    }

    @Test
    void aWriteNoInformerDeliversGoesAfterTheHorizonAndOneOfAKindNobodyCachesAtOnce() {
        informers.add(informer(null, null));
        written.answered(answer("v1", "ConfigMap", "ops", "web", "5", null));
        written.answered(answer("events.k8s.io/v1", "Event", "ops", "web.1", "6", null));
        written.prune(WrittenVersions.kindKey("events.k8s.io", "Event"));
        assertNull(written.pending(WrittenVersions.kindKey("events.k8s.io", "Event"), new ObjectKey("ops", "web.1")));
        clock.addAndGet(WrittenVersions.HORIZON_NANOS / 2);
        written.answered(answer("v1", "ConfigMap", "ops", "web", "5", null)); // the same version answered again (an unchanged apply)
        clock.addAndGet(WrittenVersions.HORIZON_NANOS / 2 + 1);
        written.prune(MAPS);
        assertEquals(1, written.size(), "its horizon counts from the last answer");
        clock.addAndGet(WrittenVersions.HORIZON_NANOS / 2 - 1);
        written.prune(MAPS);
        assertEquals(1, written.size(), "at the horizon");
        clock.addAndGet(1);
        written.prune(MAPS);
        assertEquals(0, written.size(), "past it");
    }

    @Test
    void everyFewWritesOfAKindPruneIt() {
        for (int i = 1; i < WrittenVersions.PRUNE_EVERY; i++) {
            written.answered(answer("v1", "ConfigMap", "ops", "m" + i, Integer.toString(i), null));
        }
        assertEquals(WrittenVersions.PRUNE_EVERY - 1, written.size(), "no informer of the kind, but no prune yet");
        written.answered(answer("v1", "ConfigMap", "ops", "last", "999", null));
        assertEquals(0, written.size(), "pruned: no informer would hold them");
    }

    private static Informer<V1ConfigMap> informer(String namespace, String labels) {
        KubeHttp http = new KubeHttp(new ApiClient().setBasePath("http://api.invalid"));
        return new Informer<>(http, http, CONFIG_MAPS, namespace, labels, Duration.ofSeconds(1));
    }
}
