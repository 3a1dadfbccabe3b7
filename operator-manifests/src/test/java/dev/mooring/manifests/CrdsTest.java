package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.PreserveUnknownFields;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.validation.constraints.Min;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CRDs from classes: each Java type and constraint to its schema keyword, versions, and the errors that name what cannot be. */
class CrdsTest {

    private static final JsonObject GADGET = Crds.of(List.of(Gadget.class)).get(0);

    private static JsonValue at(JsonObject object, String pointer) {
        return Json.createPointer(pointer).getValue(object);
    }

    private static JsonObject spec(String property) {
        return at(GADGET, "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/" + property).asJsonObject();
    }

    @Test
    void theCrdNamesTheKindItsVersionAndSubresources() {
        assertEquals("gadgets.example.com", at(GADGET, "/metadata/name").toString().replace("\"", ""));
        assertEquals(Json.createValue("Namespaced"), at(GADGET, "/spec/scope"));
        assertEquals(Json.createReader(new java.io.StringReader("{\"kind\":\"Gadget\",\"listKind\":\"GadgetList\",\"plural\":\"gadgets\","
                + "\"singular\":\"gadget\",\"shortNames\":[\"gd\"],\"categories\":[\"all\"]}")).readObject(), at(GADGET, "/spec/names"));
        assertEquals(JsonValue.TRUE, at(GADGET, "/spec/versions/0/storage"));
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, at(GADGET, "/spec/versions/0/subresources/status"));
        assertEquals("{\"specReplicasPath\":\".spec.replicas\",\"statusReplicasPath\":\".status.replicas\","
                + "\"labelSelectorPath\":\".status.selector\"}", at(GADGET, "/spec/versions/0/subresources/scale").toString());
        assertEquals(Json.createValue(".spec.replicas"), at(GADGET, "/spec/versions/0/additionalPrinterColumns/0/jsonPath"));
        assertEquals(Json.createValue(1), at(GADGET, "/spec/versions/0/additionalPrinterColumns/1/priority"));
        JsonObject root = at(GADGET, "/spec/versions/0/schema/openAPIV3Schema").asJsonObject();
        assertEquals(List.of("apiVersion", "kind", "metadata", "spec", "status"), List.copyOf(root.getJsonObject("properties").keySet()),
                "transient fields are not written by client-java's JSON, so not in the schema");
        assertEquals(Json.createObjectBuilder().add("type", "object").build(), root.getJsonObject("properties").get("metadata"));
    }

    @Test
    void typesMapAsClientJavasJsonWritesThem() {
        assertEquals("{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":1,\"maximum\":10}", spec("replicas").toString());
        assertEquals("{\"type\":\"string\",\"enum\":[\"slow\",\"fast\"]}", spec("speed").toString());
        assertEquals("{\"x-kubernetes-int-or-string\":true}", spec("max-size").toString(), "the @SerializedName, a Quantity");
        assertEquals("{\"x-kubernetes-int-or-string\":true}", spec("port").toString());
        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"x-kubernetes-list-type\":\"set\"}", spec("owners").toString());
        assertEquals("{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\",\"format\":\"int32\"},\"minProperties\":1}",
                spec("limits").toString());
        assertEquals("object", spec("parts").getJsonObject("additionalProperties").getString("type"));
        assertEquals("{\"type\":\"string\",\"format\":\"date-time\"}", spec("notBefore").toString());
        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"format\":\"int64\"}}", spec("checksums").toString());
        assertEquals("{\"type\":\"boolean\"}", spec("enabled").toString());
        JsonObject conditions = at(GADGET, "/spec/versions/0/schema/openAPIV3Schema/properties/status/properties/conditions").asJsonObject();
        assertEquals("map", conditions.getString("x-kubernetes-list-type"));
        assertTrue(conditions.getJsonObject("items").getJsonObject("properties").containsKey("lastTransitionTime"),
                "a client-java model is an object of its fields: " + conditions);
    }

    @Test
    void beanValidationAndMooringsAnnotationsBecomeSchemaKeywords() {
        JsonObject specSchema = at(GADGET, "/spec/versions/0/schema/openAPIV3Schema/properties/spec").asJsonObject();
        assertEquals("[\"model\",\"replicas\",\"tags\"]", specSchema.getJsonArray("required").toString());
        assertEquals("What the user asks for", specSchema.getString("description"));
        assertEquals("[{\"rule\":\"self.minReplicas <= self.replicas\",\"message\":\"replicas must not be below minReplicas\"}]",
                specSchema.getJsonArray("x-kubernetes-validations").toString());
        assertEquals(1, spec("model").getInt("minLength"));
        assertEquals("^[a-z]+$", spec("model").getString("pattern"), "@Pattern beats @NotBlank's own pattern");
        assertEquals("The gadget's model", spec("model").getString("description"));
        assertEquals(1, spec("minReplicas").getInt("default"));
        assertEquals("{\"type\":\"number\",\"maximum\":100.5,\"exclusiveMaximum\":true,\"minimum\":0,\"exclusiveMinimum\":true}",
                spec("weight").toString());
        assertEquals(1, spec("tags").getInt("minItems"));
        assertEquals(5, spec("tags").getInt("maxItems"));
        assertEquals("[\"name\"]", spec("ports").getJsonArray("x-kubernetes-list-map-keys").toString());
        assertEquals("[\"name\"]", spec("ports").getJsonObject("items").getJsonArray("required").toString());
    }

    @CustomResource(group = "example.com", version = "v1")
    static class Loose implements KubernetesObject {
        V1ObjectMeta metadata;
        Object anything;
        Map<Integer, String> byNumber;
        Node tree;
        @Min(1) String notANumber;
        List raw;

        @Override public String getApiVersion() { return null; }
        @Override public String getKind() { return null; }
        @Override public V1ObjectMeta getMetadata() { return metadata; }
    }

    static class Node {
        Node next;
    }

    @CustomResource(group = "example.com", version = "v1", kind = "Loose")
    static class Preserved implements KubernetesObject {
        V1ObjectMeta metadata;
        @PreserveUnknownFields Object anything;
        @PreserveUnknownFields Node tree;

        @Override public String getApiVersion() { return null; }
        @Override public String getKind() { return null; }
        @Override public V1ObjectMeta getMetadata() { return metadata; }
    }

    @Test
    void whatCannotBeRepresentedIsNamedWithItsClassAndField() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> CrdSchema.of(Loose.class));
        assertTrue(error.getMessage().startsWith(Loose.class.getName() + ".anything: java.lang.Object has no schema"), error.getMessage());
        for (String field : List.of("byNumber", "tree", "notANumber", "raw")) {
            Class<?> only = onlyField(field);
            IllegalArgumentException named = assertThrows(IllegalArgumentException.class, () -> CrdSchema.of(only), field);
            // a cycle is named where it closes: the field to mark @PreserveUnknownFields
            assertTrue(named.getMessage().contains(field.equals("tree") ? "Node.next: " + Node.class.getName() + " contains itself"
                    : "." + field + ": "), named.getMessage());
        }
        JsonObject preserved = CrdSchema.of(Preserved.class);
        assertEquals("{\"x-kubernetes-preserve-unknown-fields\":true}", preserved.getJsonObject("properties").get("anything").toString());
        assertEquals("{\"x-kubernetes-preserve-unknown-fields\":true,\"type\":\"object\"}",
                preserved.getJsonObject("properties").get("tree").toString());
    }

    /** A resource class with one field of Loose's: each error on its own. */
    private static Class<?> onlyField(String field) {
        return switch (field) {
            case "byNumber" -> ByNumber.class;
            case "tree" -> Tree.class;
            case "notANumber" -> NotANumber.class;
            default -> Raw.class;
        };
    }

    static class ByNumber { Map<Integer, String> byNumber; }
    static class Tree { Node tree; }
    static class NotANumber { @Min(1) String notANumber; }
    static class Raw { @SuppressWarnings("rawtypes") List raw; }

    static class Item { @jakarta.validation.constraints.NotNull String name; }
    static class KeysOnASet { @dev.mooring.api.crd.ListType(value = dev.mooring.api.crd.ListType.Kind.SET, keys = "name") List<Item> items; }
    static class MapWithoutKeys { @dev.mooring.api.crd.ListType(dev.mooring.api.crd.ListType.Kind.MAP) List<Item> items; }
    static class NotAList { @dev.mooring.api.crd.ListType(dev.mooring.api.crd.ListType.Kind.SET) String items; }
    static class AtomicList { @dev.mooring.api.crd.ListType(dev.mooring.api.crd.ListType.Kind.ATOMIC) List<Item> items; }

    @Test
    void aListTypeOtherThanMapNeedsNoKeys() {
        String schema = CrdSchema.of(AtomicList.class).toString();
        assertTrue(schema.contains("\"x-kubernetes-list-type\":\"atomic\"") && !schema.contains("x-kubernetes-list-map-keys"), schema);
    }

    @Test
    void aListTypeThatCannotBeIsRefusedNamingTheField() {
        for (Map.Entry<Class<?>, String> wrong : Map.<Class<?>, String>of(KeysOnASet.class, "keys belong to @ListType(MAP) only",
                MapWithoutKeys.class, "@ListType(MAP) needs keys", NotAList.class, "@ListType applies to lists, not java.lang.String").entrySet()) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> CrdSchema.of(wrong.getKey()));
            assertEquals(wrong.getKey().getName() + ".items: " + wrong.getValue(), error.getMessage());
        }
    }

    @CustomResource(group = "example.com", version = "v1", kind = "Plain")
    @dev.mooring.api.crd.PrinterColumn(name = "Size", jsonPath = ".spec.size")
    static class Plain extends dev.mooring.api.CustomObject {
        @jakarta.validation.constraints.NotNull Spec spec;

        static class Spec {
            int size;
        }
    }

    @CustomResource(group = "example.com", version = "v1", kind = "Scaled")
    @dev.mooring.api.crd.ScaleSubresource(specReplicasPath = "spec.replicas", statusReplicasPath = ".status.replicas")
    static class BadScalePath extends Plain {
    }

    @Test
    void aKindWithoutStatusHasNoSubresourceARequiredSpecIsFineAndAColumnOnlyWhatItSays() {
        JsonObject version = at(Crds.of(List.of(Plain.class)).get(0), "/spec/versions/0").asJsonObject();
        assertFalse(version.containsKey("subresources"), "no status field, no scale: no subresources");
        assertEquals("[\"spec\"]", version.getJsonObject("schema").getJsonObject("openAPIV3Schema").get("required").toString(),
                "a required spec is allowed (only a required status is refused)");
        assertEquals("[{\"name\":\"Size\",\"type\":\"string\",\"jsonPath\":\".spec.size\"}]",
                version.get("additionalPrinterColumns").toString(), "no description or priority unless given");
        IllegalArgumentException scale = assertThrows(IllegalArgumentException.class, () -> Crds.of(List.of(BadScalePath.class)));
        assertEquals(BadScalePath.class.getName() + ": @ScaleSubresource paths are JSON paths such as .spec.replicas, not 'spec.replicas'",
                scale.getMessage());
    }

    @CustomResource(group = "example.com", version = "v1beta1", kind = "Gadget")
    static class GadgetBeta extends Gadget {
    }

    @CustomResource(group = "example.com", version = "v2", kind = "Gadget", storage = true)
    static class GadgetV2 extends Gadget {
    }

    @CustomResource(group = "example.com", version = "v1", kind = "Gadget", clusterScoped = true)
    static class ClusterGadget extends Gadget {
    }

    @Test
    void versionsOfOneKindMakeOneCrdWithExactlyOneStorageVersion() {
        JsonObject crd = Crds.of(List.of(GadgetBeta.class, GadgetV2.class)).get(0);
        assertEquals("[\"v1beta1\",\"v2\"]", crd.getJsonObject("spec").getJsonArray("versions").stream()
                .map(v -> v.asJsonObject().get("name")).toList().toString().replace(" ", ""));
        assertEquals(JsonValue.FALSE, at(crd, "/spec/versions/0/storage"));
        assertEquals(JsonValue.TRUE, at(crd, "/spec/versions/1/storage"));
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> Crds.of(List.of(Gadget.class, GadgetBeta.class)));
        assertTrue(none.getMessage().contains("exactly one must be @CustomResource(storage = true), none is"), none.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> Crds.of(List.of(Gadget.class, ClusterGadget.class)));
        assertTrue(twice.getMessage().contains("defined differently"), twice.getMessage());
    }

    @Test
    void theYamlIsDeterministicWithoutAnchors() {
        String first = Yaml.of(Crds.of(List.of(Gadget.class)));
        assertEquals(first, Yaml.of(Crds.of(List.of(Gadget.class))));
        assertFalse(first.contains("&") || first.contains("*id"), "no anchors or aliases");
        assertTrue(first.startsWith("---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"), first);
    }

    @CustomResource(group = "example.com", version = "v1")
    static class Keyed extends dev.mooring.api.CustomObject {
        public Status status;

        public static class Status {
            @dev.mooring.api.crd.ListType(value = dev.mooring.api.crd.ListType.Kind.MAP, keys = "type")
            public List<io.kubernetes.client.openapi.models.V1Condition> conditions;
            @jakarta.validation.constraints.Size(min = 0)
            public List<String> notes;
            @jakarta.validation.constraints.Size(max = 3)
            public List<String> tags;
        }
    }

    static class Port {
        public String name;
        public Integer port;
    }

    static class Unkeyed {
        @dev.mooring.api.crd.ListType(value = dev.mooring.api.crd.ListType.Kind.MAP, keys = "name")
        public List<Port> ports;
    }

    @Test
    void anEmbeddedClientJavaModelKeepsItsRequiredFieldsSoThatItsListCanBeAMapByType() {
        JsonObject status = at(Crds.of(List.of(Keyed.class)).get(0), "/spec/versions/0/schema/openAPIV3Schema/properties/status/properties")
                .asJsonObject();
        assertEquals("[\"lastTransitionTime\",\"message\",\"reason\",\"status\",\"type\"]",
                at(status, "/conditions/items/required").toString(), "Kubernetes' own required fields of a Condition");
        assertEquals(Json.createValue("map"), at(status, "/conditions/x-kubernetes-list-type"));
        assertEquals(Json.createValue(0), at(status, "/notes/minItems"), "@Size(min = 0) is kept");
        assertFalse(status.getJsonObject("tags").containsKey("minItems"), "an @Size with a max states no min of 0");
    }

    @Test
    void aListMapKeyNeitherRequiredNorDefaultedIsRefusedNamingFieldAndKey() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> CrdSchema.of(Unkeyed.class));
        assertTrue(error.getMessage().startsWith(Unkeyed.class.getName() + ".ports: @ListType(MAP) key 'name' must be required"),
                error.getMessage());
    }

    @Test
    void printerColumnsAreTheDeclaredOnesAndNoneWithoutDeclarations() {
        jakarta.json.JsonArray columns = at(GADGET, "/spec/versions/0/additionalPrinterColumns").asJsonArray();
        assertEquals(Gadget.class.getAnnotationsByType(dev.mooring.api.crd.PrinterColumn.class).length, columns.size(),
                "no Age appended: kubectl shows it only when no column is declared");
        assertFalse(at(Crds.of(List.of(Keyed.class)).get(0), "/spec/versions/0").asJsonObject().containsKey("additionalPrinterColumns"),
                "without columns kubectl shows NAME and AGE by itself");
    }
}
