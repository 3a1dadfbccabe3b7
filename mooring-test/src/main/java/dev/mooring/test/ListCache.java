package dev.mooring.test;

import dev.mooring.api.Cache;
import io.kubernetes.client.common.KubernetesObject;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A {@link Cache} over a fixed list of objects; objects without a namespace are cluster-scoped and match any namespace. */
final class ListCache<T extends KubernetesObject> implements Cache<T> {

    private final List<T> objects;

    ListCache(List<T> objects) {
        this.objects = List.copyOf(objects);
    }

    @Override
    public Optional<T> get(String namespace, String name) {
        return objects.stream().filter(object -> Objects.equals(object.getMetadata().getName(), name) && in(object, namespace))
                .findFirst();
    }

    @Override
    public List<T> list(String namespace) {
        return objects.stream().filter(object -> in(object, namespace)).toList();
    }

    private static boolean in(KubernetesObject object, String namespace) {
        return object.getMetadata().getNamespace() == null || object.getMetadata().getNamespace().equals(namespace);
    }

    @Override
    public List<T> list(String namespace, Map<String, String> labels) {
        return list(namespace).stream().filter(object -> {
            Map<String, String> own = object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
            return labels.entrySet().stream().allMatch(label -> label.getValue().equals(own.get(label.getKey())));
        }).toList();
    }

    @Override
    public List<T> listAll() {
        return objects;
    }

    /** Only {@link Cache#CONTROLLER_INDEX}: a request's cache in a test has none of the controllers' indexes. */
    @Override
    public List<T> indexed(String index, String value) {
        if (!CONTROLLER_INDEX.equals(index)) {
            throw new IllegalArgumentException("No index '" + index + "' on a test request's cache; it has only " + CONTROLLER_INDEX);
        }
        return objects.stream().filter(object -> dev.mooring.api.OwnerReferences.controllerReference(object)
                .map(reference -> value.equals(reference.getUid())).orElse(false)).toList();
    }
}
