package dev.mooring.runtime.internal;

import io.kubernetes.client.common.KubernetesObject;
import jakarta.enterprise.inject.spi.Bean;

/**
 * A controller as declared by a reconciler bean, with every option resolved and validated.
 *
 * @param name unique controller name
 * @param kind the primary kind's model class
 * @param namespace the namespace to watch; empty for the operator's namespace, null for all namespaces
 * @param labelSelector label selector, or null
 * @param workers number of concurrent reconciles, at least 1
 * @param bean the reconciler bean
 */
public record ControllerDefinition(String name, Class<? extends KubernetesObject> kind, String namespace,
        String labelSelector, int workers, Bean<?> bean) {

    /** Longest allowed name: 118 characters, so that event source names stay within 128. */
    public static final int MAX_NAME_LENGTH = 118;

    /** The namespace to watch, with the operator's namespace filled in; null for all namespaces. */
    public String namespaceOr(String operatorNamespace) {
        return namespace == null ? null : namespace.isEmpty() ? operatorNamespace : namespace;
    }
}
