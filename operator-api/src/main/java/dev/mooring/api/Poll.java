package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A method of a {@link Controller} bean that Mooring calls on a schedule, to learn of changes
 * outside Kubernetes (an external API, a database) that no watch sees. Two shapes, as the Java
 * Operator SDK's two polling event sources:
 * <ul>
 * <li><b>The whole system</b>: no parameter, returning a {@code Collection<ObjectKey>} (or of a
 * subtype): the keys whose external state changed; each is reconciled.</li>
 * <li><b>Per object</b>: one parameter, the primary kind, returning the object's external state
 * (or any value that changes when it does): called for each cached object with a copy of it;
 * when the value differs ({@code equals}) from the one this method returned for the object at
 * the previous poll, the object is reconciled. The first value of an object is only recorded:
 * its initial pass comes from the watch.</li>
 * </ul>
 * Polls start with the controller's workers and run on the application server's managed
 * threads, one at a time per method; the next begins {@link #every()} after one ends. An
 * exception is logged and the next poll comes as usual. For a change the external system reports
 * itself (a message, a callback), call {@code Controllers.enqueue} instead.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Poll {

    /** How long after one poll ends the next begins: {@code 30s}, {@code 500ms}, {@code 5m} or {@code PT1M}. */
    String every();
}
