package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A stage of a {@link Staged} controller: a method taking the object (and optionally its
 * {@link Context}) and returning {@code void} or a {@link Result}. A stage is either one such
 * method, or several methods with the same stage name, each a {@link Case} or the
 * {@link Otherwise} fallback: the first case whose predicate holds runs; without a match the
 * fallback runs; with neither the pass ends with a {@link TerminalException}.
 *
 * <pre>{@code
 * @Stage(value = "ConfigReady", order = 1)
 * void config(Widget widget, Context<Widget> context) { context.ensure(configMapFor(widget)); }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Stage {

    /** The stage's name and the condition type it sets, such as {@code ConfigReady}; never {@code Ready}. */
    String value();

    /**
     * The stage's position: stages run in ascending order. Every stage needs a distinct order
     * (Java cannot see declaration order); the cases of one stage share it.
     */
    int order();
}
