package dev.mooring.examples.mirror;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.EventType;
import dev.mooring.api.RbacRule;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.TerminalException;
import dev.mooring.api.Wait;
import dev.mooring.api.patch.Patches;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArray;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Pattern "mirror objects of the same kind": every ConfigMap labelled
 * {@code example.com/mirror=true} gets a child {@code <name>-mirror} in its namespace, owned by
 * the source, whose {@code data} is the source's complete data map (keys removed from the
 * source disappear from the mirror).
 *
 * <p>The mirror's data is replaced with a guarded JSON Patch: it carries {@code test}
 * operations on the mirror's UID and resourceVersion, so a concurrent change makes the write
 * fail and the pass retry from fresh state. A pass that finds the mirror up to date writes
 * nothing. A ConfigMap of the mirror's name that the source does not control is left alone: the
 * pass sends a Warning Event {@code MirrorNotOwned} about the source and fails terminally.
 */
@ApplicationScoped
@Controller(name = "configmap-mirror", allNamespaces = true, labelSelector = ConfigMapMirror.LABEL + "=true")
// the mirrors are written through client() (not declared as owned): creating them is not inferred
@RbacRule(resources = "configmaps", verbs = "create", cluster = true)
// the mirror's owner reference blocks the source's deletion: where OwnerReferencesPermissionEnforcement runs, that
// needs update on the owner's finalizers
@RbacRule(resources = "configmaps/finalizers", verbs = "update", cluster = true)
public class ConfigMapMirror implements Reconciler<V1ConfigMap> {

    /** The label that asks for a mirror. */
    public static final String LABEL = "example.com/mirror";
    /** Suffix of the mirror's name. */
    public static final String SUFFIX = "-mirror";

    @Override
    public Result reconcile(V1ConfigMap source, Context<V1ConfigMap> context) {
        V1ObjectMeta meta = source.getMetadata();
        String mirrorName = meta.getName() + SUFFIX;
        Map<String, String> data = source.getData() == null ? Map.of() : source.getData();

        Optional<V1ConfigMap> existing = context.client().get(V1ConfigMap.class, meta.getNamespace(), mirrorName);
        if (existing.isEmpty()) {
            context.client().create(new V1ConfigMap()
                    .apiVersion("v1").kind("ConfigMap")
                    .metadata(new V1ObjectMeta().name(mirrorName).namespace(meta.getNamespace())
                            .addOwnerReferencesItem(controllerReference(source)))
                    .data(new TreeMap<>(data)));
            return Result.done();
        }

        V1ConfigMap mirror = existing.get();
        if (!ownedBy(mirror, source)) {
            if (ownedByPrevious(mirror, source)) {
                // the source was deleted and created again: garbage collection removes the old mirror soon,
                // and its deletion reconciles the new source at once
                throw new Wait("PreviousSourcesMirror", "ConfigMap " + meta.getNamespace() + "/" + mirrorName
                        + " still belongs to the previous " + meta.getName(), Duration.ofSeconds(5));
            }
            String refusal = "ConfigMap " + meta.getNamespace() + "/" + mirrorName + " exists and is not controlled by "
                    + meta.getName() + "; refusing to overwrite it";
            context.event(EventType.WARNING, "MirrorNotOwned", refusal); // shown by kubectl describe on the source
            throw new TerminalException(refusal);
        }
        V1ConfigMap desired = copyOf(mirror).data(new TreeMap<>(data));
        JsonArray patch = Patches.diff(mirror, desired);
        if (!patch.isEmpty()) {
            context.client().patch(mirror, patch);
        }
        return Result.done();
    }

    private static V1OwnerReference controllerReference(V1ConfigMap owner) {
        return new V1OwnerReference().apiVersion("v1").kind("ConfigMap")
                .name(owner.getMetadata().getName()).uid(owner.getMetadata().getUid())
                .controller(true).blockOwnerDeletion(true);
    }

    /** Controlled by an earlier ConfigMap of the source's name: the source was replaced. */
    private static boolean ownedByPrevious(V1ConfigMap child, V1ConfigMap source) {
        return child.getMetadata().getOwnerReferences() != null && child.getMetadata().getOwnerReferences().stream()
                .anyMatch(ref -> Boolean.TRUE.equals(ref.getController()) && "ConfigMap".equals(ref.getKind())
                        && source.getMetadata().getName().equals(ref.getName())
                        && !source.getMetadata().getUid().equals(ref.getUid()));
    }

    private static boolean ownedBy(V1ConfigMap child, V1ConfigMap owner) {
        return child.getMetadata().getOwnerReferences() != null && child.getMetadata().getOwnerReferences().stream()
                .anyMatch(ref -> Boolean.TRUE.equals(ref.getController())
                        && Objects.equals(ref.getUid(), owner.getMetadata().getUid()));
    }

    private static V1ConfigMap copyOf(V1ConfigMap configMap) {
        return io.kubernetes.client.openapi.JSON.getGson().fromJson(
                io.kubernetes.client.openapi.JSON.getGson().toJsonTree(configMap), V1ConfigMap.class);
    }
}
