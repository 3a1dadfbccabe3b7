package dev.mooring.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@code x-kubernetes-preserve-unknown-fields: true}: the API server keeps fields the schema
 * does not declare. Required on a field of a type without a schema (a raw {@code Object}, a
 * JSON tree, a recursive type).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.TYPE})
public @interface PreserveUnknownFields {
}
