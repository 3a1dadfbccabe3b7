package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Poll;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The two shapes of a {@code @Poll} method, and the mistakes that fail the deployment naming the method. */
class PollerTest {

    static class Polls {
        @Poll(every = "30s")
        Set<ObjectKey> changed() {
            return Set.of(new ObjectKey("ops", "a"));
        }

        @Poll(every = "2m")
        String state(V1ConfigMap map) {
            return map.getMetadata().getName() + "-state";
        }

        @Poll(every = "1s")
        List<ObjectKey> failing() {
            throw new IllegalStateException("down");
        }

        @Poll(every = "soon")
        Set<ObjectKey> badEvery() {
            return Set.of();
        }

        @Poll(every = "1s")
        String notKeys() {
            return "";
        }

        @Poll(every = "1s")
        void nothing(V1ConfigMap map) {
        }

        @Poll(every = "1s")
        String wrongKind(io.kubernetes.client.openapi.models.V1Secret secret) {
            return "";
        }

        @Poll(every = "1s")
        String two(V1ConfigMap map, String other) {
            return "";
        }

        @Poll(every = "1s")
        static Set<ObjectKey> statik() {
            return Set.of();
        }
    }

    private static Poller poller(String name, Class<?>... parameters) throws NoSuchMethodException {
        return Poller.of(new Polls(), Polls.class.getDeclaredMethod(name, parameters), V1ConfigMap.class);
    }

    @Test
    void aMethodOfNoParameterReturnsKeysAndOneOfThePrimaryReturnsItsState() throws Exception {
        Poller changed = poller("changed");
        assertFalse(changed.perObject());
        assertEquals(Duration.ofSeconds(30), changed.every());
        assertEquals("Polls.changed", changed.description());
        assertEquals(List.of(new ObjectKey("ops", "a")), List.copyOf(Poller.keys(changed.call().poll(null), changed.description())));

        Poller state = poller("state", V1ConfigMap.class);
        assertTrue(state.perObject());
        assertEquals(Duration.ofMinutes(2), state.every());
        assertEquals("m-state", state.call().poll(new V1ConfigMap().metadata(new V1ObjectMeta().name("m"))));

        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> poller("failing").call().poll(null));
        assertEquals("down", thrown.getMessage(), "what the method throws, as it is");
        assertEquals(List.of(), List.copyOf(Poller.keys(null, "x")), "null: no key");
    }

    @Test
    void aWrongSignatureOrPeriodNamesTheMethod() {
        String where = "@Poll method " + Polls.class.getName() + ".";
        assertMessage(where + "badEvery (every) must be a duration", () -> poller("badEvery"));
        assertMessage(where + "notKeys takes no parameter: it must return a Collection<ObjectKey>", () -> poller("notKeys"));
        assertMessage(where + "nothing must return the object's external state", () -> poller("nothing", V1ConfigMap.class));
        assertMessage(where + "wrongKind must take no parameter (and return the changed keys) or one, the controller's primary kind"
                + " V1ConfigMap", () -> poller("wrongKind", io.kubernetes.client.openapi.models.V1Secret.class));
        assertMessage(where + "two must take no parameter", () -> poller("two", V1ConfigMap.class, String.class));
        assertMessage(where + "statik must be an instance method that is not private", () -> poller("statik"));
    }

    private interface Call {
        Object run() throws Exception;
    }

    private static void assertMessage(String expected, Call call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().startsWith(expected), "message was: " + e.getMessage());
    }
}
