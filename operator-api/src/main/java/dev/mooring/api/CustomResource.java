package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class implementing {@code KubernetesObject} as the model of a custom resource, so that
 * Mooring can watch and write it. The plural and the scope come from the API server's discovery
 * (the CRD must be installed); CRD generation from annotated classes comes with a later release.
 *
 * <pre>{@code
 * @CustomResource(group = "example.com", version = "v1")
 * public class Widget implements KubernetesObject { ... apiVersion, kind, metadata, spec, status ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CustomResource {

    /** The API group, such as {@code example.com}. */
    String group();

    /** The served version, such as {@code v1}. */
    String version();

    /** The kind; defaults to the class's simple name. */
    String kind() default "";
}
