package dev.mooring.engine.client;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.client.ResourceList;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** One page of a live list, read when it is made; the next ones read as the iteration reaches them. */
final class LivePages<R extends KubernetesObject> implements ResourceList<R> {

    private final KubeHttp http;
    private final ResourceType<R> type;
    private final String path;
    private final Map<String, String> query;
    private final List<R> items;
    private final String resourceVersion;
    private final String continueToken;
    private final OptionalLong remaining;

    /**
     * Reads the page of {@code query} (its selectors and limit) after {@code continueToken} (null
     * for the first page).
     */
    LivePages(KubeHttp http, ResourceType<R> type, String path, Map<String, String> query, String continueToken) {
        this.http = http;
        this.type = type;
        this.path = path;
        this.query = query;
        Map<String, String> page = new HashMap<>(query);
        if (continueToken != null) {
            page.put("continue", continueToken);
        }
        JsonObject answer = http.get(path, page);
        List<R> objects = new ArrayList<>();
        if (answer.get("items") != null && answer.get("items").isJsonArray()) {
            for (JsonElement item : answer.getAsJsonArray("items")) {
                objects.add(Models.fromJson(item.getAsJsonObject(), type));
            }
        }
        this.items = Collections.unmodifiableList(objects);
        JsonObject metadata = answer.get("metadata") instanceof JsonObject object ? object : new JsonObject();
        this.resourceVersion = text(metadata, "resourceVersion");
        String next = text(metadata, "continue");
        this.continueToken = next == null || next.isEmpty() ? null : next;
        this.remaining = metadata.has("remainingItemCount") && !metadata.get("remainingItemCount").isJsonNull()
                ? OptionalLong.of(metadata.get("remainingItemCount").getAsLong()) : OptionalLong.empty();
    }

    @Override
    public List<R> items() {
        return items;
    }

    @Override
    public String resourceVersion() {
        return resourceVersion;
    }

    @Override
    public OptionalLong remainingItemCount() {
        return remaining;
    }

    @Override
    public boolean hasNextPage() {
        return continueToken != null;
    }

    @Override
    public ResourceList<R> nextPage() {
        if (continueToken == null) {
            throw new NoSuchElementException("This was the last page of " + type.kind() + " objects");
        }
        return new LivePages<>(http, type, path, query, continueToken);
    }

    @Override
    public Iterator<R> iterator() {
        return new Iterator<>() {
            private ResourceList<R> page = LivePages.this;
            private Iterator<R> items = page.items().iterator();

            @Override
            public boolean hasNext() {
                while (!items.hasNext() && page.hasNextPage()) {
                    page = page.nextPage();
                    items = page.items().iterator();
                }
                return items.hasNext();
            }

            @Override
            public R next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return items.next();
            }
        };
    }

    @Override
    public Stream<R> stream() {
        return StreamSupport.stream(spliterator(), false);
    }

    private static String text(JsonObject object, String member) {
        JsonElement value = object.get(member);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }
}
