package dev.mooring.engine.model;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Poll;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;

/**
 * A {@link Poll} method of a controller bean: what it polls (the whole system, or each cached
 * object) and how often. Its signature is checked when it is made, naming the method.
 *
 * @param description {@code Bean.method}, for logs and errors
 * @param every the delay between the end of one poll and the start of the next
 * @param perObject whether the method takes the primary object (else it returns keys)
 * @param call calls the method: with the object for a per-object poll, with null otherwise
 */
public record Poller(String description, Duration every, boolean perObject, Call call) {

    /** Calls the method; what it throws is thrown as it is. */
    @FunctionalInterface
    public interface Call {
        Object poll(KubernetesObject object) throws Exception;
    }

    public Poller {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(every, "every");
        Objects.requireNonNull(call, "call");
    }

    /**
     * The poller of a {@code @Poll} method of {@code bean}, a controller of {@code primary}.
     *
     * @throws IllegalArgumentException naming the method when {@code every} is no positive
     *     duration, the method is static or private, or it is neither {@code Collection<ObjectKey> m()}
     *     nor {@code Object m(Primary)} (a value returned, not void)
     */
    public static Poller of(Object bean, Method method, Class<? extends KubernetesObject> primary) {
        String where = "@Poll method " + method.getDeclaringClass().getName() + "." + method.getName();
        Poll poll = method.getAnnotation(Poll.class);
        Duration every = Durations.positive(where + " (every)", poll.every());
        if (Modifier.isStatic(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())) {
            throw new IllegalArgumentException(where + " must be an instance method that is not private");
        }
        boolean perObject = method.getParameterCount() == 1;
        if (method.getParameterCount() > 1 || perObject && !method.getParameterTypes()[0].isAssignableFrom(primary)) {
            throw new IllegalArgumentException(where + " must take no parameter (and return the changed keys) or one, the controller's"
                    + " primary kind " + primary.getSimpleName() + " (and return its external state)");
        }
        if (!perObject && !Collection.class.isAssignableFrom(method.getReturnType())) {
            throw new IllegalArgumentException(where + " takes no parameter: it must return a Collection<ObjectKey>, the keys whose"
                    + " external state changed");
        }
        if (perObject && (method.getReturnType() == void.class || method.getReturnType() == Void.class)) {
            throw new IllegalArgumentException(where + " must return the object's external state (a value that changes when it does)");
        }
        method.setAccessible(true);
        String description = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        return new Poller(description, every, perObject, object -> {
            try {
                return perObject ? method.invoke(bean, object) : method.invoke(bean);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        });
    }

    /** The keys a whole-system poll returned, checked: each an {@link ObjectKey}. */
    public static Collection<ObjectKey> keys(Object returned, String description) {
        if (returned == null) {
            return java.util.List.of();
        }
        Collection<?> keys = (Collection<?>) returned;
        for (Object key : keys) {
            if (!(key instanceof ObjectKey)) {
                throw new IllegalStateException("@Poll method " + description + " returned " + (key == null ? "null" : "a "
                        + key.getClass().getName()) + " among its keys; it must return ObjectKeys");
            }
        }
        @SuppressWarnings("unchecked")
        Collection<ObjectKey> checked = (Collection<ObjectKey>) keys;
        return checked;
    }
}
