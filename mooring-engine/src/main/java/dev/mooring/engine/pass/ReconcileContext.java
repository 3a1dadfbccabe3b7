package dev.mooring.engine.pass;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.Cache;
import dev.mooring.api.Context;
import dev.mooring.api.EventType;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.PatchOptions;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.patch.Patches;
import dev.mooring.api.status.Conditions;
import dev.mooring.engine.client.Children;
import dev.mooring.engine.client.EngineClient;
import dev.mooring.engine.kube.JsonTrees;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Condition;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The {@link Context} of one reconcile pass: clients and caches, plus the status edits and
 * Events staged during the pass, which the runner persists and flushes after it.
 */
public final class ReconcileContext<T extends KubernetesObject> implements Context<T> {

    static final int MAX_EVENTS = 100;

    private final ControllerView view;
    private final ObjectKey key;
    private final T owner;
    private final EngineClient client;
    private static final Gson GSON = JSON.getGson();
    /** The cached object as a Gson tree, made once, on the first status call of the pass. */
    private JsonObject ownerTree;
    private JsonElement stagedStatus;
    /** This controller's last status write of the object, newer than the cached copy the pass began with; or null. */
    private final StatusWrites.Written previousWrite;
    private final dev.mooring.api.Attempt attempt;
    /** The pass's own latest write of its object, or null: the base of the status write. */
    private T written;
    private final List<EventRecorder.Queued> events = new ArrayList<>();

    /**
     * @param view what the pass sees of its controller
     * @param owner the pass's object as cached (read, never changed)
     * @param client the live client for the object's namespace
     */
    ReconcileContext(ControllerView view, ObjectKey key, T owner, EngineClient client) {
        this(view, key, owner, client, dev.mooring.api.Attempt.FIRST);
    }

    /** @param attempt which attempt at the object's state the pass is */
    ReconcileContext(ControllerView view, ObjectKey key, T owner, EngineClient client, dev.mooring.api.Attempt attempt) {
        this.attempt = java.util.Objects.requireNonNull(attempt, "attempt");
        this.view = view;
        this.key = key;
        this.owner = owner;
        this.client = client;
        // taken as the pass begins: the informer may deliver that write while the pass runs, with the pass still on the older copy
        this.previousWrite = view.statusWrites().newerThan(key, owner);
    }

    @Override
    public String controllerName() {
        return view.controller();
    }

    @Override
    public dev.mooring.api.Attempt attempt() {
        return attempt;
    }

    @Override
    public ObjectKey key() {
        return key;
    }

    @Override
    public ResourceClient client() {
        return client;
    }

    /** The same client, with the engine's own writes. */
    EngineClient engineClient() {
        return client;
    }

    @Override
    public <K extends KubernetesObject> Cache<K> cached(Class<K> kind) {
        return view.caches().watched(kind);
    }

    @Override
    public Cache<dev.mooring.api.PartialObjectMetadata> cachedMetadata(Class<? extends KubernetesObject> kind) {
        return view.caches().metadata(kind);
    }

    @Override
    public void enqueue(ObjectKey other) {
        view.enqueue().accept(other);
    }

