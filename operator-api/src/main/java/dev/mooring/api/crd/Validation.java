package dev.mooring.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL rule the API server evaluates ({@code x-kubernetes-validations}), on a field or on a
 * class's object: {@code self} is the value; {@code oldSelf} the previous one in transition rules.
 *
 * <pre>{@code @Validation(rule = "self.minReplicas <= self.maxReplicas", message = "minReplicas must not exceed maxReplicas")}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.TYPE})
@Repeatable(Validation.List.class)
public @interface Validation {

    /** The CEL expression; true means valid. */
    String rule();

    /** What the API server answers when the rule is false. */
    String message() default "";

    /** Several rules. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.FIELD, ElementType.TYPE})
    @interface List {
        Validation[] value();
    }
}
