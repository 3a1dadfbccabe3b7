package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.model.ControllerDefinition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each poll hands the runtime the sets that changed, and only those; a bad value is logged once and changes nothing. */
class NamespaceFollowerTest {

    private static final String KEY = "mooring.controller.mirror.namespaces";

    private final Map<String, String> properties = new ConcurrentHashMap<>();
    private final List<String> applied = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Logger logger = Logger.getLogger(NamespaceFollower.class.getName());
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            warnings.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private NamespaceFollower follower(ControllerDefinition... definitions) {
        logger.addHandler(handler);
        return new NamespaceFollower(List.of(definitions), key -> Optional.ofNullable(properties.get(key)),
                (name, set) -> applied.add(name + " " + set));
    }

    @AfterEach
    void removeHandler() {
        logger.removeHandler(handler);
    }

    private static ControllerDefinition set(String name, String... namespaces) {
        return ControllerDefinition.builder(name, V1ConfigMap.class).namespaces(new LinkedHashSet<>(List.of(namespaces))).build();
    }

    @Test
    void aChangedSetIsAppliedOnceAndAnUnchangedOneNotAtAll() {
        NamespaceFollower follower = follower(set("mirror", "a", "b"), ControllerDefinition.builder("single", V1ConfigMap.class).build());
        assertTrue(follower.following());
        follower.poll();
        assertEquals(List.of(), applied, "no property: the set stays");
        properties.put(KEY, "b, a");
        follower.poll();
        assertEquals(List.of(), applied, "the same set in another order is no change");
        properties.put(KEY, "b,c");
        follower.poll();
        follower.poll();
        assertEquals(List.of("mirror [b, c]"), applied);
        properties.remove(KEY);
        follower.poll();
        assertEquals(List.of("mirror [b, c]"), applied, "a removed property keeps the last set");
        properties.put("mooring.controller.single.namespaces", "x");
        follower.poll();
        assertEquals(List.of("mirror [b, c]"), applied, "a controller of one namespace is not followed");
    }

    @Test
    void aValueThatDoesNotParseIsLoggedOnceNamingThePropertyAndChangesNothing() {
        NamespaceFollower follower = follower(set("mirror", "a"));
        properties.put(KEY, "a,Not_A_Namespace");
        follower.poll();
        follower.poll();
        assertEquals(List.of(), applied);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(KEY + " 'Not_A_Namespace' is not a namespace"), warnings.get(0));
        assertTrue(warnings.get(0).contains("controller mirror keeps watching namespaces [a]"), warnings.get(0));
        properties.put(KEY, "a,b");
        follower.poll();
        assertEquals(List.of("mirror [a, b]"), applied, "a good value again applies");
    }

    @Test
    void aFailingRuntimeIsLoggedAndThePollGoesOn() {
        logger.addHandler(handler);
        NamespaceFollower follower = new NamespaceFollower(List.of(set("mirror", "a"), set("other", "a")),
                key -> Optional.ofNullable(properties.get(key)), (name, set) -> {
                    if (name.equals("mirror")) {
                        throw new IllegalStateException("refused");
                    }
                    applied.add(name + " " + set);
                });
        properties.put(KEY, "b");
        properties.put("mooring.controller.other.namespaces", "c");
        follower.poll();
        assertEquals(List.of("other [c]"), applied);
        assertTrue(warnings.get(0).contains("Controller mirror keeps watching namespaces [a]: refused"), warnings.toString());
    }

    @Test
    void withoutANamespaceSetThereIsNothingToFollow() {
        assertFalse(follower(ControllerDefinition.builder("single", V1ConfigMap.class).build()).following());
        assertEquals(Set.of(), Set.copyOf(applied));
    }
}
