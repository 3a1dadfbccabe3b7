package dev.mooring.engine.model;

import dev.mooring.api.CacheTransform;
import dev.mooring.api.Index;
import dev.mooring.api.Watch;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * A reconciler bean's annotated methods, collected one way for the container's CDI extension and
 * the test kit: its {@link Watch} methods (each maps a dependency), its {@link Index} methods
 * (each indexes the cache of a watched kind), its {@link CacheTransform} methods (what the
 * cache of a watched kind keeps) and its {@code Poll} methods (changes outside Kubernetes). Their signatures are checked where they are used.
 *
 * @param watches the {@code @Watch} methods
 * @param indexes the {@code @Index} methods
 * @param transforms the {@code @CacheTransform} methods
 * @param polls the {@code @Poll} methods
 */
public record BeanMethods(List<Method> watches, List<Method> indexes, List<Method> transforms, List<Method> polls) {

    /** A bean without any of them. */
    public static final BeanMethods NONE = new BeanMethods(List.of(), List.of(), List.of(), List.of());

    public BeanMethods {
        watches = List.copyOf(watches);
        indexes = List.copyOf(indexes);
        transforms = List.copyOf(transforms);
        polls = List.copyOf(polls);
    }

    /** The annotated ones among {@code methods}, in their order. */
    public static BeanMethods of(Collection<Method> methods) {
        List<Method> watches = new ArrayList<>();
        List<Method> indexes = new ArrayList<>();
        List<Method> transforms = new ArrayList<>();
        List<Method> polls = new ArrayList<>();
        for (Method method : methods) {
            if (method.isAnnotationPresent(dev.mooring.api.Poll.class)) {
                polls.add(method);
            }
            if (method.isAnnotationPresent(Watch.class)) {
                watches.add(method);
            }
            if (method.isAnnotationPresent(Index.class)) {
                indexes.add(method);
            }
            if (method.isAnnotationPresent(CacheTransform.class)) {
                transforms.add(method);
            }
        }
        return new BeanMethods(watches, indexes, transforms, polls);
    }

    /** The annotated methods {@code beanClass} declares (not those it inherits). */
    public static BeanMethods of(Class<?> beanClass) {
        return of(Arrays.asList(beanClass.getDeclaredMethods()));
    }

    /** True when the bean has none of them. */
    public boolean isEmpty() {
        return watches.isEmpty() && indexes.isEmpty() && transforms.isEmpty() && polls.isEmpty();
    }
}
