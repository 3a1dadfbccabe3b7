package dev.mooring.runtime.internal;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.TerminalException;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.patch.Patches;
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
final class Children {

    /** Server-set metadata that a desired child never carries. */
    private static final List<String> SERVER_METADATA = List.of("uid", "resourceVersion", "creationTimestamp",
            "managedFields", "generation", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink");

    private Children() {
    }

    static <C extends KubernetesObject> C ensure(ResourceClient client, KubernetesObject owner, C desired) {
        C want = withDefaults(owner, desired);
        Optional<C> live = client.get(kindOf(want), want.getMetadata().getNamespace(), want.getMetadata().getName());
        if (live.isEmpty()) {
            want.getMetadata().setOwnerReferences(withReference(want.getMetadata().getOwnerReferences(), reference(owner)));
            return client.create(want);
        }
        C current = live.get();
        checkControlledBy(current, owner);
        want.getMetadata().setOwnerReferences(withReference(current.getMetadata().getOwnerReferences(), reference(owner)));
        JsonValue merged = Patches.merge(Patches.toJson(current), desiredJson(want));
        C mergedModel = JSON.deserialize(merged.toString(), kindOf(want));
        JsonArray operations = Patches.diff(current, mergedModel);
        return operations.isEmpty() ? current : client.patch(current, operations);
    }

    static <C extends KubernetesObject> C apply(ResourceClient client, KubernetesObject owner, C desired, String fieldManager) {
        C want = withDefaults(owner, desired);
        client.get(kindOf(want), want.getMetadata().getNamespace(), want.getMetadata().getName())
                .ifPresent(current -> checkControlledBy(current, owner));
        want.getMetadata().setOwnerReferences(List.of(reference(owner)));
        return client.apply(want, fieldManager);
    }

    static <C extends KubernetesObject> List<C> prune(ResourceClient client, KubernetesObject owner, Cache<C> cache,
            Collection<String> keep) {
        String namespace = owner.getMetadata().getNamespace();
        List<C> candidates = namespace == null ? cache.listAll() : cache.list(namespace);
        List<C> deleted = new ArrayList<>();
        for (C child : candidates) {
            if (controlledBy(child, owner) && !keep.contains(child.getMetadata().getName()) && client.delete(child)) {
                deleted.add(child);
            }
        }
        return deleted;
    }

    /** A controller owner reference to {@code owner}. */
    static V1OwnerReference reference(KubernetesObject owner) {
        return new V1OwnerReference().apiVersion(owner.getApiVersion()).kind(owner.getKind())
                .name(owner.getMetadata().getName()).uid(owner.getMetadata().getUid())
                .controller(true).blockOwnerDeletion(true);
    }

    /** The desired child as JSON: empty collections, status and server-set metadata removed. */
    static JsonValue desiredJson(KubernetesObject want) {
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

    @SuppressWarnings("unchecked")
    private static <C extends KubernetesObject> Class<C> kindOf(C object) {
        return (Class<C>) object.getClass();
    }

    private static List<V1OwnerReference> withReference(List<V1OwnerReference> references, V1OwnerReference ours) {
        List<V1OwnerReference> result = new ArrayList<>();
        if (references != null) {
            references.stream().filter(ref -> !Objects.equals(ref.getUid(), ours.getUid())).forEach(result::add);
        }
        result.add(ours);
        return result;
    }

    static boolean controlledBy(KubernetesObject child, KubernetesObject owner) {
        return controller(child).map(ref -> Objects.equals(ref.getUid(), owner.getMetadata().getUid())).orElse(false);
    }

    private static Optional<V1OwnerReference> controller(KubernetesObject child) {
        List<V1OwnerReference> references = child.getMetadata().getOwnerReferences();
        return references == null ? Optional.empty()
                : references.stream().filter(ref -> Boolean.TRUE.equals(ref.getController())).findFirst();
    }

    private static void checkControlledBy(KubernetesObject child, KubernetesObject owner) {
        String what = child.getClass().getSimpleName() + " " + ObjectKey.of(child);
        String ownerText = owner.getKind() + " " + owner.getMetadata().getName();
        Optional<V1OwnerReference> controller = controller(child);
        if (controller.isEmpty()) {
            throw new TerminalException(what + " exists and has no controller; refusing to adopt it for " + ownerText);
        }
        if (!Objects.equals(controller.get().getUid(), owner.getMetadata().getUid())) {
            throw new TerminalException(what + " is controlled by " + controller.get().getKind() + " "
                    + controller.get().getName() + "; refusing to take it over for " + ownerText);
        }
    }
}
