package dev.mooring.engine.pass;

import dev.mooring.api.EventType;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.KubeNames;
import dev.mooring.engine.kube.Models;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Emits events.k8s.io/v1 Events about objects, best effort and bounded: a repeated reason for the
 * same object (same type, reason and action; the message does not count) is suppressed for the
 * dedup interval (60 s); at most {@code maxKeys} (1024) such keys are remembered, the least
 * recently used forgotten first; a token bucket (burst 20, 5 per second) bounds the traffic;
 * notes are cut to 1024 characters. Delivery failures are logged, never thrown: an Event never
 * fails a reconcile.
 */
public final class EventRecorder {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class.getName());
    private static final Pattern REASON = Pattern.compile("^[A-Za-z][A-Za-z0-9_]{0,127}$");
    static final int BURST = 20;
    static final double REFILL_PER_SECOND = 5;
    static final int MAX_NOTE = 1024;

    private record Key(String namespace, String uid, EventType type, String reason, String action) {
    }

    private final KubeHttp http;
    private final String reportingController;
    private final String reportingInstance = UUID.randomUUID().toString();
    private final String fallbackNamespace;
    private final long intervalNanos;
    private final int maxKeys;
    private final LongSupplier nanoTime;
    private final Supplier<Instant> now;
    private final Map<Key, Long> lastSent;
    private double tokens = BURST;
    private long lastRefill;

    /**
     * @param reportingController the Event's reportingController, such as {@code mooring/configmap-mirror}
     * @param fallbackNamespace where Events about cluster-scoped objects go
     */
    public EventRecorder(KubeHttp http, String reportingController, String fallbackNamespace) {
        this(http, reportingController, fallbackNamespace, Duration.ofSeconds(60), 1024, System::nanoTime, Instant::now);
    }

    EventRecorder(KubeHttp http, String reportingController, String fallbackNamespace, Duration interval, int maxKeys,
            LongSupplier nanoTime, Supplier<Instant> now) {
        if (reportingController == null || reportingController.isEmpty() || reportingController.length() > 128) {
            throw new IllegalArgumentException("reportingController must contain 1-128 characters");
        }
        this.http = http;
        this.reportingController = reportingController;
        this.fallbackNamespace = fallbackNamespace;
        this.intervalNanos = interval.toNanos();
        this.maxKeys = maxKeys;
        this.nanoTime = nanoTime;
        this.now = now;
        this.lastRefill = nanoTime.getAsLong();
        this.lastSent = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Long> eldest) {
                return size() > EventRecorder.this.maxKeys;
            }
        };
    }

    /** Checks what a reconciler passes; thrown at once, so that mistakes show in the reconcile. */
    public static void validate(EventType type, String reason, String action) {
        Objects.requireNonNull(type, "type");
        if (reason == null || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException("Event reason must be a CamelCase identifier of at most 128 characters, got '"
                    + reason + "'");
        }
        if (action == null || action.isEmpty() || action.length() > 128) {
            throw new IllegalArgumentException("Event action must contain 1-128 characters, got '" + action + "'");
        }
    }

    /**
     * Emit one Event about {@code regarding}, unless suppressed or rate limited.
     *
     * @param timeout bound of the request
     * @return true when the server stored it
     */
    public boolean emit(KubernetesObject regarding, EventType type, String reason, String action, String note,
            Duration timeout) {
        validate(type, reason, action);
        if (regarding.getMetadata() == null || regarding.getMetadata().getUid() == null) {
            return false;
        }
        String namespace = regarding.getMetadata().getNamespace() != null ? regarding.getMetadata().getNamespace()
                : fallbackNamespace;
        if (!admit(namespace, regarding.getMetadata().getUid(), type, reason, action)) {
            return false;
        }
        try {
            http.send("POST", "/apis/events.k8s.io/v1/namespaces/" + KubeNames.namespace(namespace, "namespace") + "/events", Map.of(),
                    body(regarding, namespace, type, reason, action, note), "application/json", timeout);
            return true;
        } catch (RuntimeException e) {
            // the key stays reserved: a denied or failing API is not hammered
            LOG.log(Level.WARNING, "Could not record Event " + reason + " for " + regarding.getKind() + " "
                    + dev.mooring.api.ObjectKey.of(regarding) + ": " + e.getMessage());
            return false;
        }
    }

    /** Dedup and rate limit; reserves the key when admitted. */
    synchronized boolean admit(String namespace, String uid, EventType type, String reason, String action) {
        Key key = new Key(namespace, uid, type, reason, action);
        long current = nanoTime.getAsLong();
        Long last = lastSent.get(key);
        if (last != null && current - last < intervalNanos) {
            return false;
        }
        tokens = Math.min(BURST, tokens + (current - lastRefill) / 1e9 * REFILL_PER_SECOND);
        lastRefill = current;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        lastSent.put(key, current);
        return true;
    }

    synchronized int rememberedKeys() {
        return lastSent.size();
    }

    String body(KubernetesObject regarding, String namespace, EventType type, String reason, String action,
            String note) {
        com.google.gson.JsonObject event = new com.google.gson.JsonObject();
        event.addProperty("apiVersion", "events.k8s.io/v1");
        event.addProperty("kind", "Event");
        com.google.gson.JsonObject metadata = new com.google.gson.JsonObject();
        metadata.addProperty("name", "mooring-" + UUID.randomUUID().toString().replace("-", ""));
        metadata.addProperty("namespace", namespace);
        event.add("metadata", metadata);
        event.addProperty("eventTime", Models.microTime(now.get()));
        event.addProperty("reportingController", reportingController);
        event.addProperty("reportingInstance", reportingInstance);
        com.google.gson.JsonObject reference = new com.google.gson.JsonObject();
        reference.addProperty("apiVersion", regarding.getApiVersion());
        reference.addProperty("kind", regarding.getKind());
        reference.addProperty("name", regarding.getMetadata().getName());
        reference.addProperty("uid", regarding.getMetadata().getUid());
        if (regarding.getMetadata().getNamespace() != null) {
            reference.addProperty("namespace", regarding.getMetadata().getNamespace());
        }
        event.add("regarding", reference);
        event.addProperty("reason", reason);
        event.addProperty("action", action);
        event.addProperty("note", note == null ? "" : note.length() > MAX_NOTE ? note.substring(0, MAX_NOTE) : note);
        event.addProperty("type", type == EventType.WARNING ? "Warning" : "Normal");
        return event.toString();
    }

    /** An Event queued during a pass. */
    public record Queued(EventType type, String reason, String action, String note) {
    }

    /**
     * Emit queued Events, stopping when {@code budget} is used up (the rest are dropped and
     * counted in the log).
     */
    public void flush(KubernetesObject regarding, List<Queued> events, Duration budget) {
        long end = nanoTime.getAsLong() + budget.toNanos();
        int dropped = 0;
        for (Queued event : events) {
            long left = end - nanoTime.getAsLong();
            if (left <= 0) {
                dropped++;
                continue;
            }
            emit(regarding, event.type(), event.reason(), event.action(), event.note(), Duration.ofNanos(left));
        }
        if (dropped > 0) {
            int count = dropped;
            LOG.warning(() -> "Dropped " + count + " Event(s) for " + dev.mooring.api.ObjectKey.of(regarding)
                    + ": the flush timeout of " + budget.toMillis() + " ms was used up");
        }
    }
}
