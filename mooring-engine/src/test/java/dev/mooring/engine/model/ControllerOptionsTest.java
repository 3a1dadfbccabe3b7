package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Controller;
import dev.mooring.api.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ControllerOptionsTest {

    @Controller
    static class Defaults {
    }

    @Controller(name = "mirror", namespace = "apps", labelSelector = "a=b", workers = 3, owns = V1Secret.class,
            resync = "5m", syncTimeout = "45s", shutdownTimeout = "500ms", reconcileTimeout = "PT2M", statusEvents = true)
    static class Everything {
    }

    @Controller(workers = 0)
    static class NoWorkers {
    }

    @Controller(owns = V1Secret.class, ownsLabelSelector = "app.kubernetes.io/managed-by=mirror", ownsFieldSelector = "type=Opaque")
    static class SelectedChildren {
    }

    @Controller(owns = V1Secret.class, ownsLabelSelector = "managed by=mirror")
    static class BadOwnedSelector {
    }

    /** A @Watch whose field selector does not parse. */
    static class BadWatchSelector {
        @dev.mooring.api.Watch(fieldSelector = "metadata.name")
        java.util.Set<dev.mooring.api.ObjectKey> secrets(V1Secret secret) {
            return java.util.Set.of();
        }
    }

    @Controller(allNamespaces = true, namespace = "apps")
    static class BothScopes {
    }

    @Controller(namespaces = {"team-a", "team-b"})
    static class NamespaceSet {
    }

    @Controller(namespaces = "team-a", allNamespaces = true)
    static class SetAndAll {
    }

    @Controller(namespaces = {"team-a", "Team_B"})
    static class BadNamespaceSet {
    }

    @Controller(retryBaseDelay = "200ms", retryMaxDelay = "10s", retryLimit = 5, maxPassRate = 2.5, passBurst = 10)
    static class Paced {
    }

    @Controller(retryBaseDelay = "20s", retryMaxDelay = "10s")
    static class BackwardsDelays {
    }

    @Controller(resync = "soon")
    static class BadResync {
    }

    @Controller(name = "n123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567")
    static class LongestName {
    }

    @Controller(name = "n1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678")
    static class TooLongName {
    }

    @Test
    void aControllerNameHasAtMost118Characters() {
        assertEquals(118, resolve(LongestName.class, Map.of()).name().length());
        assertMessage("must have at most 118 characters", () -> resolve(TooLongName.class, Map.of()));
    }

    private static ControllerDefinition resolve(Class<?> bean, Map<String, String> properties) {
        return ControllerOptions.resolve(bean, bean.getAnnotation(Controller.class), V1ConfigMap.class,
                key -> Optional.ofNullable(properties.get(key)));
    }

    @Test
    void annotationDefaultsAreTheReferenceDefaults() {
        ControllerDefinition definition = resolve(Defaults.class, Map.of());
        assertEquals("configmap", definition.name());
        assertEquals("", definition.namespace(), "empty means the operator's namespace");
        assertNull(definition.labelSelector());
        assertEquals(16, definition.workers(), "Mooring's choice from measurements (docs/guide/controllers.md); the reference has 1");
        assertEquals(Duration.ofSeconds(300), definition.resync());
        assertEquals(Duration.ofSeconds(30), definition.syncTimeout());
        assertEquals(Duration.ofSeconds(10), definition.shutdownTimeout());
        assertNull(definition.reconcileTimeout());
        assertEquals(false, definition.statusEvents());
        assertEquals("kube-system", definition.namespaceOr("kube-system"));
    }

    @Test
    void everyAttributeIsRead() {
        ControllerDefinition definition = resolve(Everything.class, Map.of());
        assertEquals("mirror", definition.name());
        assertEquals("apps", definition.namespace());
        assertEquals("a=b", definition.labelSelector());
        assertEquals(3, definition.workers());
        assertEquals(List.of(V1Secret.class), definition.owns());
        assertEquals(Duration.ofMinutes(5), definition.resync());
        assertEquals(Duration.ofSeconds(45), definition.syncTimeout());
        assertEquals(Duration.ofMillis(500), definition.shutdownTimeout());
        assertEquals(Duration.ofMinutes(2), definition.reconcileTimeout());
        assertTrue(definition.statusEvents());
    }

    @Test
    void configPropertiesBeatTheAnnotation() {
        ControllerDefinition definition = resolve(Everything.class, Map.of(
                "mooring.controller.mirror.workers", "7",
                "mooring.controller.mirror.namespace", "",
                "mooring.controller.mirror.all-namespaces", "true",
                "mooring.controller.mirror.label-selector", "tier=web",
                "mooring.controller.mirror.resync", "90",
                "mooring.controller.mirror.reconcile-timeout", "",
                "mooring.controller.mirror.status-events", "false"));
        assertEquals(7, definition.workers());
        assertNull(definition.namespace(), "all namespaces");
        assertEquals("tier=web", definition.labelSelector());
        assertEquals(Duration.ofSeconds(90), definition.resync());
        assertNull(definition.reconcileTimeout(), "an empty property removes the timeout");
        assertEquals(false, definition.statusEvents());
    }

    @Test
    void theOwnedKindsSelectorsComeFromTheAnnotationOrTheirPropertiesAndAreChecked() throws Exception {
        assertEquals(new dev.mooring.engine.kube.Selectors("app.kubernetes.io/managed-by=mirror", "type=Opaque"),
                resolve(SelectedChildren.class, Map.of()).ownsSelectors());
        assertEquals(new dev.mooring.engine.kube.Selectors("tier=web", "type=Opaque"), resolve(SelectedChildren.class,
                Map.of("mooring.controller.configmap.owns-label-selector", "tier=web")).ownsSelectors());
        assertEquals(dev.mooring.engine.kube.Selectors.NONE, resolve(Defaults.class, Map.of()).ownsSelectors());
        assertMessage("@Controller(ownsLabelSelector) on " + BadOwnedSelector.class.getName() + " is not a label selector: Invalid label"
                + " selector 'managed by=mirror'", () -> resolve(BadOwnedSelector.class, Map.of()));
        assertMessage("mooring.controller.configmap.owns-field-selector is not a field selector: Invalid field selector 'phase'",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.owns-field-selector", "phase")));
        assertMessage("@Watch on " + BadWatchSelector.class.getName() + ".secrets: Invalid field selector 'metadata.name'",
                () -> ControllerOptions.watchedKind(BadWatchSelector.class.getDeclaredMethod("secrets", V1Secret.class)));
    }

    @Test
    void aNamespaceSetComesFromTheAnnotationOrItsPropertyInTheOrderWrittenAndExcludesTheOtherScopes() {
        assertEquals(List.of("team-a", "team-b"), List.copyOf(resolve(NamespaceSet.class, Map.of()).namespaces()));
        assertEquals(List.of("c", "a"), List.copyOf(resolve(NamespaceSet.class,
                Map.of("mooring.controller.configmap.namespaces", " c, a,c")).namespaces()), "trimmed, each once");
        assertEquals(List.of("x"), List.copyOf(resolve(Defaults.class, Map.of("mooring.controller.configmap.namespaces", "x")).namespaces()));
        assertNull(resolve(Defaults.class, Map.of()).namespaces(), "one namespace, not a set");
        assertNull(resolve(Defaults.class, Map.of("mooring.controller.configmap.namespaces", " ")).namespaces(), "blank: not set");
        assertMessage("Controller configmap: set namespaces (@Controller(namespaces) on " + SetAndAll.class.getName()
                + ") or all-namespaces, not both", () -> resolve(SetAndAll.class, Map.of()));
        assertMessage("Controller configmap: set namespaces (mooring.controller.configmap.namespaces) or namespace ('apps'), not both",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.namespaces", "a",
                        "mooring.controller.configmap.namespace", "apps")));
        assertMessage("@Controller(namespaces) on " + BadNamespaceSet.class.getName() + " 'Team_B' is not a namespace",
                () -> resolve(BadNamespaceSet.class, Map.of()));
        assertMessage("mooring.controller.configmap.namespaces '' is not a namespace",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.namespaces", "a,,b")));
        assertEquals(Set.of("a", "b"), ControllerOptions.namespaces("a, b", "test"));
    }

    @Test
    void retryAndRatePoliciesComeFromTheAnnotationOrTheirPropertiesAndAreChecked() {
        assertEquals(QueuePolicy.DEFAULTS, resolve(Defaults.class, Map.of()).queuePolicy(), "the deployment's delays, no limit, no rate");
        assertEquals(new QueuePolicy(Duration.ofMillis(200), Duration.ofSeconds(10), 5, 2.5, 10), resolve(Paced.class, Map.of()).queuePolicy());
        QueuePolicy overridden = resolve(Paced.class, Map.of("mooring.controller.configmap.retry-limit", "0",
                "mooring.controller.configmap.max-pass-rate", "50", "mooring.controller.configmap.pass-burst", " ",
                "mooring.controller.configmap.retry-max-delay", "1m")).queuePolicy();
        assertEquals(new QueuePolicy(Duration.ofMillis(200), Duration.ofMinutes(1), 0, 50, 10), overridden,
                "a blank property leaves the annotation's value");
        assertEquals(3, new QueuePolicy(null, null, 0, 2.5, 0).burst(), "one second's worth, rounded up");
        assertEquals(1, new QueuePolicy(null, null, 0, 0.1, 0).burst());
        assertEquals(10, new QueuePolicy(null, null, 0, 2.5, 10).burst());
        assertEquals(Duration.ofSeconds(7), QueuePolicy.DEFAULTS.baseDelayOr(Duration.ofSeconds(7)));
        assertEquals(Duration.ofMillis(200), overridden.baseDelayOr(Duration.ofSeconds(7)));
        assertEquals(Duration.ofMinutes(1), overridden.maxDelayOr(Duration.ofSeconds(7)));

        assertMessage("Controller configmap: the retry-max-delay (@Controller(retryMaxDelay) on " + BackwardsDelays.class.getName()
                + ", PT10S) must not be less than the retry-base-delay (@Controller(retryBaseDelay) on " + BackwardsDelays.class.getName()
                + ", PT20S)", () -> resolve(BackwardsDelays.class, Map.of()));
        assertMessage("mooring.controller.configmap.retry-limit must be a whole number of at least 0, got 'five'",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.retry-limit", "five")));
        assertMessage("mooring.controller.configmap.retry-limit must be at least 0, got -1",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.retry-limit", "-1")));
        for (String rate : List.of("fast", "-1", "Infinity", "NaN")) {
            assertMessage("mooring.controller.configmap.max-pass-rate must be a number of passes a second, 0 for no limit, got '" + rate + "'",
                    () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.max-pass-rate", rate)));
        }
        assertMessage("mooring.controller.configmap.pass-burst must be at least 0, got -3",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.pass-burst", "-3")));
        assertMessage("mooring.controller.configmap.retry-base-delay must be a duration",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.retry-base-delay", "soon")));
    }

    @Test
    void invalidValuesNameTheirSource() {
        assertMessage("@Controller(workers) on " + NoWorkers.class.getName() + " must be at least 1",
                () -> resolve(NoWorkers.class, Map.of()));
        assertMessage("mooring.controller.configmap.workers must be a whole number of at least 1, got 'many'",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.workers", "many")));
        assertMessage("mooring.controller.configmap.workers must be at least 1, got -2",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.workers", "-2")));
        assertMessage("mooring.controller.configmap.workers must be at least 1, got 0",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.workers", "0")));
        assertEquals(1, resolve(Defaults.class, Map.of("mooring.controller.configmap.workers", "1")).workers(), "one worker is allowed");
        assertMessage("set either namespace ('apps') or all-namespaces", () -> resolve(BothScopes.class, Map.of()));
        assertMessage("@Controller(resync) on " + BadResync.class.getName() + " must be a duration",
                () -> resolve(BadResync.class, Map.of()));
        assertMessage("mooring.controller.configmap.sync-timeout must be greater than zero",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.sync-timeout", "0s")));
        assertMessage("mooring.controller.configmap.status-events must be true or false, got 'yes'",
                () -> resolve(Defaults.class, Map.of("mooring.controller.configmap.status-events", "yes")));
    }

    @Controller(finalizer = "example.com/cleanup")
    static class WithFinalizer {
    }

    @Controller(finalizer = "cleanup")
    static class UnqualifiedFinalizer {
    }

    @Test
    void aFinalizerGoesWithCleanupAndIsQualified() {
        ControllerDefinition cleaning = ControllerOptions.resolve(WithFinalizer.class,
                WithFinalizer.class.getAnnotation(Controller.class), V1ConfigMap.class, true, key -> Optional.empty());
        assertEquals("example.com/cleanup", cleaning.finalizer());
        assertNull(resolve(Defaults.class, Map.of()).finalizer());
        assertMessage("is required because the reconciler implements Cleanup", () -> ControllerOptions.resolve(Defaults.class,
                Defaults.class.getAnnotation(Controller.class), V1ConfigMap.class, true, key -> Optional.empty()));
        assertMessage("the reconciler does not implement Cleanup", () -> resolve(WithFinalizer.class, Map.of()));
        assertMessage("must be a qualified name such as example.com/cleanup, got 'cleanup'",
                () -> ControllerOptions.resolve(UnqualifiedFinalizer.class, UnqualifiedFinalizer.class.getAnnotation(Controller.class),
                        V1ConfigMap.class, true, key -> Optional.empty()));
    }

    static class Mappers {
        Set<ObjectKey> good(V1Secret secret) {
            return Set.of();
        }

        List<String> wrongResult(V1Secret secret) {
            return List.of();
        }

        Set<ObjectKey> twoParameters(V1Secret secret, String other) {
            return Set.of();
        }

        Set<ObjectKey> notAModel(String text) {
            return Set.of();
        }

        Set<ObjectKey> withPrimaries(V1Secret secret, dev.mooring.api.Cache<V1Secret> primaries) {
            return Set.of();
        }

        @dev.mooring.api.Watch(metadataOf = V1Secret.class)
        Set<ObjectKey> metadata(dev.mooring.api.PartialObjectMetadata secret) {
            return Set.of();
        }

        @dev.mooring.api.Watch(metadataOf = V1Secret.class)
        Set<ObjectKey> metadataOfAWholeParameter(V1Secret secret) {
            return Set.of();
        }

        @dev.mooring.api.Watch
        Set<ObjectKey> metadataWithoutItsKind(dev.mooring.api.PartialObjectMetadata secret) {
            return Set.of();
        }

        @dev.mooring.api.Watch(metadataOf = dev.mooring.api.PartialObjectMetadata.class)
        Set<ObjectKey> metadataOfMetadata(dev.mooring.api.PartialObjectMetadata secret) {
            return Set.of();
        }
    }

    @SuppressWarnings({"rawtypes", "unused"})
    static class KeyTypes {
        Set<ObjectKey> keys;
        List<? extends ObjectKey> bounded;
        Set raw;
        Set<String> strings;
        List<?> anything;
    }

    @Test
    void keysAreACollectionOfObjectKeyOrOfWhatExtendsIt() throws NoSuchFieldException {
        for (String field : List.of("keys", "bounded")) {
            assertTrue(ControllerOptions.isCollectionOf(KeyTypes.class.getDeclaredField(field).getGenericType(), ObjectKey.class), field);
        }
        for (String field : List.of("raw", "strings", "anything")) {
            assertFalse(ControllerOptions.isCollectionOf(KeyTypes.class.getDeclaredField(field).getGenericType(), ObjectKey.class), field);
        }
    }

    @Test
    void aMetadataOnlyWatchTakesPartialObjectMetadataAndNamesItsKind() throws NoSuchMethodException {
        Class<?> metadata = dev.mooring.api.PartialObjectMetadata.class;
        assertEquals(V1Secret.class, ControllerOptions.watchedKind(Mappers.class.getDeclaredMethod("metadata", metadata)));
        assertTrue(ControllerOptions.metadataOnly(Mappers.class.getDeclaredMethod("metadata", metadata)));
        assertFalse(ControllerOptions.metadataOnly(Mappers.class.getDeclaredMethod("good", V1Secret.class)));
        assertMessage("metadataOfAWholeParameter watches metadata only (metadataOf): its parameter must be PartialObjectMetadata",
                () -> ControllerOptions.watchedKind(Mappers.class.getDeclaredMethod("metadataOfAWholeParameter", V1Secret.class)));
        assertMessage("metadataWithoutItsKind takes PartialObjectMetadata: name the kind whose metadata it watches",
                () -> ControllerOptions.watchedKind(Mappers.class.getDeclaredMethod("metadataWithoutItsKind", metadata)));
        assertMessage("metadataOf must name a model class of a kind, not PartialObjectMetadata",
                () -> ControllerOptions.watchedKind(Mappers.class.getDeclaredMethod("metadataOfMetadata", metadata)));
    }

    @Test
    void watchMethodSignaturesAreChecked() throws NoSuchMethodException {
        assertEquals(V1Secret.class, ControllerOptions.watchedKind(Mappers.class.getDeclaredMethod("good", V1Secret.class)));
        assertMessage("must return a Collection<ObjectKey>",
                () -> ControllerOptions.watchedKind(Mappers.class.getDeclaredMethod("wrongResult", V1Secret.class)));
        assertEquals(V1Secret.class, ControllerOptions.watchedKind(
                Mappers.class.getDeclaredMethod("withPrimaries", V1Secret.class, dev.mooring.api.Cache.class)));
        assertMessage("must take the watched client-java model, and optionally the primaries' Cache", () -> ControllerOptions.watchedKind(
                Mappers.class.getDeclaredMethod("twoParameters", V1Secret.class, String.class)));
        assertMessage("must take the watched client-java model",
                () -> ControllerOptions.watchedKind(Mappers.class.getDeclaredMethod("notAModel", String.class)));
    }

    @Controller
    static class TwoContracts implements dev.mooring.api.Reconciler<V1ConfigMap>, dev.mooring.api.DesiredStateReconciler<V1ConfigMap> {
        @Override
        public dev.mooring.api.Result reconcile(V1ConfigMap resource, dev.mooring.api.Context<V1ConfigMap> context) {
            return dev.mooring.api.Result.done();
        }

        @Override
        public V1ConfigMap desired(V1ConfigMap resource, dev.mooring.api.Context<V1ConfigMap> context) {
            return resource;
        }
    }

    @Controller
    static class OneContract implements dev.mooring.api.DesiredStateReconciler<V1ConfigMap> {
        @Override
        public V1ConfigMap desired(V1ConfigMap resource, dev.mooring.api.Context<V1ConfigMap> context) {
            return resource;
        }
    }

    @Test
    void aControllerImplementsOneContract() {
        assertMessage("@Controller bean " + TwoContracts.class.getName() + " implements Reconciler and DesiredStateReconciler;"
                + " a controller is one of Reconciler, Staged and DesiredStateReconciler", () -> ControllerOptions.offline(TwoContracts.class, "ops"));
        assertEquals(V1ConfigMap.class, ControllerOptions.offline(OneContract.class, "ops").orElseThrow().kind());
    }

    private interface Call {
        Object run() throws Exception;
    }

    private static void assertMessage(String expected, Call call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().contains(expected), "message was: " + e.getMessage());
    }
}
