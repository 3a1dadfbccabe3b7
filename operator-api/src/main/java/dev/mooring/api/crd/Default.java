package dev.mooring.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The schema's {@code default}: the API server sets it when the field is absent. The value is
 * JSON ({@code "3"}, {@code "\"fast\""}, {@code "[]"}, {@code "{}"}); a value that is not JSON
 * fails generation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Default {

    String value();
}
