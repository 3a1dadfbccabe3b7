package dev.mooring.engine.model;

import dev.mooring.api.Case;
import dev.mooring.api.Context;
import dev.mooring.api.Otherwise;
import dev.mooring.api.Result;
import dev.mooring.api.Stage;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The validated stages of a {@code Staged} controller bean, in order. Built when the application
 * deploys; every mistake (a reserved or invalid name, an ambiguous order, a stage with both a
 * handler and cases, duplicate priorities, two fallbacks, a missing or wrong predicate, a wrong
 * signature) is reported with the bean and method it concerns.
 */
public final class StagePlan {

    /** The summary condition. */
    public static final String READY = "Ready";
    private static final Pattern NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9_]{0,127}$");

    /** One branch of a stage; {@code predicate} is null for the fallback. */
    public record Branch(Method handler, Method predicate, int priority) {
    }

    /**
     * One stage: either a {@code handler}, or {@code cases} (highest priority first) and an
     * optional {@code otherwise}.
     */
    public record StageSpec(String name, int order, Method handler, List<Branch> cases, Method otherwise) {
    }

    private final List<StageSpec> stages;

    private StagePlan(List<StageSpec> stages) {
        this.stages = stages;
    }

    public List<StageSpec> stages() {
        return stages;
    }

    /** The conditions the plan manages: every stage's and {@code Ready}. */
    public Set<String> managedConditions() {
        Set<String> names = new LinkedHashSet<>();
        stages.forEach(stage -> names.add(stage.name()));
        names.add(READY);
        return names;
    }

    /**
     * @throws IllegalArgumentException naming the bean and method, when the stages are invalid
     */
    public static StagePlan of(Class<?> beanClass, Class<?> kind) {
        String bean = beanClass.getName();
        Map<String, List<Method>> byStage = new LinkedHashMap<>();
        for (Method method : methods(beanClass)) {
            Stage stage = method.getAnnotation(Stage.class);
            if (stage == null) {
                if (method.isAnnotationPresent(Case.class) || method.isAnnotationPresent(Otherwise.class)) {
                    throw new IllegalArgumentException(where(method) + ": @Case and @Otherwise need @Stage on the same method");
                }
                continue;
            }
            if (!NAME.matcher(stage.value()).matches()) {
                throw new IllegalArgumentException(where(method) + ": the stage name '" + stage.value()
                        + "' must be an identifier of at most 128 characters (it is a condition type)");
            }
            if (READY.equals(stage.value())) {
                throw new IllegalArgumentException(where(method) + ": Ready is reserved for the summary condition");
            }
            checkHandler(method, kind);
            byStage.computeIfAbsent(stage.value(), k -> new ArrayList<>()).add(method);
        }
        if (byStage.isEmpty()) {
            throw new IllegalArgumentException(bean + " implements Staged but has no @Stage methods");
        }
        List<StageSpec> stages = new ArrayList<>();
        Map<Integer, String> orders = new HashMap<>();
        for (Map.Entry<String, List<Method>> entry : byStage.entrySet()) {
            StageSpec stage = stage(bean, entry.getKey(), entry.getValue(), beanClass, kind);
            String other = orders.putIfAbsent(stage.order(), stage.name());
            if (other != null) {
                throw new IllegalArgumentException(bean + ": stages " + other + " and " + stage.name()
                        + " have the same order " + stage.order() + ", so their order is ambiguous; give each stage a distinct order");
            }
            stages.add(stage);
        }
        stages.sort(Comparator.comparingInt(StageSpec::order));
        return new StagePlan(List.copyOf(stages));
    }

    private static StageSpec stage(String bean, String name, List<Method> methods, Class<?> beanClass, Class<?> kind) {
        Set<Integer> orders = new HashSet<>();
        methods.forEach(method -> orders.add(method.getAnnotation(Stage.class).order()));
        if (orders.size() > 1) {
            throw new IllegalArgumentException(bean + ": the methods of stage " + name + " give different orders " + orders);
        }
        int order = orders.iterator().next();
        Method handler = null;
        Method otherwise = null;
        List<Branch> cases = new ArrayList<>();
        Map<Integer, Method> priorities = new HashMap<>();
        for (Method method : methods) {
            Case branch = method.getAnnotation(Case.class);
            boolean fallback = method.isAnnotationPresent(Otherwise.class);
            if (branch != null && fallback) {
                throw new IllegalArgumentException(where(method) + ": a method is a @Case or the @Otherwise, not both");
            }
            if (branch != null) {
                Method clash = priorities.putIfAbsent(branch.priority(), method);
                if (clash != null) {
                    throw new IllegalArgumentException(bean + ": cases " + clash.getName() + " and " + method.getName()
                            + " of stage " + name + " have the same priority " + branch.priority() + "; priorities must be distinct");
                }
                cases.add(new Branch(method, predicate(beanClass, kind, method, branch.when()), branch.priority()));
            } else if (fallback) {
                if (otherwise != null) {
                    throw new IllegalArgumentException(bean + ": stage " + name + " has two @Otherwise methods ("
                            + otherwise.getName() + ", " + method.getName() + "); only one fallback is allowed");
                }
                otherwise = method;
            } else {
                if (handler != null) {
                    throw new IllegalArgumentException(bean + ": stage " + name + " has two handler methods ("
                            + handler.getName() + ", " + method.getName() + "); use @Case branches, or one handler");
                }
                handler = method;
            }
        }
        if (handler != null && (!cases.isEmpty() || otherwise != null)) {
            throw new IllegalArgumentException(bean + ": stage " + name + " has a handler (" + handler.getName()
                    + ") and cases; a stage has one handler or cases, not both");
        }
        cases.sort(Comparator.comparingInt(Branch::priority).reversed());
        return new StageSpec(name, order, handler, List.copyOf(cases), otherwise);
    }

    private static Method predicate(Class<?> beanClass, Class<?> kind, Method branch, String name) {
        for (Method method : methods(beanClass)) {
            if (method.getName().equals(name) && method.getParameterCount() == 1
                    && method.getParameterTypes()[0].isAssignableFrom(kind)) {
                if (method.getReturnType() != boolean.class && method.getReturnType() != Boolean.class) {
                    throw new IllegalArgumentException(where(method) + ": the predicate of @Case " + branch.getName()
                            + " must return boolean");
                }
                method.setAccessible(true);
                return method;
            }
        }
        throw new IllegalArgumentException(where(branch) + ": @Case(when = \"" + name + "\") names no method boolean "
                + name + "(" + kind.getSimpleName() + ") of " + beanClass.getName());
    }

    private static void checkHandler(Method method, Class<?> kind) {
        Class<?>[] parameters = method.getParameterTypes();
        boolean shape = (parameters.length == 1 || parameters.length == 2) && parameters[0].isAssignableFrom(kind)
                && (parameters.length == 1 || parameters[1] == Context.class);
        if (!shape || Modifier.isStatic(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())) {
            throw new IllegalArgumentException(where(method) + ": a stage method takes (" + kind.getSimpleName()
                    + ") or (" + kind.getSimpleName() + ", Context), and is neither static nor private");
        }
        if (method.getReturnType() != void.class && method.getReturnType() != Result.class) {
            throw new IllegalArgumentException(where(method) + ": a stage method returns void or Result");
        }
        method.setAccessible(true);
    }

    private static List<Method> methods(Class<?> beanClass) {
        List<Method> all = new ArrayList<>();
        for (Class<?> type = beanClass; type != null && type != Object.class; type = type.getSuperclass()) {
            all.addAll(List.of(type.getDeclaredMethods()));
        }
        all.removeIf(Method::isSynthetic);
        all.sort(Comparator.comparing(Method::getName));
        return all;
    }

    private static String where(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }
}
