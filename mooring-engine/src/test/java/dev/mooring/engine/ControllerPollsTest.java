package dev.mooring.engine;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static dev.mooring.engine.TestKinds.configMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.model.Poller;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A controller's polls: the keys a whole-system poll returns, the objects whose polled value changed, failures logged only. */
class ControllerPollsTest {

    private final FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS, "ops");
    private final List<ObjectKey> enqueued = new CopyOnWriteArrayList<>();
    private final LogCapture log = new LogCapture(ControllerPolls.class);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        log.stop();
        executor.shutdownNow();
        timers.shutdownNow();
    }

    private ControllerPolls<V1ConfigMap> polls(Poller... pollers) {
        log.start();
        return new ControllerPolls<>("maps", List.of(pollers), () -> source, enqueued::add);
    }

    @Test
    void aWholeSystemPollEnqueuesTheKeysItReturnsAndAFailureIsLoggedOnly() {
        List<Object> answers = new CopyOnWriteArrayList<>(List.of(List.of(new ObjectKey("ops", "a"), new ObjectKey("ops", "b")),
                List.of()));
        Poller changed = new Poller("Bean.changed", Duration.ofSeconds(30), false, object -> answers.remove(0));
        ControllerPolls<V1ConfigMap> polls = polls(changed);
        polls.poll(changed);
        assertEquals(List.of(new ObjectKey("ops", "a"), new ObjectKey("ops", "b")), enqueued);
        polls.poll(changed);
        assertEquals(2, enqueued.size(), "nothing changed: nothing enqueued");

        answers.add(null);
        polls.poll(changed);
        answers.add(List.of(new ObjectKey("ops", "c"), "d"));
        polls.poll(changed);
        Poller throwing = new Poller("Bean.down", Duration.ofSeconds(30), false, object -> {
            throw new IllegalStateException("the external API is down");
        });
        polls.poll(throwing);
        assertEquals(2, enqueued.size(), "null is no key; a list with a wrong element enqueues none of it");
        assertTrue(log.lines().get(0).contains("Poll Bean.changed of controller maps failed; the next poll comes in 30.0 s: "
                + "java.lang.IllegalStateException: @Poll method Bean.changed returned a java.lang.String among its keys"),
                log.lines().toString());
        assertTrue(log.lines().get(1).contains("the external API is down"), log.lines().toString());
    }

    @Test
    void aPerObjectPollEnqueuesTheObjectsWhoseValueChangedSinceThePreviousPoll() {
        Map<String, Object> external = new ConcurrentHashMap<>(Map.of("a", "v1", "b", 7));
        Poller state = new Poller("Bean.state", Duration.ofSeconds(30), true,
                object -> external.get(object.getMetadata().getName()));
        ControllerPolls<V1ConfigMap> polls = polls(state);
        source.add(configMap("a", "u-a", Map.of()));
        source.add(configMap("b", "u-b", Map.of()));
        polls.poll(state);
        assertEquals(List.of(), enqueued, "the first value of an object is only recorded");
        polls.poll(state);
        assertEquals(List.of(), enqueued, "unchanged");

        external.put("b", 8);
        polls.poll(state);
        assertEquals(List.of(new ObjectKey("ops", "b")), enqueued);
        polls.poll(state);
        assertEquals(1, enqueued.size(), "the changed value is the one compared next");

        source.delete(configMap("a", "u-a", Map.of()));
        external.put("a", "v2");
        polls.poll(state);
        source.add(configMap("a", "u-a2", Map.of()));
        polls.poll(state);
        assertEquals(1, enqueued.size(), "an object no longer cached is forgotten: when it comes back its value is new, not changed");
        external.put("a", "v3");
        polls.poll(state);
        assertEquals(List.of(new ObjectKey("ops", "b"), new ObjectKey("ops", "a")), enqueued);
    }

    @Test
    void anInterruptedPollKeepsTheInterruptAndAStopCancelsTheWaitingTimer() throws Exception {
        Poller interrupted = new Poller("Bean.slow", Duration.ofHours(1), false, object -> {
            throw new InterruptedException("stopping");
        });
        ControllerPolls<V1ConfigMap> polls = polls(interrupted);
        polls.poll(interrupted);
        assertTrue(Thread.interrupted(), "the interrupt is kept for the thread's owner");
        assertEquals(List.of(), log.lines(), "an interrupt is no failure");

        java.util.concurrent.ScheduledThreadPoolExecutor timer = new java.util.concurrent.ScheduledThreadPoolExecutor(1);
        timer.setRemoveOnCancelPolicy(true);
        try {
            polls.start(executor, timer);
            assertEquals(1, timer.getQueue().size(), "the first poll waits an hour");
            polls.stop();
            assertEquals(0, timer.getQueue().size(), "the stop cancels it");
            polls.start(executor, timer);
            assertEquals(0, timer.getQueue().size(), "nothing starts after the stop");
        } finally {
            timer.shutdownNow();
        }
    }

    @Test
    void eachPollerLoopsUntilStopped() throws Exception {
        AtomicInteger polled = new AtomicInteger();
        AtomicInteger running = new AtomicInteger();
        List<Integer> overlaps = new CopyOnWriteArrayList<>();
        Poller often = new Poller("Bean.often", Duration.ofMillis(1), false, object -> {
            overlaps.add(running.incrementAndGet());
            Thread.sleep(2);
            running.decrementAndGet();
            polled.incrementAndGet();
            return List.of(new ObjectKey("ops", "a"));
        });
        ControllerPolls<V1ConfigMap> polls = polls(often);
        polls.start(executor, timers);
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (polled.get() < 3) {
            assertTrue(System.nanoTime() < end, "three polls within 10 s (real time bounds only the wait)");
            Thread.sleep(5);
        }
        polls.stop();
        assertTrue(overlaps.stream().allMatch(count -> count == 1), "one poll at a time: " + overlaps);
        assertTrue(enqueued.size() >= 3);
    }
}
