package dev.mooring.engine.admission;

import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.FailurePolicy;
import dev.mooring.api.admission.Mutating;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import dev.mooring.engine.kube.Kinds;
import dev.mooring.engine.kube.LabelSelectors;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Derives and validates the admission routes of bean classes, without I/O: the same result
 * when the application deploys and when webhook configurations are generated offline.
 */
public final class AdmissionRoutes {

    private static final Pattern PATH = Pattern.compile("^(/[a-z0-9]([-a-z0-9.]*[a-z0-9])?)+$");
    private static final Pattern RESOURCE = Pattern.compile("^[a-z]([-a-z0-9]*[a-z0-9])?$");
    private static final Pattern SUBRESOURCE = Pattern.compile("^[a-z][a-z0-9]*$");
    private static final List<String> RESERVED = List.of("/mooring", "/health", "/metrics", "/ibm", "/openapi");

    /** The options shared by {@link Validating} and {@link Mutating}. */
    private record Options(Operation[] operations, String subresource, Class<? extends KubernetesObject> target,
            String resource, String namespaceSelector, int timeoutSeconds, FailurePolicy failurePolicy, String path) {
    }

    private AdmissionRoutes() {
    }

    /** True if the class declares {@link Validating} or {@link Mutating} methods. */
    public static boolean declares(Class<?> beanClass) {
        return Arrays.stream(beanClass.getDeclaredMethods())
                .anyMatch(method -> method.isAnnotationPresent(Validating.class) || method.isAnnotationPresent(Mutating.class));
    }

    /**
     * The routes of one bean class, in method name order.
     *
     * @throws IllegalArgumentException naming the method and the option that is wrong
     */
    public static List<AdmissionRoute> of(Class<?> beanClass) {
        List<Method> methods = new ArrayList<>(Arrays.asList(beanClass.getDeclaredMethods()));
        methods.sort(Comparator.comparing(Method::getName));
        List<AdmissionRoute> routes = new ArrayList<>();
        for (Method method : methods) {
            Validating validating = method.getAnnotation(Validating.class);
            Mutating mutating = method.getAnnotation(Mutating.class);
            if (validating != null && mutating != null) {
                throw problem(method, "is annotated both @Validating and @Mutating; a webhook is one or the other");
            }
            if (validating != null) {
                routes.add(route(method, false, new Options(validating.operations(), validating.subresource(),
                        validating.target(), validating.resource(), validating.namespaceSelector(),
                        validating.timeoutSeconds(), validating.failurePolicy(), validating.path())));
            } else if (mutating != null) {
                routes.add(route(method, true, new Options(mutating.operations(), mutating.subresource(),
                        mutating.target(), mutating.resource(), mutating.namespaceSelector(),
                        mutating.timeoutSeconds(), mutating.failurePolicy(), mutating.path())));
            }
        }
        return routes;
    }

    /**
     * The routes of several bean classes, checked together: paths must be unique.
     *
     * @throws IllegalArgumentException naming the methods that clash, or a wrong option
     */
    public static List<AdmissionRoute> of(List<Class<?>> beanClasses) {
        List<AdmissionRoute> all = new ArrayList<>();
        for (Class<?> beanClass : beanClasses) {
            all.addAll(of(beanClass));
        }
        requireUniquePaths(all);
        return all;
    }

    /** @throws IllegalArgumentException if two routes share a path */
    public static void requireUniquePaths(List<AdmissionRoute> routes) {
        Map<String, AdmissionRoute> byPath = new HashMap<>();
        for (AdmissionRoute route : routes) {
            AdmissionRoute clash = byPath.putIfAbsent(route.path(), route);
            if (clash != null) {
                throw new IllegalArgumentException("Admission methods " + clash.describe() + " and " + route.describe()
                        + " are both served at " + route.path() + "; set path = ... on one of them");
            }
        }
    }

