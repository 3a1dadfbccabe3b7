package dev.mooring.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@code x-kubernetes-int-or-string: true} on a {@code String} field (fields of client-java's
 * {@code IntOrString} and {@code Quantity} get it without the annotation).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface IntOrString {
}
