package dev.mooring.engine.kube;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version and kind that a client-java model class name encodes ({@code V1ConfigMap},
 * {@code V1beta1CronJob}, {@code CoreV1Event}), plus the API group when its prefix names one or
 * {@link dev.mooring.api.ApiGroup} pins it.
 * Found without I/O and without client-java's {@code ModelMapper}, whose class-path scanning does
 * not work in an application server's class loaders. A class annotated
 * {@link dev.mooring.api.CustomResource} names its group, version and kind itself.
 *
 * @param groupHint the group named by a prefix ({@code ""} for {@code Core}), or null when unknown
 * @param version the API version, such as {@code v1} or {@code v1beta1}
 * @param kind the kind, such as {@code ConfigMap}
 */
record ModelKind(String groupHint, String version, String kind) {

    private static final Pattern MODEL_NAME = Pattern.compile("^([A-Z][a-z]+)?(V\\d+(?:(?:alpha|beta)\\d+)?)([A-Z]\\w*)$");

    /**
     * @throws IllegalArgumentException if the class name does not follow client-java's model naming
     */
    static ModelKind of(Class<?> modelClass) {
        dev.mooring.api.CustomResource custom = modelClass.getAnnotation(dev.mooring.api.CustomResource.class);
        if (custom != null) {
            checkNotAClientJavaModel(modelClass);
            return new ModelKind(custom.group(), custom.version(),
                    custom.kind().isEmpty() ? modelClass.getSimpleName() : custom.kind());
        }
        Matcher matcher = MODEL_NAME.matcher(modelClass.getSimpleName());
        if (!matcher.matches()) {
            throw new IllegalArgumentException(modelClass.getName()
                    + " is not named like a client-java model of a Kubernetes kind (such as V1ConfigMap)");
        }
        String prefix = matcher.group(1);
        String version = matcher.group(2).toLowerCase(Locale.ROOT);
        dev.mooring.api.ApiGroup pinned = modelClass.getAnnotation(dev.mooring.api.ApiGroup.class);
        String group = pinned != null ? KubeNames.group(pinned.value(), "@ApiGroup of " + modelClass.getName())
                : groupOf(prefix).orElse(null);
        return new ModelKind(group, version, matcher.group(3));
    }

    /** The package of client-java's generated models. */
    private static final String CLIENT_JAVA_MODELS = "io.kubernetes.client.openapi.models";

    /**
     * A custom resource that extends a client-java model ({@code extends V1Job}) would be read with
     * that model's own JSON adapter, which builds the model and not the subclass: every object of it
     * fails to decode. Refused here, where both the generator and the runtime place a kind.
     */
    private static void checkNotAClientJavaModel(Class<?> modelClass) {
        for (Class<?> type = modelClass.getSuperclass(); type != null; type = type.getSuperclass()) {
            if (type.getPackageName().equals(CLIENT_JAVA_MODELS)) {
                throw new IllegalArgumentException("@CustomResource " + modelClass.getName() + " extends the client-java model "
                        + type.getSimpleName() + ", whose objects cannot be read as " + modelClass.getSimpleName()
                        + "; extend dev.mooring.api.CustomObject and declare spec and status (they may hold client-java models,"
                        + " such as a V1JobSpec)");
            }
        }
    }

    private static Optional<String> groupOf(String prefix) {
        if (prefix == null) {
            return Optional.empty();
        }
        return switch (prefix) {
            case "Core" -> Optional.of("");
            case "Events" -> Optional.of("events.k8s.io");
            default -> Optional.empty();
        };
    }
}
