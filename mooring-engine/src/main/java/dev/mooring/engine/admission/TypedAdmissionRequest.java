package dev.mooring.engine.admission;

import dev.mooring.api.Cache;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.UserInfo;
import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@link AdmissionRequest} handed to one admission method call: by the dispatcher from a
 * decoded review, and by the test kit's {@code TestAdmissionRequest} from objects in memory, so
 * that a method sees the same request in both.
 */
public final class TypedAdmissionRequest<T extends KubernetesObject> implements AdmissionRequest<T> {

    private final String uid;
    private final Operation operation;
    private final T object;
    private final T oldObject;
    private final String name;
    private final String namespace;
    private final String subresource;
    private final boolean dryRun;
    private final UserInfo userInfo;
    private final Class<?> beanClass;
    private final AdmissionReads reads;
    private final List<String> warnings = new ArrayList<>();

    /**
     * @param object null for a DELETE
     * @param namespace {@code ""} for a cluster-scoped object
     * @param subresource {@code ""} for none
     * @param beanClass the bean whose declared caches {@link #cached} reads
     */
    public TypedAdmissionRequest(String uid, Operation operation, T object, T oldObject, String name, String namespace,
            String subresource, boolean dryRun, UserInfo userInfo, Class<?> beanClass, AdmissionReads reads) {
        this.uid = uid;
        this.operation = operation;
        this.object = object;
        this.oldObject = oldObject;
        this.name = name;
        this.namespace = namespace;
        this.subresource = subresource;
        this.dryRun = dryRun;
        this.userInfo = userInfo;
        this.beanClass = beanClass;
        this.reads = reads;
    }

    @Override
    public String uid() {
        return uid;
    }

    @Override
    public Operation operation() {
        return operation;
    }

    @Override
    public T object() {
        if (object == null) {
            throw new IllegalStateException("A " + operation + " admission request has no object; use oldObject()");
        }
        return object;
    }

    @Override
    public Optional<T> oldObject() {
        return Optional.ofNullable(oldObject);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public String subresource() {
        return subresource;
    }

    @Override
    public boolean dryRun() {
        return dryRun;
    }

    @Override
    public UserInfo userInfo() {
        return userInfo;
    }

    @Override
    public synchronized void warn(String warning) {
        if (warning == null || warning.isBlank()) {
            throw new IllegalArgumentException("An admission warning needs a text");
        }
        warnings.add(warning);
    }

    /** The warnings the method added, in order. */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    @Override
    public <K extends KubernetesObject> Cache<K> cached(Class<K> kind) {
        return reads.cached(beanClass, kind);
    }

    @Override
    public ResourceClient client() {
        return reads.client(namespace.isEmpty() ? null : namespace);
    }

    @Override
    public String toString() {
        return operation + " " + (namespace.isEmpty() ? "" : namespace + "/") + name
                + (subresource.isEmpty() ? "" : " (" + subresource + ")") + " uid " + uid;
    }
}
