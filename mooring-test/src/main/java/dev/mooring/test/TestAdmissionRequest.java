package dev.mooring.test;

import dev.mooring.api.Cache;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.UserInfo;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.engine.admission.AdmissionReads;
import dev.mooring.engine.admission.TypedAdmissionRequest;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * An admission request built in memory, for unit tests of {@code @Validating} and
 * {@code @Mutating} methods: call the method with it, then check what it threw, returned or
 * warned. Name and namespace come from the object's metadata. {@link #cached} answers from the
 * objects given to {@link #withCached}; {@link #client()} is not available in memory (test live
 * reads against an API server).
 *
 * <p>Create one with {@link #create}, {@link #update} or {@link #delete}; the {@code with...}
 * methods return this request.
 *
 * @param <T> the kind in the request
 */
public final class TestAdmissionRequest<T extends KubernetesObject> implements AdmissionRequest<T> {

    private final Operation operation;
    private final T object;
    private final T oldObject;
    private final String uid = UUID.randomUUID().toString();
    private final Map<Class<?>, List<KubernetesObject>> cached = new HashMap<>();
    private UserInfo userInfo = new UserInfo("test-user", "", List.of("system:authenticated"), Map.of());
    private String subresource = "";
    private boolean dryRun;
    /** The runtime's request for the settings so far; made anew by each {@code with...}. */
    private TypedAdmissionRequest<T> request;

    private TestAdmissionRequest(Operation operation, T object, T oldObject) {
        this.operation = operation;
        this.object = object;
        this.oldObject = oldObject;
        if ((object == null ? oldObject : object).getMetadata() == null) {
            throw new IllegalArgumentException("the object needs metadata (a name, and a namespace for a namespaced kind)");
        }
    }

    /** A CREATE of {@code object}. */
    public static <T extends KubernetesObject> TestAdmissionRequest<T> create(T object) {
        return new TestAdmissionRequest<>(Operation.CREATE, Objects.requireNonNull(object, "object"), null);
    }

    /** An UPDATE from {@code oldObject} to {@code object}. */
    public static <T extends KubernetesObject> TestAdmissionRequest<T> update(T oldObject, T object) {
        return new TestAdmissionRequest<>(Operation.UPDATE, Objects.requireNonNull(object, "object"),
                Objects.requireNonNull(oldObject, "oldObject"));
    }

    /** A DELETE of {@code oldObject}. */
    public static <T extends KubernetesObject> TestAdmissionRequest<T> delete(T oldObject) {
        return new TestAdmissionRequest<>(Operation.DELETE, null, Objects.requireNonNull(oldObject, "oldObject"));
    }

    /** The requesting user. */
    public TestAdmissionRequest<T> withUser(UserInfo user) {
        this.userInfo = Objects.requireNonNull(user, "user");
        return changed();
    }

    /** Marks the request as a dry run. */
    public TestAdmissionRequest<T> withDryRun() {
        this.dryRun = true;
        return changed();
    }

    /** The subresource, such as {@code scale}. */
    public TestAdmissionRequest<T> withSubresource(String subresource) {
        this.subresource = Objects.requireNonNull(subresource, "subresource");
        return changed();
    }

    /** Objects that {@link #cached(Class)} of their kind returns. */
    @SafeVarargs
    public final <K extends KubernetesObject> TestAdmissionRequest<T> withCached(Class<K> kind, K... objects) {
        cached.computeIfAbsent(kind, key -> new ArrayList<>()).addAll(List.of(objects));
        return this;
    }

    private TestAdmissionRequest<T> changed() {
        if (request != null && !request.warnings().isEmpty()) {
            throw new IllegalStateException("set up the request before calling the method: it already has warnings");
        }
        request = null;
        return this;
    }

    /** The runtime's own request, with name and namespace from the object's metadata. */
    private TypedAdmissionRequest<T> request() {
        if (request == null) {
            var metadata = (object == null ? oldObject : object).getMetadata();
            request = new TypedAdmissionRequest<>(uid, operation, object, oldObject,
                    Objects.requireNonNullElse(metadata.getName(), ""), Objects.requireNonNullElse(metadata.getNamespace(), ""),
                    subresource, dryRun, userInfo, TestAdmissionRequest.class, new InMemoryReads());
        }
        return request;
    }

    /** The warnings the method added, in order. */
    public List<String> warnings() {
        return request().warnings();
    }

    @Override
    public String uid() {
        return request().uid();
    }

    @Override
    public Operation operation() {
        return request().operation();
    }

    @Override
    public T object() {
        return request().object();
    }

    @Override
    public Optional<T> oldObject() {
        return request().oldObject();
    }

    @Override
    public String name() {
        return request().name();
    }

    @Override
    public String namespace() {
        return request().namespace();
    }

    @Override
    public String subresource() {
        return request().subresource();
    }

    @Override
    public boolean dryRun() {
        return request().dryRun();
    }

    @Override
    public UserInfo userInfo() {
        return request().userInfo();
    }

    @Override
    public void warn(String warning) {
        request().warn(warning);
    }

    @Override
    public <K extends KubernetesObject> Cache<K> cached(Class<K> kind) {
        return request().cached(kind);
    }

    /**
     * Not available in memory.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public ResourceClient client() {
        return request().client();
    }

    @Override
    public String toString() {
        return request().toString();
    }

    /** Reads from the objects given to {@link #withCached}; no live client. */
    private final class InMemoryReads implements AdmissionReads {

        @Override
        @SuppressWarnings("unchecked")
        public <K extends KubernetesObject> Cache<K> cached(Class<?> beanClass, Class<K> kind) {
            List<KubernetesObject> objects = cached.get(kind);
            if (objects == null) {
                throw new IllegalArgumentException("no cached " + kind.getSimpleName()
                        + " in this test request: add them with withCached");
            }
            return new ListCache<>((List<K>) (List<?>) objects);
        }

        @Override
        public ResourceClient client(String namespace) {
            throw new UnsupportedOperationException("a TestAdmissionRequest has no live client: give the objects a method"
                    + " reads with withCached, or test live reads against an API server");
        }
    }
}
