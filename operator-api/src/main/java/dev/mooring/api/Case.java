package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a {@link Stage} method one branch of its stage: it runs when the predicate method named
 * by {@link #when()} returns true and no case of higher {@link #priority()} matched first.
 * Predicates take the object and return {@code boolean}; they must only read (no I/O).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Case {

    /** The name of a method of the same bean: {@code boolean name(T resource)}. */
    String when();

    /** Evaluation order within the stage: higher first; distinct within a stage. */
    int priority();
}
