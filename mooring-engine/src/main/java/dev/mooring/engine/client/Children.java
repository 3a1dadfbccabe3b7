package dev.mooring.engine.client;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.TerminalException;
import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.patch.Patches;
import dev.mooring.engine.kube.Models;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Writes of owned children: ensure (guarded merge), apply (server-side apply) and prune. */
public final class Children {

    /** Server-set metadata that a desired child never carries. */
    private static final List<String> SERVER_METADATA = List.of("uid", "resourceVersion", "creationTimestamp",
            "managedFields", "generation", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink");

    private Children() {
    }

    public static <C extends KubernetesObject> C ensure(ResourceClient client, KubernetesObject owner, C desired) {
        return ensure(client, owner, desired, null);
    }

    /**
     * Ensure against {@code cache} (the controller's informer of the owned kind) when there is
     * one: an unchanged child costs no request, a changed one a guarded PATCH of the cached copy
     * (a stale copy conflicts and the pass is retried). A child missing from the cache is read
     * live before it is created, since a child created a moment ago may not be cached yet.
     */
    public static <C extends KubernetesObject> C ensure(ResourceClient client, KubernetesObject owner, C desired, Cache<C> cache) {
        C want = withDefaults(owner, desired);
        Optional<C> live = current(client, cache, want);
        if (live.isEmpty()) {
            return createOwned(client, owner, want);
        }
        C current = live.get();
        checkControlledBy(current, owner);
        want.getMetadata().setOwnerReferences(withReference(current.getMetadata().getOwnerReferences(), reference(owner)));
        JsonValue currentJson = Patches.toJson(current);
        if (AppliedFields.holds(currentJson, desiredJson(want))) {
            return current; // lists the server completed with defaults (a Deployment's containers) hold as they are
        }
        JsonValue merged = Patches.merge(currentJson, desiredJson(want));
        C mergedModel = JSON.deserialize(merged.toString(), kindOf(want));
        JsonArray operations = Patches.diff(current, mergedModel);
        return operations.isEmpty() ? current : client.patch(current, operations);
    }

    /**
     * Create-once against {@code cache} when there is one: a child that exists (cached, else read
     * live) and is controlled by {@code owner} is returned unchanged, with no write; a missing one
     * is created.
     */
    public static <C extends KubernetesObject> C createOnce(ResourceClient client, KubernetesObject owner, C desired, Cache<C> cache) {
        C want = withDefaults(owner, desired);
        Optional<C> live = current(client, cache, want);
        if (live.isEmpty()) {
            return createOwned(client, owner, want);
        }
        checkControlledBy(live.get(), owner);
        return live.get();
    }

    private static <C extends KubernetesObject> C createOwned(ResourceClient client, KubernetesObject owner, C want) {
        want.getMetadata().setOwnerReferences(withReference(want.getMetadata().getOwnerReferences(), reference(owner)));
        return client.create(want);
    }

    public static <C extends KubernetesObject> C apply(ResourceClient client, KubernetesObject owner, C desired, String fieldManager) {
        return apply(client, owner, desired, fieldManager, null);
    }

    /**
     * Server-side apply against {@code cache} when there is one: no request when the cached child
     * holds every field the desired object sets and this controller applies the same set of fields
     * as last time (see {@link AppliedFields}); else one apply. The ownership check reads the cache
     * (a child missing from it is read live).
     */
    public static <C extends KubernetesObject> C apply(ResourceClient client, KubernetesObject owner, C desired, String fieldManager,
            Cache<C> cache) {
        C want = withDefaults(owner, desired);
        want.getMetadata().setOwnerReferences(List.of(reference(owner)));
        AppliedFields.mark(want);
        Optional<C> current = current(client, cache, want);
        if (current.isPresent()) {
            checkControlledBy(current.get(), owner);
            if (AppliedFields.holds(Patches.toJson(current.get()), desiredJson(want))) {
                return current.get();
            }
        }
        return client.apply(want, fieldManager);
    }

    public static <C extends KubernetesObject> List<C> prune(ResourceClient client, KubernetesObject owner, Cache<C> cache,
            Collection<String> keep) {
        List<C> deleted = new ArrayList<>();
        for (C child : owned(cache, owner)) {
            // background propagation: the child's own dependents go too (a Job deleted with the API's default orphans its Pods)
            if (!keep.contains(child.getMetadata().getName())
                    && client.delete(child, DeleteOptions.guardedBy(child).withPropagation(DeleteOptions.Propagation.BACKGROUND))) {
                deleted.add(child);
            }
        }
        return deleted;
    }

    /**
     * The children in {@code cache} that {@code owner} controls, found through the controller index
     * (its UID): in the owner's namespace, or any for a cluster-scoped owner. Copies.
     */
    public static <C extends KubernetesObject> List<C> owned(Cache<C> cache, KubernetesObject owner) {
        String namespace = owner.getMetadata().getNamespace();
        return cache.indexed(Cache.CONTROLLER_INDEX, owner.getMetadata().getUid()).stream()
                .filter(child -> namespace == null || namespace.equals(child.getMetadata().getNamespace())).toList();
    }

    /** A controller owner reference to {@code owner}. */
    public static V1OwnerReference reference(KubernetesObject owner) {
        return dev.mooring.api.OwnerReferences.controllerOf(owner);
    }

    /** The desired child as JSON: empty collections, status and server-set metadata removed. */
    public static JsonValue desiredJson(KubernetesObject want) {
        JsonObject json = Patches.withoutEmptyCollections(Patches.toJson(want)).asJsonObject();
        JsonObjectBuilder builder = Json.createObjectBuilder(json).remove("status");
        if (json.containsKey("metadata")) {
            JsonObjectBuilder metadata = Json.createObjectBuilder(json.getJsonObject("metadata"));
            SERVER_METADATA.forEach(metadata::remove);
            builder.add("metadata", metadata);
        }
        return builder.build();
    }

    private static <C extends KubernetesObject> C withDefaults(KubernetesObject owner, C desired) {
        Objects.requireNonNull(desired, "desired");
        C want = Models.copy(desired);
        if (want.getMetadata() == null) {
            throw new IllegalArgumentException("A desired child needs metadata (at least an empty V1ObjectMeta)");
        }
        V1ObjectMeta meta = want.getMetadata();
        if (meta.getName() == null || meta.getName().isBlank()) {
            meta.setName(owner.getMetadata().getName());
        }
        if (meta.getNamespace() == null && owner.getMetadata().getNamespace() != null) {
            meta.setNamespace(owner.getMetadata().getNamespace());
        }
        return want;
    }

    /** The child as cached, else as stored (a cache miss may be a child created a moment ago). */
    private static <C extends KubernetesObject> Optional<C> current(ResourceClient client, Cache<C> cache, C want) {
        String namespace = want.getMetadata().getNamespace();
        String name = want.getMetadata().getName();
        Optional<C> cached = cache == null ? Optional.empty() : cache.get(namespace, name);
        return cached.isPresent() ? cached : client.get(kindOf(want), namespace, name);
    }

    @SuppressWarnings("unchecked")
    private static <C extends KubernetesObject> Class<C> kindOf(C object) {
        return (Class<C>) object.getClass();
    }

    /**
     * {@code references} with {@code ours} in the place of the one with its UID (the order stays, so
     * an unchanged child gives no patch), else appended.
     */
    private static List<V1OwnerReference> withReference(List<V1OwnerReference> references, V1OwnerReference ours) {
        List<V1OwnerReference> result = new ArrayList<>();
        boolean placed = false;
        for (V1OwnerReference reference : references == null ? List.<V1OwnerReference>of() : references) {
            if (!Objects.equals(reference.getUid(), ours.getUid())) {
                result.add(reference);
            } else if (!placed) {
                result.add(ours);
                placed = true;
            }
        }
        if (!placed) {
            result.add(ours);
        }
        return result;
    }

    public static boolean controlledBy(KubernetesObject child, KubernetesObject owner) {
        return dev.mooring.api.OwnerReferences.isControlledBy(child, owner);
    }

    private static Optional<V1OwnerReference> controller(KubernetesObject child) {
        return dev.mooring.api.OwnerReferences.controllerReference(child);
    }

    /** How long a pass waits for the child of a replaced owner, unless its deletion comes first. */
    static final java.time.Duration PREVIOUS_OWNER_WAIT = java.time.Duration.ofSeconds(5);

    /** True when {@code controller} names an earlier object of the owner's kind and name (another UID): the owner was replaced. */
    public static boolean controlledByPrevious(V1OwnerReference controller, KubernetesObject owner) {
        return Objects.equals(controller.getKind(), owner.getKind()) && Objects.equals(controller.getName(), owner.getMetadata().getName())
                && Objects.equals(controller.getApiVersion(), owner.getApiVersion())
                && !Objects.equals(controller.getUid(), owner.getMetadata().getUid());
    }

    private static void checkControlledBy(KubernetesObject child, KubernetesObject owner) {
        String what = child.getClass().getSimpleName() + " " + ObjectKey.of(child);
        String ownerText = owner.getKind() + " " + owner.getMetadata().getName();
        Optional<V1OwnerReference> controller = controller(child);
        if (controller.isEmpty()) {
            throw new TerminalException(what + " exists and has no controller; refusing to adopt it for " + ownerText);
        }
        if (!Objects.equals(controller.get().getUid(), owner.getMetadata().getUid())) {
            if (controlledByPrevious(controller.get(), owner)) {
                // the owner was deleted and created again under its name: Kubernetes' garbage collector removes the
                // old child soon, and its deletion brings this owner back (the owner mapper goes by name)
                throw new dev.mooring.api.Wait("PreviousOwnersChild", what + " is still controlled by the previous "
                        + ownerText + " (uid " + controller.get().getUid() + "); waiting for its deletion", PREVIOUS_OWNER_WAIT);
            }
            throw new TerminalException(what + " is controlled by " + controller.get().getKind() + " "
                    + controller.get().getName() + "; refusing to take it over for " + ownerText);
        }
    }
}