    private static AdmissionRoute route(Method method, boolean mutating, Options options) {
        if (Modifier.isPrivate(method.getModifiers()) || Modifier.isStatic(method.getModifiers())) {
            throw problem(method, "must be a non-private instance method, so that it is called on the CDI bean");
        }
        Class<? extends KubernetesObject> model = requestModel(method);
        checkReturn(method, mutating, model);
        boolean dynamic = DynamicKubernetesObject.class.isAssignableFrom(model);
        List<Operation> operations = operations(method, mutating, options);
        String subresource = options.subresource();
        if (!subresource.isEmpty() && !SUBRESOURCE.matcher(subresource).matches()) {
            throw problem(method, "subresource '" + subresource + "' must be an exact lowercase subresource name, such as scale");
        }
        if (operations.contains(Operation.CONNECT) && subresource.isEmpty()) {
            throw problem(method, "admits CONNECT, which only exists for subresources (such as pods/exec): set subresource");
        }
        boolean hasTarget = options.target() != KubernetesObject.class;
        if (hasTarget && subresource.isEmpty()) {
            throw problem(method, "a different admission target (" + options.target().getSimpleName()
                    + ") requires subresource = ..., the subresource whose requests carry " + model.getSimpleName());
        }
        if (dynamic && !hasTarget) {
            throw problem(method, "takes DynamicKubernetesObject, which names no kind: set target = ... and subresource = ...");
        }
        ResourceType<?> requestKind;
        ResourceType<?> target;
        try {
            requestKind = dynamic ? null : Kinds.offline().resolve(model);
            target = hasTarget ? Kinds.offline().resolve(options.target()) : requestKind;
        } catch (IllegalArgumentException e) {
            throw problem(method, e.getMessage());
        }
        String plural = options.resource().isEmpty() ? target.plural() : options.resource();
        if (plural == null) {
            throw problem(method, target.kind() + " is not served as a resource of its own; admit it through target = ... and"
                    + " subresource = ..., or supply resource = ...");
        }
        if (plural.length() > 63 || !RESOURCE.matcher(plural).matches()) {
            throw problem(method, "resource '" + plural + "' must be the exact lowercase Kubernetes resource plural");
        }
        if (options.timeoutSeconds() < 1 || options.timeoutSeconds() > 30) {
            throw problem(method, "timeoutSeconds must be an integer between 1 and 30, not " + options.timeoutSeconds());
        }
        V1LabelSelector selector = null;
        if (!options.namespaceSelector().isBlank()) {
            try {
                selector = LabelSelectors.parse(options.namespaceSelector());
            } catch (IllegalArgumentException e) {
                throw problem(method, "namespaceSelector: " + e.getMessage());
            }
        }
        String path = options.path().isEmpty() ? defaultPath(mutating, target, plural, method.getName()) : options.path();
        checkPath(method, path);
        return new AdmissionRoute(path, mutating, method, model, requestKind,
                new AdmissionRoute.Rule(target, plural, subresource, operations),
                new AdmissionRoute.Call(selector, options.timeoutSeconds(), options.failurePolicy()));
    }

    /** {@code /validate/<group with / for .>/<version>/<plural>/<method-name>}; {@code core} names the core group. */
    static String defaultPath(boolean mutating, ResourceType<?> target, String plural, String methodName) {
        String group = target.group().isEmpty() ? "core" : target.group().replace('.', '/');
        return "/" + (mutating ? "mutate" : "validate") + "/" + group + "/" + target.version() + "/" + plural + "/"
                + kebab(methodName);
    }

    /** {@code limitReplicas → limit-replicas}, {@code check_spec → check-spec}; {@code handler} if nothing is left. */
    static String kebab(String name) {
        String words = name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
        String kebab = words.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return kebab.isEmpty() ? "handler" : kebab;
    }

    private static void checkPath(Method method, String path) {
        if (!PATH.matcher(path).matches()) {
            throw problem(method, "path '" + path + "' must be an absolute path of lowercase letters, digits, '-' and '.'"
                    + " segments, without query or escape characters");
        }
        for (String reserved : RESERVED) {
            if (path.equals(reserved) || path.startsWith(reserved + "/")) {
                throw problem(method, "path '" + path + "' is under " + reserved + ", which the server uses itself");
            }
        }
    }

    private static List<Operation> operations(Method method, boolean mutating, Options options) {
        if (options.operations().length == 0) {
            throw problem(method, "operations must not be empty");
        }
        Set<Operation> unique = new LinkedHashSet<>(Arrays.asList(options.operations()));
        if (unique.size() != options.operations().length) {
            throw problem(method, "operations must be unique: " + Arrays.toString(options.operations()));
        }
        if (mutating && (unique.contains(Operation.DELETE) || unique.contains(Operation.CONNECT))) {
            throw problem(method, "a mutating webhook admits CREATE and UPDATE only: DELETE and CONNECT have no object to mutate");
        }
        return List.copyOf(unique);
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends KubernetesObject> requestModel(Method method) {
        Type[] parameters = method.getGenericParameterTypes();
        if (parameters.length == 1 && parameters[0] instanceof ParameterizedType parameterized
                && parameterized.getRawType() == AdmissionRequest.class
                && parameterized.getActualTypeArguments()[0] instanceof Class<?> model
                && KubernetesObject.class.isAssignableFrom(model) && model != KubernetesObject.class) {
            return (Class<? extends KubernetesObject>) model;
        }
        throw problem(method, "must take one parameter AdmissionRequest<T> with a concrete model class T (such as V1Deployment)");
    }

    private static void checkReturn(Method method, boolean mutating, Class<?> model) {
        if (mutating && !method.getReturnType().isAssignableFrom(model)) {
            throw problem(method, "a @Mutating method must return the edited object: " + model.getSimpleName()
                    + ", not " + method.getReturnType().getSimpleName());
        }
        if (!mutating && method.getReturnType() != void.class) {
            throw problem(method, "a @Validating method returns void: it allows by returning, denies by throwing AdmissionDenied");
        }
    }

    private static IllegalArgumentException problem(Method method, String problem) {
        return new IllegalArgumentException("Admission method " + method.getDeclaringClass().getName() + "." + method.getName()
                + ": " + problem);
    }
}
