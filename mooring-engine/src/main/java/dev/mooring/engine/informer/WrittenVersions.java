package dev.mooring.engine.informer;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The writes of one runtime that its caches may not have delivered yet: per kind and object, the
 * highest resourceVersion the API server answered a create, update, patch, status write or delete
 * with (read-your-writes). Fed from every successful answer of the runtime's request client, on
 * the threads that sent them; read by passes before they read a cache.
 *
 * <p>An entry goes once every informer of its kind has delivered it (applied its version, see
 * {@link SeenVersion}, or holds that version of the object) or never will hold it, checked every
 * {@value #PRUNE_EVERY} writes of the kind, and in any case a minute after it was written, so
 * that an informer that stopped keeps nothing for ever.
 */
public final class WrittenVersions {

    /**
     * A write: the version it made, the object's labels then (null for none), the uid of its
     * controller owner then (null for none), when it was recorded.
     */
    public record Write(ObjectKey key, long version, Map<String, String> labels, String controllerUid, long recordedNanos) {
    }

    static final int PRUNE_EVERY = 64;
    static final long HORIZON_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(1);

    private final Map<String, Map<ObjectKey, Write>> byKind = new ConcurrentHashMap<>();
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> sincePrune = new ConcurrentHashMap<>();
    /** The informers now, for what each has applied. */
    private final Supplier<List<Informer<?>>> informers;
    private final LongSupplier nanoTime;

    /** @param informers the runtime's informers now (those of a kind decide when its entries go) */
    public WrittenVersions(Supplier<List<Informer<?>>> informers) {
        this(informers, System::nanoTime);
    }

    WrittenVersions(Supplier<List<Informer<?>>> informers, LongSupplier nanoTime) {
        this.informers = informers;
        this.nanoTime = nanoTime;
    }

    /** The key of a kind: its group and kind, whatever the version (one object under every version). */
    static String kindKey(String group, String kind) {
        return group + "/" + kind;
    }

    /**
     * Records the object the API server answered a write with: a document with {@code apiVersion},
     * {@code kind}, {@code metadata.name} and a numeric {@code metadata.resourceVersion}. Anything
     * else (a {@code Status}, a {@code Scale}) is not an object a cache holds and is ignored.
     */
    public void answered(JsonObject answer) {
        String apiVersion = string(answer, "apiVersion");
        String kind = string(answer, "kind");
        if (apiVersion == null || kind == null || !(answer.get("metadata") instanceof JsonObject metadata)) {
            return;
        }
        String name = string(metadata, "name");
        long version = SeenVersion.parse(string(metadata, "resourceVersion"));
        if (name == null || version <= 0 || "Status".equals(kind)) {
            return; // 0 is no object's version (it asks for any, in a list or a watch)
        }
        String kindKey = kindKey(apiVersion.substring(0, Math.max(0, apiVersion.lastIndexOf('/'))), kind);
        Map<String, String> labels = null;
        if (metadata.get("labels") instanceof JsonObject labelObject && !labelObject.isEmpty()) {
            labels = new java.util.HashMap<>();
            for (Map.Entry<String, JsonElement> label : labelObject.entrySet()) {
                if (label.getValue().isJsonPrimitive()) {
                    labels.put(label.getKey(), label.getValue().getAsString());
                }
            }
        }
        record(kindKey, new Write(new ObjectKey(string(metadata, "namespace"), name), version, labels, controllerUid(metadata),
                nanoTime.getAsLong()));
    }

    void record(String kindKey, Write write) {
        byKind.computeIfAbsent(kindKey, k -> new ConcurrentHashMap<>())
                .merge(write.key(), write, (old, now) -> now.version() < old.version() ? old : now); // the same version again: now
        if (sincePrune.computeIfAbsent(kindKey, k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet() % PRUNE_EVERY == 0) {
            prune(kindKey);
        }
    }

    /** The pending write of this object of this kind, or null. */
    Write pending(String kindKey, ObjectKey key) {
        Map<ObjectKey, Write> writes = byKind.get(kindKey);
        return writes == null ? null : writes.get(key);
    }

    /** The pending writes of this kind in {@code namespace} (null: in every namespace). */
    List<Write> pending(String kindKey, String namespace) {
        Map<ObjectKey, Write> writes = byKind.get(kindKey);
        List<Write> found = new ArrayList<>();
        if (writes != null) {
            for (Write write : writes.values()) {
                if (namespace == null || namespace.equals(write.key().namespace())) {
                    found.add(write);
                }
            }
        }
        return found;
    }

    /** How many writes are pending (for tests and metrics). */
    public int size() {
        return byKind.values().stream().mapToInt(Map::size).sum();
    }

    /**
     * Drops the writes of {@code kindKey} that every informer of it has delivered (or will never
     * hold), and those older than the horizon.
     */
    void prune(String kindKey) {
        Map<ObjectKey, Write> writes = byKind.get(kindKey);
        if (writes == null) {
            return;
        }
        List<Informer<?>> ofKind = new ArrayList<>();
        for (Informer<?> informer : informers.get()) {
            if (kindKey.equals(kindKey(informer.type().group(), informer.type().kind()))) {
                ofKind.add(informer);
            }
        }
        long oldest = nanoTime.getAsLong() - HORIZON_NANOS;
        writes.values().removeIf(write -> write.recordedNanos() - oldest < 0
                || ofKind.stream().allMatch(informer -> informer.seenVersion() >= write.version() || delivered(informer, write)));
    }

    /** Whether {@code source} holds the write (or a later version), or never will: the object outside its scope and not cached. */
    static boolean delivered(dev.mooring.engine.source.EventSource<?> source, Write write) {
        java.util.Optional<? extends io.kubernetes.client.common.KubernetesObject> cached = source.cached(write.key());
        if (cached.isPresent()) {
            return SeenVersion.parse(cached.get().getMetadata().getResourceVersion()) >= write.version();
        }
        boolean outside = source.type().namespaced() && write.key().namespace() != null && !source.holds(write.key().namespace());
        return outside || !source.mayHold(write.labels());
    }

    private static String controllerUid(JsonObject metadata) {
        if (metadata.get("ownerReferences") instanceof com.google.gson.JsonArray owners) {
            for (JsonElement owner : owners) {
                if (owner instanceof JsonObject reference && reference.get("controller") instanceof com.google.gson.JsonPrimitive flag
                        && flag.isBoolean() && flag.getAsBoolean()) {
                    return string(reference, "uid");
                }
            }
        }
        return null;
    }

    private static String string(JsonObject object, String member) {
        JsonElement value = object.get(member);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
    }
}
