package dev.mooring.engine.model;

import dev.mooring.api.Controller;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.Kinds;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Resolves a controller's options: a MicroProfile Config property
 * {@code mooring.controller.<name>.<option>} beats the {@link Controller} attribute, which carries
 * the built-in default. Every invalid value fails with a message naming the property or the
 * annotation attribute it came from.
 */
public final class ControllerOptions {

    /** Prefix of per-controller properties. */
    public static final String PREFIX = "mooring.controller.";

    /** The options a {@code mooring.controller.<name>.<option>} property can set. */
    public static final List<String> OPTIONS = List.of("namespace", "all-namespaces", "namespaces", "label-selector", "owns-label-selector",
            "owns-field-selector", "workers", "resync", "sync-timeout", "shutdown-timeout", "reconcile-timeout", "status-events", "retry-base-delay", "retry-max-delay", "retry-limit",
            "max-pass-rate", "pass-burst");

    private final Class<?> beanClass;
    private final Controller annotation;
    private final String name;
    private final Function<String, Optional<String>> config;

    private ControllerOptions(Class<?> beanClass, Controller annotation, String name, Function<String, Optional<String>> config) {
        this.beanClass = beanClass;
        this.annotation = annotation;
        this.name = name;
        this.config = config;
    }

    /**
     * The definition of a {@code @Controller} class without a server: its options as annotated
     * (no MicroProfile Config), its namespace defaulting to {@code operatorNamespace}; the
     * reconciled kind is found on the class or a superclass. Empty for a class that is no controller.
     *
     * @throws IllegalArgumentException if a {@code @Controller} class reconciles no model type, or an option is invalid
     */
    public static java.util.Optional<ControllerDefinition> offline(Class<?> type, String operatorNamespace) {
        Controller controller = type.getAnnotation(Controller.class);
        if (controller == null) {
            return java.util.Optional.empty();
        }
        List<Type> interfaces = new java.util.ArrayList<>();
        for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
            interfaces.addAll(Arrays.asList(current.getGenericInterfaces()));
        }
        Class<? extends KubernetesObject> kind = reconciledKind(interfaces);
        checkOneContract(type, interfaces);
        if (kind == null) {
            throw new IllegalArgumentException(type.getName() + " is a @Controller but implements none of Reconciler<T>,"
                    + " Staged<T> and DesiredStateReconciler<T> with a model type T");
        }
        boolean cleans = dev.mooring.api.Cleanup.class.isAssignableFrom(type);
        return java.util.Optional.of(resolve(type, controller, kind, cleans, key -> Optional.empty()).withNamespace(operatorNamespace));
    }

    /** The controller's name: {@code @Controller(name)}, else its kind in lower case. */
    public static String nameOf(Controller annotation, Class<? extends KubernetesObject> kind) {
        return annotation.name().isEmpty() ? Kinds.kindName(kind).toLowerCase(Locale.ROOT) : annotation.name();
    }

    /**
     * @param config MicroProfile Config lookup (empty when a property is not set)
     * @return the definition; its {@code watches} are empty (they need the bean instance)
     * @throws IllegalArgumentException naming the option, when a value is invalid
     */
    public static ControllerDefinition resolve(Class<?> beanClass, Controller annotation,
            Class<? extends KubernetesObject> kind, Function<String, Optional<String>> config) {
        return resolve(beanClass, annotation, kind, false, config);
    }

    /**
     * @param cleans whether the reconciler implements {@code Cleanup} (then a finalizer is required)
     */
    public static ControllerDefinition resolve(Class<?> beanClass, Controller annotation,
            Class<? extends KubernetesObject> kind, boolean cleans, Function<String, Optional<String>> config) {
        String where = "@Controller(name) on " + beanClass.getName();
        String name = nameOf(annotation, kind);
        if (name.isBlank()) {
            throw new IllegalArgumentException(where + " must not be blank");
        }
        if (name.length() > ControllerDefinition.MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(where + " must have at most " + ControllerDefinition.MAX_NAME_LENGTH
                    + " characters, '" + name + "' has " + name.length());
        }
        return new ControllerOptions(beanClass, annotation, name, config).resolve(kind, cleans);
    }

    private ControllerDefinition resolve(Class<? extends KubernetesObject> kind, boolean cleans) {
        String finalizer = finalizer(cleans);
        boolean allNamespaces = bool("all-namespaces", "allNamespaces", annotation.allNamespaces());
        String namespace = text("namespace", "namespace", annotation.namespace());
        if (allNamespaces && !namespace.isEmpty()) {
            throw new IllegalArgumentException("Controller " + name + ": set either namespace ('" + namespace
                    + "') or all-namespaces, not both (" + PREFIX + name + ".namespace / .all-namespaces or @Controller on "
                    + beanClass.getName() + ")");
        }
        java.util.Set<String> namespaces = namespaces();
        if (namespaces != null && (allNamespaces || !namespace.isEmpty())) {
            throw new IllegalArgumentException("Controller " + name + ": set namespaces (" + source("namespaces", "namespaces")
                    + ") or " + (allNamespaces ? "all-namespaces" : "namespace ('" + namespace + "')") + ", not both");
        }
        String selector = text("label-selector", "labelSelector", annotation.labelSelector());
        if (!selector.isBlank()) {
            try {
                dev.mooring.engine.kube.LabelSelectors.parse(selector);
            } catch (IllegalArgumentException e) {
                String source = config.apply(key("label-selector")).isPresent() ? key("label-selector") : attribute("labelSelector");
                throw new IllegalArgumentException(source + " is not a label selector: " + e.getMessage());
            }
        }
        dev.mooring.engine.kube.Selectors ownsSelectors = ownsSelectors();
        int workers = workers();
        Duration resync = duration("resync", "resync", annotation.resync(), true);
        Duration syncTimeout = duration("sync-timeout", "syncTimeout", annotation.syncTimeout(), true);
        Duration shutdownTimeout = duration("shutdown-timeout", "shutdownTimeout", annotation.shutdownTimeout(), true);
        Duration reconcileTimeout = duration("reconcile-timeout", "reconcileTimeout", annotation.reconcileTimeout(), false);
        boolean statusEvents = bool("status-events", "statusEvents", annotation.statusEvents());
        QueuePolicy queue = queuePolicy();
        return ControllerDefinition.builder(name, kind).namespace(allNamespaces ? null : namespace).namespaces(namespaces)
                .labelSelector(selector.isBlank() ? null : selector).ownsSelectors(ownsSelectors).workers(workers).resync(resync).syncTimeout(syncTimeout)
                .shutdownTimeout(shutdownTimeout).reconcileTimeout(reconcileTimeout).statusEvents(statusEvents).queuePolicy(queue)
                .owns(List.copyOf(Arrays.asList(annotation.owns()))).finalizer(finalizer).build();
    }

    /** The retry and rate settings, each from its property or the annotation; the delays checked together. */
    private QueuePolicy queuePolicy() {
        Duration base = duration("retry-base-delay", "retryBaseDelay", annotation.retryBaseDelay(), false);
        Duration max = duration("retry-max-delay", "retryMaxDelay", annotation.retryMaxDelay(), false);
        if (base != null && max != null && max.compareTo(base) < 0) {
            throw new IllegalArgumentException("Controller " + name + ": the retry-max-delay (" + source("retry-max-delay", "retryMaxDelay")
                    + ", " + max + ") must not be less than the retry-base-delay (" + source("retry-base-delay", "retryBaseDelay") + ", "
                    + base + ")");
        }
        int limit = whole("retry-limit", "retryLimit", annotation.retryLimit(), 0);
        double rate = rate();
        int burst = whole("pass-burst", "passBurst", annotation.passBurst(), 0);
        return new QueuePolicy(base, max, limit, rate, burst);
    }

    /** A whole-number option, from its property or the annotation, at least {@code min}. */
    private int whole(String option, String attribute, int annotated, int min) {
        Optional<String> property = config.apply(key(option)).filter(value -> !value.isBlank());
        int value;
        if (property.isPresent()) {
            try {
                value = Integer.parseInt(property.get().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key(option) + " must be a whole number of at least " + min + ", got '"
                        + property.get() + "'");
            }
        } else {
            value = annotated;
        }
        if (value < min) {
            throw new IllegalArgumentException(source(option, attribute) + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    /** {@code max-pass-rate}: passes a second, 0 for none; finite and not negative. */
    private double rate() {
        Optional<String> property = config.apply(key("max-pass-rate")).filter(value -> !value.isBlank());
        double value;
        if (property.isPresent()) {
            try {
                value = Double.parseDouble(property.get().trim());
            } catch (NumberFormatException e) {
                value = Double.NaN;
            }
        } else {
            value = annotation.maxPassRate();
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(source("max-pass-rate", "maxPassRate") + " must be a number of passes a second,"
                    + " 0 for no limit, got '" + property.orElse(Double.toString(value)) + "'");
        }
        return value;
    }

    /** The set of namespaces from the property or the annotation; null when neither gives one. */
    private java.util.Set<String> namespaces() {
        Optional<String> property = config.apply(key("namespaces")).filter(value -> !value.isBlank());
        if (property.isPresent()) {
            return namespaces(property.get(), key("namespaces"));
        }
        return annotation.namespaces().length == 0 ? null : namespaces(String.join(",", annotation.namespaces()), attribute("namespaces"));
    }

    /**
     * A set of namespaces written as a comma-separated list ({@code a, b}), in the order written.
     *
     * @param source the property or attribute it came from, for the message
     * @throws IllegalArgumentException naming {@code source} and the entry when one is not a namespace name
     */
    public static java.util.Set<String> namespaces(String list, String source) {
        java.util.Set<String> namespaces = new java.util.LinkedHashSet<>();
        for (String entry : list.split(",", -1)) {
            namespaces.add(dev.mooring.engine.kube.KubeNames.namespace(entry.trim(), source));
        }
        return java.util.Collections.unmodifiableSet(namespaces);
    }

    /** The selectors of the owned kinds, each from its property or the annotation. */
    private dev.mooring.engine.kube.Selectors ownsSelectors() {
        String labels = text("owns-label-selector", "ownsLabelSelector", annotation.ownsLabelSelector());
        String fields = text("owns-field-selector", "ownsFieldSelector", annotation.ownsFieldSelector());
        try {
            dev.mooring.engine.kube.Selectors.labels(labels);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source("owns-label-selector", "ownsLabelSelector") + " is not a label selector: "
                    + e.getMessage());
        }
        try {
            return new dev.mooring.engine.kube.Selectors(labels, fields);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source("owns-field-selector", "ownsFieldSelector") + " is not a field selector: "
                    + e.getMessage());
        }
    }

    /** Where an option's value came from, for messages: its property when set, else the annotation's attribute. */
    private String source(String option, String attribute) {
        return config.apply(key(option)).isPresent() ? key(option) : attribute(attribute);
    }

    /**
     * The selectors of a {@code @Watch} method.
     *
     * @throws IllegalArgumentException naming the method and the selector when one is not valid
     */
    public static dev.mooring.engine.kube.Selectors watchSelectors(java.lang.reflect.Method method) {
        dev.mooring.api.Watch watch = method.getAnnotation(dev.mooring.api.Watch.class);
        if (watch == null) {
            return dev.mooring.engine.kube.Selectors.NONE;
        }
        try {
            return new dev.mooring.engine.kube.Selectors(watch.labelSelector(), watch.fieldSelector());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("@Watch on " + method.getDeclaringClass().getName() + "." + method.getName() + ": "
                    + e.getMessage());
        }
    }

    private String finalizer(boolean cleans) {
        String finalizer = annotation.finalizer().trim();
        String where = attribute("finalizer");
        if (cleans && finalizer.isEmpty()) {
            throw new IllegalArgumentException(where + " is required because the reconciler implements Cleanup:"
                    + " name a qualified finalizer such as example.com/cleanup");
        }
        if (!cleans && !finalizer.isEmpty()) {
            throw new IllegalArgumentException(where + " is set, but the reconciler does not implement Cleanup");
        }
        if (cleans && !FINALIZER.matcher(finalizer).matches()) {
            throw new IllegalArgumentException(where + " must be a qualified name such as example.com/cleanup, got '"
                    + finalizer + "'");
        }
        return cleans ? finalizer : null;
    }

    private static final java.util.regex.Pattern FINALIZER = java.util.regex.Pattern.compile(
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");

    private int workers() {
        return whole("workers", "workers", annotation.workers(), 1);
    }

    private String text(String option, String attribute, String annotated) {
        return config.apply(key(option)).map(String::trim).orElse(annotated.trim());
    }

    private boolean bool(String option, String attribute, boolean annotated) {
        Optional<String> property = config.apply(key(option));
        if (property.isEmpty()) {
            return annotated;
        }
        String value = property.get().trim().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(key(option) + " must be true or false, got '" + property.get() + "'");
        }
        return Boolean.parseBoolean(value);
    }

    /** A duration; an empty text means none (only allowed when not required). */
    private Duration duration(String option, String attribute, String annotated, boolean required) {
        Optional<String> property = config.apply(key(option));
        String where = property.isPresent() ? key(option) : attribute(attribute);
        String text = property.orElse(annotated).trim();
        if (text.isEmpty()) {
            if (required) {
                throw new IllegalArgumentException(where + " must be a positive duration, got an empty value");
            }
            return null;
        }
        return Durations.positive(where, text);
    }

    private String key(String option) {
        return PREFIX + name + "." + option;
    }

    private String attribute(String attribute) {
        return "@Controller(" + attribute + ") on " + beanClass.getName();
    }

    /**
     * Checks a {@code @Watch} method: a client-java model parameter (a {@code PartialObjectMetadata}
     * with {@code metadataOf}), optionally followed by a {@code Cache} (of the primaries), and a
     * {@code Collection<ObjectKey>} result.
     *
     * @return the watched kind: the parameter's, or {@code metadataOf}
     * @throws IllegalArgumentException naming the method, when the signature is wrong or a selector is not valid
     */
    @SuppressWarnings("unchecked")
    public static Class<? extends KubernetesObject> watchedKind(Method method) {
        String where = "@Watch method " + method.getDeclaringClass().getName() + "." + method.getName();
        watchSelectors(method);
        if (Modifier.isStatic(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())) {
            throw new IllegalArgumentException(where + " must be an instance method that is not private");
        }
        if (method.getParameterCount() < 1 || method.getParameterCount() > 2
                || !KubernetesObject.class.isAssignableFrom(method.getParameterTypes()[0])
                || method.getParameterCount() == 2 && method.getParameterTypes()[1] != dev.mooring.api.Cache.class) {
            throw new IllegalArgumentException(where + " must take the watched client-java model, and optionally the primaries' Cache");
        }
        if (!Collection.class.isAssignableFrom(method.getReturnType()) || !returnsKeys(method.getGenericReturnType())) {
            throw new IllegalArgumentException(where + " must return a Collection<ObjectKey> (for example Set<ObjectKey>)");
        }
        boolean metadataParameter = method.getParameterTypes()[0] == dev.mooring.api.PartialObjectMetadata.class;
        if (metadataOnly(method) != metadataParameter) {
            throw new IllegalArgumentException(where + (metadataParameter
                    ? " takes PartialObjectMetadata: name the kind whose metadata it watches, @Watch(metadataOf = ...)"
                    : " watches metadata only (metadataOf): its parameter must be PartialObjectMetadata"));
        }
        Class<? extends KubernetesObject> kind = metadataParameter
                ? method.getAnnotation(dev.mooring.api.Watch.class).metadataOf()
                : (Class<? extends KubernetesObject>) method.getParameterTypes()[0];
        if (kind == dev.mooring.api.PartialObjectMetadata.class) {
            throw new IllegalArgumentException(where + ": metadataOf must name a model class of a kind, not PartialObjectMetadata");
        }
        Kinds.kindName(kind);
        return kind;
    }

    /** Whether a {@code @Watch} method watches its kind as metadata only ({@code metadataOf} set). */
    public static boolean metadataOnly(Method method) {
        dev.mooring.api.Watch watch = method.getAnnotation(dev.mooring.api.Watch.class);
        return watch != null && watch.metadataOf() != KubernetesObject.class;
    }

    private static boolean returnsKeys(Type type) {
        return isCollectionOf(type, ObjectKey.class);
    }

    /** Whether {@code type} is a parameterized collection type whose element is {@code element} (or {@code ? extends} it). */
    static boolean isCollectionOf(Type type, Class<?> element) {
        if (!(type instanceof ParameterizedType parameterized)) {
            return false;
        }
        Type argument = parameterized.getActualTypeArguments()[0];
        if (argument instanceof WildcardType wildcard && wildcard.getUpperBounds().length == 1) {
            argument = wildcard.getUpperBounds()[0];
        }
        return argument == element;
    }

    /** The interfaces a controller bean implements one of, each with the primary kind as its type argument. */
    public static final List<Class<?>> CONTRACTS = List.of(dev.mooring.api.Reconciler.class, dev.mooring.api.Staged.class,
            dev.mooring.api.DesiredStateReconciler.class);

    /**
     * The kind {@code T} of a {@code Reconciler<T>}, {@code Staged<T>} or {@code DesiredStateReconciler<T>} among a bean's types
     * (or a class's generic interfaces); null when there is none with a concrete model class.
     */
    @SuppressWarnings("unchecked")
    public static Class<? extends KubernetesObject> reconciledKind(Iterable<Type> types) {
        for (Class<?> contract : CONTRACTS) {
            ParameterizedType parameterized = typed(types, contract);
            if (parameterized != null && parameterized.getActualTypeArguments()[0] instanceof Class<?> kind
                    && KubernetesObject.class.isAssignableFrom(kind)) {
                return (Class<? extends KubernetesObject>) kind;
            }
        }
        return null;
    }

    /**
     * Refuses a bean that implements more than one of the {@link #CONTRACTS}: a controller
     * reconciles one way, and which method would run is not the runtime's to guess.
     *
     * @throws IllegalArgumentException naming the class and the contracts it implements
     */
    public static void checkOneContract(Class<?> beanClass, Iterable<Type> types) {
        List<String> implemented = CONTRACTS.stream().filter(contract -> typed(types, contract) != null)
                .map(Class::getSimpleName).toList();
        if (implemented.size() > 1) {
            throw new IllegalArgumentException("@Controller bean " + beanClass.getName() + " implements " + String.join(" and ", implemented)
                    + "; a controller is one of Reconciler, Staged and DesiredStateReconciler");
        }
    }

    /** The type {@code contract<...>} among {@code types}, or null. */
    public static ParameterizedType typed(Iterable<Type> types, Class<?> contract) {
        for (Type type : types) {
            if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == contract) {
                return parameterized;
            }
        }
        return null;
    }
}
