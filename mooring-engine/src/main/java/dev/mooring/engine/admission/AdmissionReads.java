package dev.mooring.engine.admission;

import dev.mooring.api.Cache;
import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;

/** What admission requests read through: the caches a bean declared, and a live client. */
public interface AdmissionReads {

    /**
     * The cache of {@code kind} declared by {@code beanClass}.
     *
     * @throws IllegalArgumentException if the bean did not declare the kind
     */
    <K extends KubernetesObject> Cache<K> cached(Class<?> beanClass, Class<K> kind);

    /** A live client whose default namespace is {@code namespace} (null: none). */
    ResourceClient client(String namespace);
}
