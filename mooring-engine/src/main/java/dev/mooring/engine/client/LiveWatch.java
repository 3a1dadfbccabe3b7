package dev.mooring.engine.client;

import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.ResourceWatch;
import dev.mooring.api.client.WatchEvent;
import dev.mooring.engine.kube.Backoff;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A watch read on the caller's thread that reconnects by itself, from the last resourceVersion it
 * reached (see {@link ResourceWatch} for the rules). Until a deadline, when it has one: then the
 * iteration ends.
 *
 * <p>Written here rather than taken from client-java: its {@code Watch} is one request, with no
 * reconnect, bookmark tracking or 410 handling.
 */
final class LiveWatch<R extends KubernetesObject> implements ResourceWatch<R> {

    /** The first pause after a failed attempt, doubling to {@link #RECONNECT_CAP}, as the informer's. */
    static final Duration FIRST_RECONNECT = Duration.ofMillis(250);
    static final Duration RECONNECT_CAP = Duration.ofSeconds(4);
    private static final long SERVER_TIMEOUT_SECONDS = 300;

    private final KubeHttp http;
    private final ResourceType<R> type;
    private final String path;
    private final Map<String, String> selectors;
    private final boolean failWhenExpired;
    private final long deadline;
    private final Backoff reconnects = Backoff.exponential(FIRST_RECONNECT, RECONNECT_CAP).withJitter(0.5, 1.0);
    private String resourceVersion;
    private volatile boolean closed;
    private volatile Watch<JsonObject> current;
    private WatchEvent<R> pending;
    private int failures;

    /**
     * @param selectors the label and field selectors of the query
     * @param resourceVersion where to start, null for the current objects
     * @param deadline a {@link System#nanoTime()} value after which the iteration ends, or {@link Long#MAX_VALUE}
     */
    LiveWatch(KubeHttp http, ResourceType<R> type, String path, Map<String, String> selectors, String resourceVersion,
            boolean failWhenExpired, long deadline) {
        this.http = http;
        this.type = type;
        this.path = path;
        this.selectors = Map.copyOf(selectors);
        this.resourceVersion = resourceVersion;
        this.failWhenExpired = failWhenExpired;
        this.deadline = deadline;
    }

    @Override
    public Iterator<WatchEvent<R>> iterator() {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                if (pending == null) {
                    pending = advance();
                }
                return pending != null;
            }

            @Override
            public WatchEvent<R> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                WatchEvent<R> event = pending;
                pending = null;
                return event;
            }
        };
    }

    @Override
    public void close() {
        closed = true;
        closeCurrent();
    }

    /** The next event, or null once closed or past the deadline. */
    private WatchEvent<R> advance() {
        while (!closed && System.nanoTime() < deadline) {
            try {
                Watch<JsonObject> watch = current != null ? current : open();
                if (watch == null) {
                    continue;
                }
                if (!watch.hasNext()) {
                    closeCurrent(); // the server's timeout: resume from where it was
                    continue;
                }
                failures = 0;
                WatchEvent<R> event = event(watch.next());
                if (event != null) {
                    return event;
                }
            } catch (KubernetesException e) {
                closeCurrent();
                if (closed) {
                    break;
                }
                if (e.code() == 410) {
                    expired(e);
                } else if (Failures.isFatal(e)) {
                    throw e;
                } else {
                    pause();
                }
            } catch (RuntimeException e) {
                // client-java reports a broken stream as a RuntimeException wrapping an IOException
                closeCurrent();
                if (!closed) {
                    pause();
                }
            }
        }
        return null;
    }

    private Watch<JsonObject> open() {
        Map<String, String> query = new HashMap<>(selectors);
        if (resourceVersion != null) {
            query.put("resourceVersion", resourceVersion);
        }
        query.put("allowWatchBookmarks", "true");
        long seconds = SERVER_TIMEOUT_SECONDS + ThreadLocalRandom.current().nextLong(SERVER_TIMEOUT_SECONDS);
        if (deadline != Long.MAX_VALUE) {
            seconds = Math.max(1, Math.min(seconds, (long) Math.ceil((deadline - System.nanoTime()) / 1e9)));
        }
        query.put("timeoutSeconds", Long.toString(seconds));
        current = http.watch(path, query);
        if (closed) {
            closeCurrent();
            return null;
        }
        return current;
    }

    /** The event of one watch answer, or null for one that is not handed out (an expired history restarted). */
    private WatchEvent<R> event(Watch.Response<JsonObject> answer) {
        switch (answer.type) {
            case "ADDED", "MODIFIED", "DELETED" -> {
                R object = Models.fromJson(answer.object, type);
                resourceVersion = object.getMetadata() == null ? resourceVersion : object.getMetadata().getResourceVersion();
                return new WatchEvent<>(WatchEvent.Type.valueOf(answer.type), object, resourceVersion);
            }
            case "BOOKMARK" -> {
                JsonObject metadata = answer.object == null ? null : answer.object.getAsJsonObject("metadata");
                if (metadata != null && metadata.has("resourceVersion")) {
                    resourceVersion = metadata.get("resourceVersion").getAsString();
                }
                return new WatchEvent<>(WatchEvent.Type.BOOKMARK, null, resourceVersion);
            }
            case "ERROR" -> {
                int code = answer.status == null || answer.status.getCode() == null ? 0 : answer.status.getCode();
                String reason = answer.status == null || answer.status.getReason() == null ? "" : answer.status.getReason();
                String message = answer.status == null ? "unknown error" : answer.status.getMessage();
                throw new KubernetesException(code == 0 && ("Expired".equals(reason) || "Gone".equals(reason)) ? 410 : code, reason,
                        "The watch of " + type.kind() + " at " + path + " reported an error: " + message, null);
            }
            default -> {
                return null;
            }
        }
    }

    /** 410 Gone: the history since {@link #resourceVersion} is compacted. */
    private void expired(KubernetesException e) {
        if (failWhenExpired) {
            throw e;
        }
        resourceVersion = null; // again from the current objects, as the reference's watch does
    }

    private void pause() {
        Duration delay = reconnects.delay(failures++);
        long end = Math.min(deadline, System.nanoTime() + delay.toNanos());
        try {
            while (!closed && System.nanoTime() < end) {
                Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    private void closeCurrent() {
        Watch<JsonObject> watch = current;
        current = null;
        if (watch != null) {
            try {
                watch.close();
            } catch (IOException | RuntimeException e) {
                // closing a broken connection: nothing more to release
            }
        }
    }
}