    /** The field manager of this controller's server-side applies. */
    String fieldManager() {
        String manager = "mooring-" + view.controller();
        return manager.length() <= 128 ? manager : manager.substring(0, 128);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <C extends KubernetesObject> C ensure(C desired) {
        view.caches().checkCachable(desired);
        return Children.ensure(client, owner, desired, view.caches().ownedOrNull((Class<C>) desired.getClass()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <C extends KubernetesObject> C createOnce(C desired) {
        view.caches().checkCachable(desired);
        return Children.createOnce(client, owner, desired, view.caches().ownedOrNull((Class<C>) desired.getClass()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <C extends KubernetesObject> C apply(C desired) {
        view.caches().checkCachable(desired);
        return Children.apply(client, owner, desired, fieldManager(), view.caches().ownedOrNull((Class<C>) desired.getClass()));
    }

    @Override
    public <C extends KubernetesObject> List<C> prune(Class<C> kind, Collection<String> keep) {
        return Children.prune(client, owner, view.caches().children(kind), keep);
    }

    @Override
    public <C extends KubernetesObject> List<C> owned(Class<C> kind) {
        return Children.owned(view.caches().children(kind), owner);
    }

    // --- status ---
    //
    // The staged status is a Gson tree, the form client-java's models convert to and from without
    // text; only the status, never the whole object, becomes JSON-P, once, for the patch.

    private JsonObject ownerTree() {
        if (ownerTree == null) {
            ownerTree = GSON.toJsonTree(owner).getAsJsonObject();
        }
        return ownerTree;
    }

    private static JsonElement statusOf(JsonObject object) {
        JsonElement status = object.get("status");
        return status == null || status.isJsonNull() ? new JsonObject() : status;
    }

    private JsonElement currentStatus() {
        return stagedStatus != null ? stagedStatus : statusOf(ownerTree());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void updateStatus(Consumer<T> change) {
        JsonObject tree = ownerTree().deepCopy();
        tree.add("status", currentStatus().deepCopy());
        T copy = (T) GSON.fromJson(tree, owner.getClass());
        change.accept(copy);
        stagedStatus = statusOf(GSON.toJsonTree(copy).getAsJsonObject());
    }

    @Override
    public void condition(String type, String status, String reason, String message) {
        if (view.managedConditions().contains(type)) {
            throw new IllegalArgumentException("Condition " + type + " is managed by the controller's stages");
        }
        managedCondition(type, status, reason, message);
    }

    /**
     * Stage a condition, managed ones included (for the stage pipeline). The status's conditions
     * are edited as JSON, not read into {@link V1Condition}: a built-in kind's own condition type
     * (a Deployment's, a Pod's) has fields that {@code V1Condition} lacks, and the other
     * conditions, and those fields of this one, stay as they are.
     */
    void managedCondition(String type, String status, String reason, String message) {
        JsonObject current = currentStatus().isJsonObject() ? currentStatus().getAsJsonObject().deepCopy() : new JsonObject();
        com.google.gson.JsonArray conditions = current.get("conditions") instanceof com.google.gson.JsonArray list ? list
                : new com.google.gson.JsonArray();
        JsonObject existing = null;
        for (JsonElement entry : conditions) {
            if (entry instanceof JsonObject condition && condition.get("type") instanceof com.google.gson.JsonPrimitive name
                    && type.equals(name.getAsString())) {
                existing = condition;
                break;
            }
        }
        Long generation = conditionsObserveGeneration() ? owner.getMetadata().getGeneration() : null;
        V1Condition set = Conditions.set(existing == null ? List.of() : List.of(standardPart(type, existing)), type, status, reason,
                message, generation, view.clock()).get(0);
        JsonObject written = GSON.toJsonTree(set).getAsJsonObject();
        if (existing == null) {
            conditions.add(written);
        } else {
            for (Map.Entry<String, JsonElement> field : written.entrySet()) {
                existing.add(field.getKey(), field.getValue());
            }
        }
        current.add("conditions", conditions);
        stagedStatus = current;
    }

    /** The fields of {@code condition} that {@link Conditions#set} keeps or compares. */
    private static V1Condition standardPart(String type, JsonObject condition) {
        V1Condition standard = new V1Condition().type(type);
        if (condition.get("status") instanceof com.google.gson.JsonPrimitive value) {
            standard.status(value.getAsString());
        }
        if (condition.get("lastTransitionTime") instanceof com.google.gson.JsonPrimitive value) {
            try {
                standard.lastTransitionTime(java.time.OffsetDateTime.parse(value.getAsString()));
            } catch (java.time.format.DateTimeParseException e) {
                // unreadable: the condition gets a new transition time
            }
        }
        return standard;
    }

    /**
     * Whether this kind's conditions carry {@code observedGeneration}: metav1.Condition does, and
     * so does an untyped status; a built-in kind's own condition type may not (a Deployment's),
     * and its model would then refuse the field.
     */
    private boolean conditionsObserveGeneration() {
        Class<?> element = conditionType(owner.getClass());
        if (element == null) {
            return true;
        }
        try {
            element.getMethod("getObservedGeneration");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The element type of {@code status.conditions} of a typed model, or null when it has none. */
    private static Class<?> conditionType(Class<?> kind) {
        try {
            java.lang.reflect.Method conditions = kind.getMethod("getStatus").getReturnType().getMethod("getConditions");
            return conditions.getGenericReturnType() instanceof java.lang.reflect.ParameterizedType list
                    && list.getActualTypeArguments()[0] instanceof Class<?> element ? element : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** Stage the status of {@code desired} (a {@code DesiredStateReconciler}'s answer) as this pass's status. */
    void stageStatusOf(T desired) {
        stagedStatus = statusOf(GSON.toJsonTree(desired).getAsJsonObject());
    }

    /** Stage {@code status.observedGeneration} as the object's {@code metadata.generation} (when it has one). */
    void observeGeneration() {
        Long generation = owner.getMetadata().getGeneration();
        if (generation == null) {
            return;
        }
        JsonObject current = currentStatus().isJsonObject() ? currentStatus().getAsJsonObject().deepCopy() : new JsonObject();
        current.addProperty("observedGeneration", generation);
        stagedStatus = current;
    }

    /**
     * Write the staged status through the status subresource (only the status is written): nothing,
     * and no request, when nothing was staged or it equals the status of the base — the pass's own
     * latest write of its object, else this controller's status write the cache has not delivered
     * yet, else the cached object; otherwise one patch from the base, guarded by its uid and
     * resourceVersion. Only when that is refused as stale is the object read and the patch sent
     * again from what is stored (nothing when it already holds the status).
     */
    @SuppressWarnings("unchecked")
    void persistStatus() {
        if (stagedStatus == null) {
            return;
        }
        JsonValue staged = statusDocument(stagedStatus);
        // the base: the pass's own latest write of its object, else this controller's last status write when the
        // cache has not delivered it yet, else the cached object
        KubernetesObject base;
        JsonValue baseStatus;
        StatusWrites.Written previous = written == null ? previousWrite : null;
        if (written != null) {
            base = written;
            baseStatus = statusDocument(statusOf(GSON.toJsonTree(written).getAsJsonObject()));
        } else if (previous != null) {
            T version = dev.mooring.engine.kube.Models.copy(owner);
            version.getMetadata().setResourceVersion(previous.version());
            base = version;
            baseStatus = previous.status();
        } else {
            base = owner;
            baseStatus = statusDocument(statusOf(ownerTree()));
        }
        JsonArray changes = Patches.jsonPatch(baseStatus, staged);
        if (changes.isEmpty()) {
            return;
        }
        try {
            // one request while the base is current, guarded by its uid and resourceVersion
            remember(client.patch(owner, Patches.guarded(base, changes), PatchOptions.statusSubresource()), staged, previous, null);
            return;
        } catch (KubernetesException e) {
            if (e.isNotFound()) {
                return; // gone: nothing of ours to report on
            }
            if (!e.isConflict()) {
                throw e;
            }
        }
        // the base was behind the store: read the object and patch from what is stored (a conflict again fails the pass)
        Optional<T> live = client.get((Class<T>) owner.getClass(), owner.getMetadata().getNamespace(),
                owner.getMetadata().getName());
        if (live.isEmpty() || !owner.getMetadata().getUid().equals(live.get().getMetadata().getUid())) {
            return; // gone or replaced: nothing of ours to report on
        }
        JsonValue stored = statusDocument(statusOf(GSON.toJsonTree(live.get()).getAsJsonObject()));
        JsonArray operations = Patches.guarded(live.get(), Patches.jsonPatch(stored, staged));
        if (!operations.isEmpty()) {
            remember(client.patch(live.get(), operations, PatchOptions.statusSubresource()), staged, previous,
                    live.get().getMetadata().getResourceVersion());
        }
    }

    /**
     * Keeps the status write the client answered with until the cache delivers it, with the
     * versions known to be older: the cached one, the pass's own write, an earlier status write and
     * what that one knew, and the stored version read (when the first patch was refused).
     */
    private void remember(T result, JsonValue staged, StatusWrites.Written previous, String read) {
        if (result == null || result.getMetadata() == null) {
            return;
        }
        java.util.Set<String> before = new java.util.HashSet<>();
        before.add(owner.getMetadata().getResourceVersion());
        if (written != null) {
            before.add(written.getMetadata().getResourceVersion());
        }
        before.add(read);
        if (previous != null) {
            before.addAll(previous.before());
            before.add(previous.version());
        }
        before.remove(result.getMetadata().getResourceVersion());
        before.remove(null);
        view.statusWrites().wrote(key, owner.getMetadata().getUid(), before, result.getMetadata().getResourceVersion(), staged);
    }

    /**
     * The pass wrote its own object and got {@code latest} back (the finalizer added, a desired
     * state's patch): the status write starts from it rather than from the cached copy, which that
     * write made stale.
     */
    void primaryWritten(T latest) {
        if (latest != null && latest.getMetadata() != null && latest.getMetadata().getResourceVersion() != null) {
            written = latest;
        }
    }

    /** {@code {"status": ...}} as JSON-P, empty collections dropped as Kubernetes drops them. */
    private static JsonValue statusDocument(JsonElement status) {
        return Patches.withoutEmptyCollections(Json.createObjectBuilder().add("status", JsonTrees.toJsonP(status)).build());
    }

    // --- events ---

    @Override
    public void event(EventType type, String reason, String message) {
        queueEvent(type, reason, "Reconcile", message);
    }

    /** Queue an Event with an action (the stage name for stage failures). */
    void queueEvent(EventType type, String reason, String action, String message) {
        EventRecorder.validate(type, reason, action);
        if (events.size() < MAX_EVENTS) {
            events.add(new EventRecorder.Queued(type, reason, action, message));
        }
    }

    /** The Events queued so far in this pass (at most {@value #MAX_EVENTS}). */
    List<EventRecorder.Queued> queuedEvents() {
        return List.copyOf(events);
    }

    /** Send the queued Events, best effort, within {@code budget}. */
    void flushEvents(EventRecorder recorder, Duration budget) {
        if (!events.isEmpty() && recorder != null) {
            recorder.flush(owner, List.copyOf(events), budget);
        }
    }
}
