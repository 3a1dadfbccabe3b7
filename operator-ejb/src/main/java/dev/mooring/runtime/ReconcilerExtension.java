package dev.mooring.runtime;

import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.runtime.internal.ControllerDefinition;
import dev.mooring.runtime.internal.ModelKind;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Finds the reconciler beans of the application when it deploys and validates their
 * {@link Controller} options. A wrong option fails the deployment with a message that names the
 * bean and the option; nothing is discovered at the first reconcile.
 */
public class ReconcilerExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(ReconcilerExtension.class.getName());

    private final List<Found> found = new ArrayList<>();
    private final List<ControllerDefinition> definitions = new ArrayList<>();

    private record Found(Bean<?> bean, Class<?> beanClass, Controller options, Class<? extends KubernetesObject> kind) {
    }

    <T> void onBean(@Observes ProcessManagedBean<T> event) {
        Class<?> beanClass = event.getAnnotatedBeanClass().getJavaClass();
        Controller options = event.getAnnotatedBeanClass().getAnnotation(Controller.class);
        Class<? extends KubernetesObject> kind = reconciledKind(event.getBean().getTypes());
        if (options == null && kind == null) {
            return;
        }
        if (options == null) {
            event.addDefinitionError(new IllegalStateException("Reconciler bean " + beanClass.getName()
                    + " must be annotated @" + Controller.class.getName() + " to run as a controller"));
        } else if (kind == null) {
            event.addDefinitionError(new IllegalStateException("@Controller bean " + beanClass.getName()
                    + " must implement " + Reconciler.class.getName() + "<T> with a concrete kind T"));
        } else {
            found.add(new Found(event.getBean(), beanClass, options, kind));
        }
    }

    void validate(@Observes AfterDeploymentValidation event) {
        Map<String, Class<?>> names = new HashMap<>();
        for (Found candidate : found) {
            try {
                ControllerDefinition definition = define(candidate);
                Class<?> clash = names.putIfAbsent(definition.name(), candidate.beanClass());
                if (clash != null) {
                    throw new IllegalStateException("Controller name '" + definition.name() + "' is used by both "
                            + clash.getName() + " and " + candidate.beanClass().getName()
                            + "; set distinct @Controller(name = ...) values");
                }
                definitions.add(definition);
                LOG.info(() -> "Found controller " + definition.name() + " for " + definition.kind().getSimpleName()
                        + " (" + candidate.beanClass().getName() + ")");
            } catch (RuntimeException e) {
                event.addDeploymentProblem(e);
            }
        }
    }

    /** The validated controllers of this deployment, in discovery order. */
    public List<ControllerDefinition> definitions() {
        return List.copyOf(definitions);
    }

    private static ControllerDefinition define(Found candidate) {
        Controller options = candidate.options();
        String where = "@Controller on " + candidate.beanClass().getName();
        String name = options.name().isEmpty()
                ? ModelKind.of(candidate.kind()).kind().toLowerCase(Locale.ROOT)
                : options.name();
        if (name.isBlank()) {
            throw new IllegalArgumentException(where + ": name must not be blank");
        }
        if (name.length() > ControllerDefinition.MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(where + ": name must have at most " + ControllerDefinition.MAX_NAME_LENGTH
                    + " characters, '" + name + "' has " + name.length());
        }
        if (options.workers() < 1) {
            throw new IllegalArgumentException(where + ": workers must be at least 1, got " + options.workers());
        }
        if (options.allNamespaces() && !options.namespace().isEmpty()) {
            throw new IllegalArgumentException(where + ": set either namespace or allNamespaces, not both");
        }
        String namespace = options.allNamespaces() ? null : options.namespace();
        String selector = options.labelSelector().isBlank() ? null : options.labelSelector();
        return new ControllerDefinition(name, candidate.kind(), namespace, selector, options.workers(), candidate.bean());
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends KubernetesObject> reconciledKind(Iterable<Type> beanTypes) {
        for (Type type : beanTypes) {
            if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == Reconciler.class
                    && parameterized.getActualTypeArguments()[0] instanceof Class<?> kind
                    && KubernetesObject.class.isAssignableFrom(kind)) {
                return (Class<? extends KubernetesObject>) kind;
            }
        }
        return null;
    }
}
