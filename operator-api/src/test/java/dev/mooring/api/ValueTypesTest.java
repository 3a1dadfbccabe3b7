package dev.mooring.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.admission.FailurePolicy;
import dev.mooring.api.admission.UserInfo;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The author API's small value types: what each accepts, refuses and answers. */
class ValueTypesTest {

    @Test
    void anObjectKeyNeedsANameAndANamespaceThatIsNullOrNotBlank() {
        assertEquals("ops/web", new ObjectKey("ops", "web").toString());
        assertEquals("node-1", new ObjectKey(null, "node-1").toString(), "cluster scope: the name alone");
        for (String name : new String[] {null, "", " "}) {
            assertEquals("An object key needs a name", assertThrows(IllegalArgumentException.class, () -> new ObjectKey("ops", name))
                    .getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new ObjectKey(" ", "web"));
        assertEquals(new ObjectKey("ops", "web"), ObjectKey.of(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("web"))));
        assertEquals(new ObjectKey(null, "n"), ObjectKey.of(new V1ConfigMap().metadata(new V1ObjectMeta().name("n"))));
        assertEquals("An object key needs metadata.name", assertThrows(IllegalArgumentException.class,
                () -> ObjectKey.of(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops")))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ObjectKey.of(new V1ConfigMap()));
        assertThrows(NullPointerException.class, () -> ObjectKey.of(null));
    }

    @Test
    void partialObjectMetadataIsAValueOfItsKindAndMetadata() {
        V1ObjectMeta meta = new V1ObjectMeta().namespace("ops").name("a");
        PartialObjectMetadata partial = new PartialObjectMetadata("v1", "ConfigMap", meta);
        assertEquals("v1", partial.getApiVersion());
        assertEquals("ConfigMap", partial.getKind());
        assertSame(meta, partial.getMetadata());
        assertEquals(partial, new PartialObjectMetadata("v1", "ConfigMap", new V1ObjectMeta().namespace("ops").name("a")));
        assertEquals(partial.hashCode(), new PartialObjectMetadata("v1", "ConfigMap", new V1ObjectMeta().namespace("ops").name("a")).hashCode());
        assertNotEquals(0, partial.hashCode());
        assertNotEquals(partial, new PartialObjectMetadata("v2", "ConfigMap", meta));
        assertNotEquals(partial, new PartialObjectMetadata("v1", "Secret", meta));
        assertNotEquals(partial, new PartialObjectMetadata("v1", "ConfigMap", new V1ObjectMeta().name("b")));
        assertNotEquals(partial, "ConfigMap ops/a");
        assertEquals("ConfigMap ops/a (metadata only)", partial.toString());
        assertEquals("Node  (metadata only)", new PartialObjectMetadata("v1", "Node", null).toString());
    }

    @Test
    void aResultIsDoneOrARequeueAfterANonNegativeDelay() {
        assertEquals(Optional.empty(), Result.done().requeueAfter());
        assertEquals("Result.done()", Result.done().toString());
        Result later = Result.requeueAfter(Duration.ofSeconds(5));
        assertEquals(Optional.of(Duration.ofSeconds(5)), later.requeueAfter());
        assertEquals("Result.requeueAfter(PT5S)", later.toString());
        assertEquals(later, Result.requeueAfter(Duration.ofSeconds(5)));
        assertEquals(later.hashCode(), Result.requeueAfter(Duration.ofSeconds(5)).hashCode());
        assertNotEquals(0, later.hashCode());
        assertNotEquals(later, Result.requeueAfter(Duration.ofSeconds(6)));
        assertNotEquals(later, Result.done());
        assertNotEquals(later, "PT5S");
        assertEquals(Optional.of(Duration.ZERO), Result.requeueAfter(Duration.ZERO).requeueAfter(), "zero: at once");
        assertThrows(IllegalArgumentException.class, () -> Result.requeueAfter(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> Result.requeueAfter(null));
    }

    @Test
    void aWaitHasAReasonAPositiveDelayAndItsMessageOrReason() {
        Wait wait = new Wait("DependencyNotReady", "the database is starting", Duration.ofSeconds(3));
        assertEquals("DependencyNotReady", wait.reason());
        assertEquals(Duration.ofSeconds(3), wait.after());
        assertEquals("the database is starting", wait.getMessage());
        assertEquals(Wait.DEFAULT_DELAY, new Wait("Later", "m").after());
        assertEquals("Later", new Wait("Later", null).getMessage(), "no message: the reason");
        assertEquals("Later", new Wait("Later", "").getMessage());
        for (String reason : new String[] {null, "", " "}) {
            assertThrows(IllegalArgumentException.class, () -> new Wait(reason, "m"));
        }
        assertThrows(IllegalArgumentException.class, () -> new Wait("Later", "m", Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new Wait("Later", "m", Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> new Wait("Later", "m", null));
    }

    @Test
    void userInfoIsNeverNullAndImmutable() {
        UserInfo empty = new UserInfo(null, null, null, null);
        assertEquals("", empty.username());
        assertEquals("", empty.uid());
        assertEquals(List.of(), empty.groups());
        assertEquals(Map.of(), empty.extra());
        List<String> groups = new ArrayList<>(List.of("system:masters"));
        UserInfo admin = new UserInfo("admin", "u-1", groups, Map.of("scopes", List.of("all")));
        groups.add("later");
        assertEquals(List.of("system:masters"), admin.groups(), "a copy");
        assertThrows(UnsupportedOperationException.class, () -> admin.groups().add("x"));
        assertEquals("admin", admin.username());
        assertEquals("u-1", admin.uid());
        assertEquals(Map.of("scopes", List.of("all")), admin.extra());
    }

    @Test
    void aFailurePolicyIsWrittenAsKubernetesSpellsIt() {
        assertEquals(List.of("Fail", "Ignore"), List.of(FailurePolicy.values()).stream().map(FailurePolicy::wireName).toList());
    }

    @CustomResource(group = "example.com", version = "v1")
    static class Plain extends CustomObject {
    }

    @Test
    void aCustomObjectsSetterReturnsTheObject() {
        CustomObject object = new Plain();
        V1ObjectMeta meta = new V1ObjectMeta().name("a");
        assertSame(object, object.setMetadata(meta));
        assertSame(meta, object.getMetadata());
    }
}
