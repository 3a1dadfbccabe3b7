package dev.mooring.engine;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.model.Poller;
import dev.mooring.engine.source.EventSource;
import io.kubernetes.client.common.KubernetesObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code @Poll} methods of one controller, each polled in a loop of its own: a timer waits
 * {@code every} (on the scheduler), the poll runs on the executor (it may call a slow external
 * system: it must not hold a timer thread), and the next wait begins when it ends, so one method
 * never polls twice at once. A whole-system poll enqueues the keys it returns; a per-object poll
 * enqueues the objects whose polled value changed since the previous poll.
 */
final class ControllerPolls<T extends KubernetesObject> {

    private static final Logger LOG = Logger.getLogger(ControllerPolls.class.getName());

    private final String controller;
    private final List<Poller> pollers;
    private final Supplier<EventSource<T>> primary;
    private final Consumer<ObjectKey> enqueue;
    /** Per per-object poller: the value each object had at its last poll (objects no longer cached are dropped). */
    private final Map<Poller, Map<ObjectKey, Object>> lastValues = new HashMap<>();
    /** Each poller's one pending task: its timer, or its poll once the timer fired. */
    private final Map<Poller, Future<?>> pending = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean stopped;

    ControllerPolls(String controller, List<Poller> pollers, Supplier<EventSource<T>> primary, Consumer<ObjectKey> enqueue) {
        this.controller = controller;
        this.pollers = List.copyOf(pollers);
        this.primary = primary;
        this.enqueue = enqueue;
        this.pollers.stream().filter(Poller::perObject).forEach(poller -> lastValues.put(poller, new HashMap<>()));
    }

    /** Start every poller's loop: its first poll {@code every} from now. */
    void start(ExecutorService executor, ScheduledExecutorService timers) {
        for (Poller poller : pollers) {
            schedule(poller, executor, timers);
        }
    }

    private void schedule(Poller poller, ExecutorService executor, ScheduledExecutorService timers) {
        if (stopped) {
            return;
        }
        Runnable loop = () -> {
            try {
                poll(poller);
            } finally {
                schedule(poller, executor, timers);
            }
        };
        Runnable handOver = () -> pending.put(poller, executor.submit(loop));
        pending.put(poller, timers.schedule(handOver, poller.every().toNanos(), TimeUnit.NANOSECONDS));
    }

    /** Stop the loops: no poll starts any more; one running is interrupted. */
    void stop() {
        stopped = true;
        pending.values().forEach(future -> future.cancel(true));
    }

    /** One poll of {@code poller} now: the keys to reconcile enqueued; a failure logged. Never throws. */
    void poll(Poller poller) {
        try {
            if (poller.perObject()) {
                pollEach(poller);
            } else {
                Poller.keys(poller.call().poll(null), poller.description()).forEach(enqueue);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | AssertionError e) {
            LOG.log(Level.WARNING, "Poll " + poller.description() + " of controller " + controller + " failed; the next poll comes in "
                    + poller.every().toMillis() / 1000.0 + " s: " + e, e);
        }
    }

    private void pollEach(Poller poller) throws Exception {
        Map<ObjectKey, Object> last = lastValues.get(poller);
        Map<ObjectKey, Object> now = new HashMap<>();
        for (T object : primary.get().list()) {
            ObjectKey key = ObjectKey.of(object);
            Object value = poller.call().poll(object); // a copy: the source lists copies
            now.put(key, value);
            synchronized (last) {
                if (last.containsKey(key) && !Objects.equals(last.get(key), value)) {
                    enqueue.accept(key);
                }
            }
        }
        synchronized (last) {
            last.clear();
            last.putAll(now);
        }
    }
}
