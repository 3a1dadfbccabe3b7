package dev.mooring.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@code x-kubernetes-list-type} of a list field, and {@code x-kubernetes-list-map-keys} for a
 * {@code map} list (server-side apply merges such lists by their keys). A {@code Set} field is
 * a {@code set} list without the annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface ListType {

    /** How the list is merged. */
    enum Kind {
        /** Replaced as a whole. */
        ATOMIC,
        /** Scalars, each at most once. */
        SET,
        /** Objects, each identified by {@link ListType#keys()}. */
        MAP
    }

    Kind value();

    /** The keys of a {@link Kind#MAP} list (required then, refused otherwise). */
    String[] keys() default {};
}
