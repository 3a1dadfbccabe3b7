package dev.mooring.engine.informer;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.source.EventSource;
import java.time.Duration;
import java.util.Objects;

/**
 * Read-your-writes: before a pass reads a cache, it waits until that cache has delivered the
 * runtime's own earlier writes of what it reads, so that no pass of any controller reads an older
 * version of an object than the one a pass wrote. A read of one object waits for the pending write
 * of that object; a list waits for the pending writes of its kind in its namespace (every
 * namespace for a list of all). A write the cache has delivered, or one it will never hold (its
 * labels outside the cache's selector and the object not cached), costs no wait.
 *
 * <p>A wait is bounded by {@link Settings#bound()}; then the read goes on from the cache as it is,
 * and the {@link Observer} counts it (a watch that lags that much is a problem of its own). Passes
 * are on the controller's workers, never on an informer's thread or the HTTP pool.
 */
public final class ReadYourWrites {

    /**
     * @param enabled whether reads wait for the runtime's writes ({@code mooring.read-your-writes.enabled})
     * @param bound the longest a read waits ({@code mooring.read-your-writes.max-wait})
     */
    public record Settings(boolean enabled, Duration bound) {
        /** On, waiting at most 2 seconds. */
        public static final Settings DEFAULT = new Settings(true, Duration.ofSeconds(2));
        public static final Settings OFF = new Settings(false, Duration.ZERO);

        public Settings {
            Objects.requireNonNull(bound, "bound");
            if (bound.isNegative()) {
                throw new IllegalArgumentException("The longest wait of read-your-writes must not be negative: " + bound);
            }
        }
    }

    /** Told of each wait a read had to make; called on the pass's thread, must be fast. */
    public interface Observer {
        Observer NONE = (controller, caughtUp) -> { };

        /** A read of {@code controller} waited for a write, and the cache delivered it ({@code caughtUp}) or the bound passed. */
        void waited(String controller, boolean caughtUp);
    }

    /** Reads that wait for nothing. */
    public static final ReadYourWrites OFF = new ReadYourWrites(null, Settings.OFF, Observer.NONE);

    private final WrittenVersions writes;
    private final Settings settings;
    private final Observer observer;

    /** @param writes the runtime's writes (null only when {@code settings} is off) */
    public ReadYourWrites(WrittenVersions writes, Settings settings, Observer observer) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.writes = settings.enabled() ? Objects.requireNonNull(writes, "writes") : null;
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    public Settings settings() {
        return settings;
    }

    /** Before {@code controller} reads {@code key} from {@code source}: waits for the runtime's pending write of it, if any. */
    public void awaitKey(String controller, EventSource<?> source, ObjectKey key) {
        if (writes == null) {
            return;
        }
        WrittenVersions.Write write = writes.pending(kindKey(source), key);
        if (write != null && !WrittenVersions.delivered(source, write)) {
            await(controller, source, key.namespace(), write.version());
        }
    }

    /** Before {@code controller} lists {@code source} in {@code namespace} (null: all it holds): waits for the pending writes there. */
    public void awaitList(String controller, EventSource<?> source, String namespace) {
        if (writes == null) {
            return;
        }
        long needed = 0; // no version is 0
        for (WrittenVersions.Write write : writes.pending(kindKey(source), source.type().namespaced() ? namespace : null)) {
            if (!WrittenVersions.delivered(source, write)) {
                needed = Math.max(needed, write.version());
            }
        }
        if (needed > 0) {
            await(controller, source, namespace, needed);
        }
    }

    /**
     * Before {@code controller} reads index {@code index} of {@code source} under {@code value}:
     * for the controller index ({@link dev.mooring.api.Cache#CONTROLLER_INDEX}, an owner's
     * children) waits for the pending writes of the owner's children only (those written with
     * that controller, and those cached with it); for any other index, for the kind's pending
     * writes in every namespace.
     */
    public void awaitIndexed(String controller, EventSource<?> source, String index, String value) {
        if (writes == null) {
            return;
        }
        if (!dev.mooring.api.Cache.CONTROLLER_INDEX.equals(index)) {
            awaitList(controller, source, null);
            return;
        }
        long needed = 0;
        for (WrittenVersions.Write write : writes.pending(kindKey(source), (String) null)) {
            if ((value.equals(write.controllerUid()) || controlledBy(source, write.key(), value)) && !WrittenVersions.delivered(source, write)) {
                needed = Math.max(needed, write.version());
            }
        }
        if (needed > 0) {
            await(controller, source, null, needed);
        }
    }

    private static boolean controlledBy(EventSource<?> source, ObjectKey key, String uid) {
        return source.cached(key).map(object -> object.getMetadata().getOwnerReferences()).orElse(java.util.List.of()).stream()
                .anyMatch(owner -> Boolean.TRUE.equals(owner.getController()) && uid.equals(owner.getUid()));
    }

    private void await(String controller, EventSource<?> source, String namespace, long version) {
        boolean caughtUp;
        try {
            caughtUp = source.awaitSeen(namespace, version, System.nanoTime() + settings.bound().toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the pass is being cancelled: it reads what there is
            return;
        }
        observer.waited(controller, caughtUp);
    }

    private static String kindKey(EventSource<?> source) {
        return WrittenVersions.kindKey(source.type().group(), source.type().kind());
    }
}
