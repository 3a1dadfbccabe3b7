package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1ServicePort;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A copy equals what client-java's JSON makes of the original, and shares nothing mutable with it. */
class ModelCopierTest {

    @CustomResource(group = "test.mooring.dev", version = "v1")
    public static class Gadget extends CustomObject {
        public Spec spec;
        public Map<String, Object> extra;
        public TreeMap<String, String> sorted;
        public int count;
        public boolean on;
        public final List<String> tags = new ArrayList<>();
        /** JSON leaves it out: a copy that keeps it was made field by field. */
        public transient String note;

        public static class Spec {
            public String name;
            public Long size;
            public IntOrString port;
            public List<Spec> parts;
        }
    }

    /** A record has no no-argument constructor: JSON copies it. */
    public record Pair(String left, String right) {
    }

    @CustomResource(group = "test.mooring.dev", version = "v1")
    public static class Holder extends CustomObject {
        public Pair pair;
    }

    @Test
    void aDeploymentCopiesToTheSameJsonAndSharesNothingMutable() {
        V1Container container = new V1Container().name("web").image("web:1")
                .ports(new ArrayList<>(List.of(new V1ContainerPort().containerPort(8080))))
                .resources(new V1ResourceRequirements().limits(new HashMap<>(Map.of("cpu", new Quantity("500m")))));
        V1ObjectMeta metadata = new V1ObjectMeta().name("web").namespace("ns").uid("u-1").resourceVersion("7")
                .creationTimestamp(OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC))
                .labels(new HashMap<>(Map.of("app", "web")))
                .ownerReferences(new ArrayList<>(List.of(new V1OwnerReference().apiVersion("v1").kind("Thing").name("t")
                        .uid("u-0").controller(true))));
        V1Deployment deployment = new V1Deployment().apiVersion("apps/v1").kind("Deployment").metadata(metadata)
                .spec(new V1DeploymentSpec().replicas(3)
                        .template(new V1PodTemplateSpec().spec(new V1PodSpec().containers(new ArrayList<>(List.of(container))))));

        V1Deployment copy = ModelCopier.copy(deployment);

        assertEquals(JSON.serialize(deployment), JSON.serialize(copy));
        assertEquals(deployment, copy);
        copy.getMetadata().getLabels().put("app", "changed");
        copy.getMetadata().getOwnerReferences().get(0).setName("other");
        copy.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("web:2");
        copy.getSpec().setReplicas(1);
        assertEquals("web", deployment.getMetadata().getLabels().get("app"));
        assertEquals("t", deployment.getMetadata().getOwnerReferences().get(0).getName());
        assertEquals("web:1", deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(3, deployment.getSpec().getReplicas());
    }

    @Test
    void binaryDataIsCopiedNotShared() {
        V1ConfigMap map = new V1ConfigMap().metadata(new V1ObjectMeta().name("m"))
                .binaryData(new HashMap<>(Map.of("b", new byte[] {1, 2, 3})));

        V1ConfigMap copy = ModelCopier.copy(map);

        assertNotSame(map.getBinaryData().get("b"), copy.getBinaryData().get("b"));
        assertArrayEquals(new byte[] {1, 2, 3}, copy.getBinaryData().get("b"));
        copy.getBinaryData().get("b")[0] = 9;
        assertEquals(1, map.getBinaryData().get("b")[0]);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCustomResourceWithNestedPartsFreeFormFieldsAndPrimitivesCopies() {
        Gadget gadget = new Gadget();
        gadget.setMetadata(new V1ObjectMeta().name("g"));
        gadget.spec = new Gadget.Spec();
        gadget.spec.name = "outer";
        gadget.spec.size = 5L;
        gadget.spec.port = new IntOrString("http");
        Gadget.Spec part = new Gadget.Spec();
        part.name = "inner";
        gadget.spec.parts = new ArrayList<>(List.of(part));
        gadget.extra = new HashMap<>(Map.of("list", new ArrayList<>(List.of(1.0, "two")), "map", new HashMap<>(Map.of("k", "v"))));
        gadget.sorted = new TreeMap<>(Map.of("b", "2", "a", "1"));
        gadget.count = 4;
        gadget.on = true;
        gadget.tags.add("x");
        gadget.note = "kept";

        Gadget copy = ModelCopier.copy(gadget);

        assertEquals(JSON.serialize(gadget), JSON.serialize(copy));
        assertEquals("kept", copy.note);
        assertEquals(4, copy.count);
        assertEquals(true, copy.on);
        assertSame(gadget.spec.port, copy.spec.port, "immutable values are shared");
        copy.spec.parts.get(0).name = "changed";
        ((Map<String, Object>) copy.extra.get("map")).put("k", "changed");
        ((List<Object>) copy.extra.get("list")).add("three");
        copy.tags.add("y");
        assertEquals("inner", gadget.spec.parts.get(0).name);
        assertEquals("v", ((Map<?, ?>) gadget.extra.get("map")).get("k"));
        assertEquals(2, ((List<?>) gadget.extra.get("list")).size());
        assertEquals(List.of("x"), gadget.tags);
        assertEquals(TreeMap.class, copy.sorted.getClass());
        copy.sorted.put("c", "3");
        assertEquals(2, gadget.sorted.size());
    }

    @Test
    void whatItCannotCopyFieldByFieldGoesThroughJson() {
        Holder holder = new Holder();
        holder.setMetadata(new V1ObjectMeta().name("h"));
        holder.pair = new Pair("l", "r");

        Holder copy = ModelCopier.copy(holder);

        assertEquals(holder.pair, copy.pair);
        assertEquals("h", copy.getMetadata().getName());
        assertNull(ModelCopier.copy((Object) null));
        V1ServicePort port = new V1ServicePort().port(80).targetPort(new IntOrString(8080));
        assertEquals(port, ModelCopier.copy(port));
    }
}
