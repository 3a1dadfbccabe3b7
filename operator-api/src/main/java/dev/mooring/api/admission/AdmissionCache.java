package dev.mooring.api.admission;

import io.kubernetes.client.common.KubernetesObject;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the kinds an admission bean reads through {@link AdmissionRequest#cached(Class)}.
 * Every replica keeps its own informer-backed cache of each kind, across all namespaces, started
 * when the application starts whether or not the replica leads; admission reports ready once
 * they have synced.
 *
 * <pre>{@code
 * @ApplicationScoped
 * @AdmissionCache(V1Namespace.class)
 * public class PodPolicy { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AdmissionCache {

    /** The kinds to cache. */
    Class<? extends KubernetesObject>[] value();
}
