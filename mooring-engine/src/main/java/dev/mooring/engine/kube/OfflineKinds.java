package dev.mooring.engine.kube;

import dev.mooring.api.CustomResource;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a model class's kind is served, known without an API server: group, version, kind,
 * plural and scope. From {@link CustomResource} for custom resources, from the model name and
 * Kubernetes' built-in kinds otherwise.
 *
 * @param plural the resource name; null for a kind that is only carried by a subresource (Scale)
 */
public record KindCoordinates(String group, String version, String kind, String plural, boolean namespaced) {

    public KindCoordinates {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * @throws IllegalArgumentException if the class is neither a {@link CustomResource} nor a
     *     client-java model of a built-in kind Mooring knows
     */
    public static KindCoordinates of(Class<? extends KubernetesObject> model) {
        CustomResource custom = model.getAnnotation(CustomResource.class);
        ModelKind kind = ModelKind.of(model);
        if (custom != null) {
            String plural = custom.plural().isEmpty() ? plural(kind.kind()) : custom.plural();
            return new KindCoordinates(kind.groupHint(), kind.version(), kind.kind(), plural, !custom.clusterScoped());
        }
        BuiltinKinds.Entry entry = BuiltinKinds.find(kind.groupHint(), kind.kind()).orElseThrow(() -> new IllegalArgumentException(
                "Mooring does not know the API group of " + kind.kind() + " (" + model.getName() + ") without an API server;"
                        + " model it as a @CustomResource with its group, version and plural"));
        return new KindCoordinates(entry.group(), kind.version(), kind.kind(), entry.plural(), entry.namespaced());
    }

    /** {@code v1} for the core group, else {@code group/version}. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /**
     * The English plural of a kind in lower case, the way Kubernetes tooling derives CRD plurals:
     * {@code Widget → widgets}, {@code Policy → policies}, {@code Box → boxes}.
     */
    public static String plural(String kind) {
        String lower = kind.toLowerCase(Locale.ROOT);
        if (lower.endsWith("y") && lower.length() > 1 && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
            return lower.substring(0, lower.length() - 1) + "ies";
        }
        if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("z") || lower.endsWith("ch") || lower.endsWith("sh")) {
            return lower + "es";
        }
        return lower + "s";
    }
}
