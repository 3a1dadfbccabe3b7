package dev.mooring.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1beta1DeviceClass;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestsTest {

    @CustomResource(group = "example.com", version = "v1")
    static class Widget extends CustomObject {
        Spec spec;

        static class Spec {
            int size;
        }
    }

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              creationTimestamp: 2026-01-02T03:04:05Z
            spec:
              replicas: 3
              selector:
                matchLabels: {app: web}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers: [{name: web, image: web:1}]
            """;

    @Test
    void oneDocumentBecomesItsTypedModelTimestampsIncluded() {
        V1Deployment deployment = Manifests.parse(DEPLOYMENT, V1Deployment.class);
        assertEquals("web", deployment.getMetadata().getName());
        assertEquals(3, deployment.getSpec().getReplicas());
        assertEquals(OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC), deployment.getMetadata().getCreationTimestamp());

        Widget widget = Manifests.parse("{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"spec\": {\"size\": 2}}", Widget.class);
        assertEquals(2, widget.spec.size, "JSON is read as YAML");
        assertEquals("v1beta1", Manifests.parse("apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nspec: {}\n",
                V1beta1DeviceClass.class).getApiVersion().split("/")[1]);
    }

    @Test
    void anyKindIsReadAsADynamicObject() {
        List<KubernetesObject> objects = Manifests.parseAll(DEPLOYMENT + "---\n---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\n",
                KubernetesObject.class);
        assertEquals(2, objects.size(), "empty documents are skipped");
        assertInstanceOf(DynamicKubernetesObject.class, objects.get(0));
        assertEquals("Deployment", objects.get(0).getKind());
        assertEquals("ConfigMap", objects.get(1).getKind());
        var raw = ((DynamicKubernetesObject) objects.get(0)).getRaw();
        assertEquals(3, raw.getAsJsonObject("spec").get("replicas").getAsInt(), "every field of the document is kept");
        assertEquals("apps/v1", raw.get("apiVersion").getAsString());
        assertEquals(null, raw.get("status"), "an absent member is null");
        assertEquals("web", Manifests.parse(DEPLOYMENT, DynamicKubernetesObject.class).getMetadata().getName());
    }

    @Test
    void aDocumentWithoutApiVersionOrKindIsRefused() {
        assertMessage("Missing apiVersion or kind in document 1 of the text", () -> Manifests.parse("{\"kind\": \"Pod\"}", KubernetesObject.class));
        assertMessage("Missing apiVersion or kind in document 2 of the text",
                () -> Manifests.parseAll("apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: ''\n", KubernetesObject.class));
        assertMessage("Missing apiVersion or kind", () -> Manifests.parse("kind: ConfigMap\n", V1ConfigMap.class));
    }

    @Test
    void emptyTextOrOnlyEmptyDocumentsAreRefused() {
        for (String empty : List.of("", "   \n\t\n", "---\n---\n", "# nothing\n")) {
            assertMessage("Empty YAML document: the text holds no object", () -> Manifests.parseAll(empty, KubernetesObject.class));
        }
    }

    @Test
    void severalDocumentsWhereOneIsAskedForAreRefused(@TempDir Path folder) throws IOException {
        Path file = Files.writeString(folder.resolve("two.yaml"), DEPLOYMENT + "---\n" + DEPLOYMENT);
        assertMessage("Multiple YAML documents in " + file + " (2)", () -> Manifests.read(file, V1Deployment.class));
        assertEquals(2, Manifests.readAll(file, V1Deployment.class).size());
        assertEquals("web", Manifests.read(Files.writeString(folder.resolve("one.yaml"), DEPLOYMENT), V1Deployment.class)
                .getMetadata().getName());
    }

    @Test
    void aDocumentOfAnotherKindOrVersionThanTheModelIsRefused() {
        assertMessage("document 1 of the text is apps/v1 Deployment, not the v1 ConfigMap of V1ConfigMap",
                () -> Manifests.parse(DEPLOYMENT, V1ConfigMap.class));
        assertMessage("is apps/v2 Deployment, not the v1 Deployment", () -> Manifests.parse(DEPLOYMENT.replace("/v1", "/v2"), V1Deployment.class));
        assertMessage("is other.com/v1 Widget, not the example.com/v1 Widget of Widget",
                () -> Manifests.parse("apiVersion: other.com/v1\nkind: Widget\n", Widget.class));
        assertMessage("is example.com/v2 Widget", () -> Manifests.parse("apiVersion: example.com/v2\nkind: Widget\n", Widget.class));
        assertMessage("is example.com/v1 Gadget", () -> Manifests.parse("apiVersion: example.com/v1\nkind: Gadget\n", Widget.class));
    }

    @Test
    void textThatIsNotAnObjectOrDoesNotFitItsModelIsRefusedWithoutItsValues() {
        assertMessage("document 1 of the text is a list, not a Kubernetes object", () -> Manifests.parse("- a\n- b\n", KubernetesObject.class));
        assertMessage("document 1 of the text is a single value", () -> Manifests.parse("hello\n", KubernetesObject.class));
        IllegalArgumentException misfit = assertThrows(IllegalArgumentException.class,
                () -> Manifests.parse(DEPLOYMENT.replace("replicas: 3", "replicas: s3cret"), V1Deployment.class));
        assertTrue(misfit.getMessage().startsWith("document 1 of the text does not fit V1Deployment: "), misfit.getMessage());
        assertFalse(misfit.getMessage().contains("s3cret"), misfit.getMessage());
        assertMessage("Failed to parse YAML in the text: expected ',' or ']', but got <stream end> (line 2, column 1)",
                () -> Manifests.parse("a: [unclosed\n", KubernetesObject.class));
        assertMessage("Failed to parse YAML in the text: found duplicate key kind (line 3, column 1)",
                () -> Manifests.parse("apiVersion: v1\nkind: Pod\nkind: Pod\n", KubernetesObject.class));
        assertMessage("does not fit V1ConfigMap: unknown field 'spec'", () -> Manifests.parse("apiVersion: v1\nkind: ConfigMap\nspec: {}\n",
                V1ConfigMap.class));
        assertMessage("is neither a @CustomResource nor named like a client-java model", () -> Manifests.parse(DEPLOYMENT, Unnamed.class));
    }

    @Test
    void aDecodingFailureIsNamedWithoutTheValuesItsMessageQuotes() {
        String secret = "{\"password\":\"s3cret\"}";
        assertEquals("unknown field 'data'", Manifests.decodeFailure(new IllegalArgumentException(
                "The field `data` in the JSON string is not defined in the `V1Namespace` properties. JSON: " + secret)));
        assertEquals("required field 'template' is missing", Manifests.decodeFailure(new IllegalArgumentException(
                "The required field `template` is not found in the JSON string: " + secret)));
        assertEquals("field 'name' has the wrong type", Manifests.decodeFailure(new IllegalArgumentException(
                "Expected the field `name` to be a primitive type in the JSON string but got " + secret)));
        assertEquals("field 'a?b' has the wrong type", Manifests.decodeFailure(new IllegalArgumentException(
                "Expected the field `a\"b` to be an array in the JSON string but got " + secret)), "only name characters are kept");
        assertEquals("a value of the wrong type or format (NumberFormatException)", Manifests.decodeFailure(
                new com.google.gson.JsonSyntaxException(new NumberFormatException("For input string: " + secret))));
        assertEquals("a value of the wrong type or format (IllegalStateException)", Manifests.decodeFailure(
                new IllegalStateException("Expected an int but was " + secret)));
    }

    @Test
    void hostileYamlIsRefusedNotExpanded() {
        StringBuilder bomb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i < 12; i++) {
            bomb.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                bomb.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            }
            bomb.append("]\n");
        }
        assertMessage("Failed to parse YAML in the text: ", () -> Manifests.parse(bomb.toString(), KubernetesObject.class));
        assertMessage("Failed to parse YAML in the text: ", () -> Manifests.parse("[".repeat(10_000), KubernetesObject.class));
        assertMessage("Failed to parse YAML in the text: ", () -> Manifests.parse("!!java.io.File {}\n", KubernetesObject.class));
    }

    /** A model class Manifests cannot place. */
    static class Unnamed extends V1Deployment {
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(expected), "expected «" + expected + "» in «" + e.getMessage() + "»");
    }
}
