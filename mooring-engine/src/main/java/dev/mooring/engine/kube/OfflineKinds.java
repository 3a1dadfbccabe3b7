package dev.mooring.engine.kube;

import dev.mooring.api.CustomResource;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Locale;

/**
 * The offline source of {@link Kinds}: group, version, kind, plural and scope from the class
 * alone. From {@link CustomResource} for custom resources, from the model name and Kubernetes'
 * built-in kinds otherwise ({@link BuiltinKinds}).
 */
final class OfflineKinds implements Kinds {

    static final OfflineKinds INSTANCE = new OfflineKinds();

    private OfflineKinds() {
    }

    /**
     * @throws IllegalArgumentException if the class is neither a {@link CustomResource} nor a
     *     client-java model of a built-in kind Mooring knows
     */
    @Override
    public <T extends KubernetesObject> ResourceType<T> resolve(Class<T> model) {
        CustomResource custom = model.getAnnotation(CustomResource.class);
        ModelKind kind = ModelKind.of(model);
        if (custom != null) {
            String plural = custom.plural().isEmpty() ? plural(kind.kind()) : custom.plural();
            return new ResourceType<>(kind.groupHint(), kind.version(), kind.kind(), plural, !custom.clusterScoped(), model);
        }
        BuiltinKinds.Entry entry = BuiltinKinds.find(kind.groupHint(), kind.kind()).orElseThrow(() -> new IllegalArgumentException(
                "Mooring does not know the API group of " + kind.kind() + " (" + model.getName() + ") without an API server;"
                        + " model it as a @CustomResource with its group, version and plural"));
        return new ResourceType<>(entry.group(), kind.version(), kind.kind(), entry.plural(), entry.namespaced(), model);
    }

    /**
     * The English plural of a kind in lower case, the way Kubernetes tooling derives CRD plurals:
     * {@code Widget → widgets}, {@code Policy → policies}, {@code Box → boxes}.
     */
    static String plural(String kind) {
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
