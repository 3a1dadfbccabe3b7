package dev.mooring.engine.kube;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Names that become API path segments: Kubernetes' rules, and an encoding that keeps every segment one segment. */
class KubeNamesTest {

    private static final ResourceType<V1Namespace> NAMESPACES = new ResourceType<>("", "v1", "Namespace", "namespaces", false,
            V1Namespace.class);
    private static final List<String> TRAVERSALS = List.of("..", ".", "%2e%2e", "%2E%2E", "a/b", "../../../api/v1/namespaces/kube-system/secrets/leaky",
            "a%2fb", "a\u0000b", "a\nb", "");

    @Test
    void namespacesAreDnsLabels() {
        for (String good : List.of("a", "team-a", "x".repeat(63), "0")) {
            assertEquals(good, KubeNames.namespace(good, "namespace"));
        }
        for (String bad : List.of("..", "a/b", "a?b", "a#b", "Team", "-a", "a-", "x".repeat(64), "", "a.b", "%2e%2e")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KubeNames.namespace(bad, "namespace"));
            assertTrue(e.getMessage().startsWith("namespace '"), e.getMessage());
            assertTrue(e.getMessage().contains("DNS-1123 label"), e.getMessage());
        }
    }

    @Test
    void namesFollowTheRuleOfEveryKind() {
        for (String good : List.of("web", "system:controller:x", "a.b", "a?b", "a#b", "x".repeat(253), "...", "a b", "a~b")) {
            assertEquals(good, KubeNames.name(good, "name"));
        }
        for (String bad : TRAVERSALS) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KubeNames.name(bad, "name"));
            assertTrue(e.getMessage().startsWith("name '"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> KubeNames.name("x".repeat(254), "name"));
        for (String control : List.of("a\u001fb", "a\u007fb", "\tab")) {
            assertThrows(IllegalArgumentException.class, () -> KubeNames.name(control, "name"), "a control character");
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KubeNames.name(null, "metadata.name")).getMessage()
                .startsWith("metadata.name (missing)"));
    }

    @Test
    void groupsVersionsKindsAndResources() {
        assertEquals("", KubeNames.group("", "group"));
        assertEquals("apps.example.com", KubeNames.group("apps.example.com", "group"));
        for (String bad : List.of("..", "a/b", "Apps", "a..b", "a?")) {
            assertThrows(IllegalArgumentException.class, () -> KubeNames.group(bad, "group"));
            assertThrows(IllegalArgumentException.class, () -> KubeNames.version(bad, "version"));
            assertThrows(IllegalArgumentException.class, () -> KubeNames.resource(bad, "resource"));
        }
        for (String bad : List.of("..", "a/b", "1Kind", "Kind?", "Kind-", "")) {
            assertThrows(IllegalArgumentException.class, () -> KubeNames.kind(bad, "kind"));
        }
        assertEquals("v1beta1", KubeNames.version("v1beta1", "version"));
        assertEquals("ConfigMap", KubeNames.kind("ConfigMap", "kind"));
        assertEquals("configmaps", KubeNames.resource("configmaps", "resource"));
    }

    @Test
    void aSegmentIsPercentEncodedExceptUnreservedCharacters() {
        assertEquals("web-1.a_b~", KubeNames.segment("web-1.a_b~"));
        assertEquals("a%3Fb%23c%2Fd%25e%3Af%20%C3%A9", KubeNames.segment("a?b#c/d%e:f é"));
    }

    @Test
    void pathsAreBuiltFromCheckedEncodedSegments() {
        assertEquals("/api/v1/namespaces/team-a/configmaps/web", CONFIG_MAPS.itemPath("team-a", "web"));
        assertEquals("/api/v1/namespaces/team-a/configmaps/a%3Fwatch%3Dtrue%23x", CONFIG_MAPS.itemPath("team-a", "a?watch=true#x"));
        assertEquals("/api/v1/namespaces/system%3Aadmin", NAMESPACES.itemPath(null, "system:admin"));
        for (String bad : TRAVERSALS) {
            IllegalArgumentException name = assertThrows(IllegalArgumentException.class, () -> CONFIG_MAPS.itemPath("team-a", bad));
            assertTrue(name.getMessage().startsWith("name "), name.getMessage());
            IllegalArgumentException namespace = assertThrows(IllegalArgumentException.class, () -> CONFIG_MAPS.itemPath(bad, "web"));
            assertTrue(namespace.getMessage().startsWith("namespace ") || namespace.getMessage().contains("a namespace is needed"),
                    namespace.getMessage());
            assertThrows(IllegalArgumentException.class, () -> CONFIG_MAPS.collectionPath(bad.isEmpty() ? "?" : bad));
        }
        assertThrows(IllegalArgumentException.class, () -> new ResourceType<>("", "v1", "ConfigMap", "configmaps/../secrets", true,
                V1ConfigMap.class));
    }
}
