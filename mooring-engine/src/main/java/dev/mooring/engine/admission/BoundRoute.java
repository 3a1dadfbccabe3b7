package dev.mooring.engine.admission;

import dev.mooring.api.admission.AdmissionRequest;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * An admission route bound, at start-up, to the bean that serves it: a method handle on the
 * route's method with the bean as its receiver. A call throws what the method throws, unwrapped.
 *
 * @param route the route
 * @param call {@code (AdmissionRequest) -> Object}, the bean's method with the bean bound
 */
public record BoundRoute(AdmissionRoute route, MethodHandle call) {

    public BoundRoute {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(call, "call");
    }

    /**
     * Each route bound to its bean.
     *
     * @param beans the bean (or its container proxy) of a route's declaring class
     * @throws IllegalStateException if a method cannot be bound (it is not accessible)
     */
    public static List<BoundRoute> bind(List<AdmissionRoute> routes, Function<Class<?>, Object> beans) {
        List<BoundRoute> bound = new ArrayList<>(routes.size());
        for (AdmissionRoute route : routes) {
            bound.add(bind(route, beans.apply(route.beanClass())));
        }
        return bound;
    }

    /** {@code route} bound to {@code bean}, an instance of its declaring class. */
    public static BoundRoute bind(AdmissionRoute route, Object bean) {
        Objects.requireNonNull(bean, () -> "no bean for " + route.describe());
        try {
            route.method().setAccessible(true);
            MethodHandle handle = MethodHandles.lookup().unreflect(route.method()).bindTo(bean);
            return new BoundRoute(route, handle.asType(handle.type().changeReturnType(Object.class)
                    .changeParameterType(0, AdmissionRequest.class)));
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException("Cannot bind " + route.describe() + " to its bean: " + e.getMessage(), e);
        }
    }

    /** Calls the method with {@code request}; what it throws is thrown as it is. */
    public Object call(AdmissionRequest<?> request) throws Exception {
        try {
            return call.invoke(request);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(route.describe() + " threw " + e, e);
        }
    }
}
