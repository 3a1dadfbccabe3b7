package dev.mooring.runtime;

import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Watch;
import dev.mooring.engine.model.BeanMethods;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerOptions;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Finds the reconciler beans of the application when it deploys and validates their
 * {@link Controller} options (with their MicroProfile Config overrides) and {@link Watch}
 * methods. A wrong option fails the deployment with a message that names the bean, the option
 * and, when it came from configuration, the property; nothing is discovered at the first
 * reconcile.
 */
public class ReconcilerExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(ReconcilerExtension.class.getName());

    /**
     * A controller found in the application.
     *
     * @param definition options resolved; watches still empty (they need the bean instance)
     * @param bean the reconciler bean
     * @param methods its {@code @Watch}, {@code @Index} and {@code @CacheTransform} methods
     * @param stagePlan the stage plan of a {@code Staged} bean, else null
     */
    public record Discovered(ControllerDefinition definition, Bean<?> bean, BeanMethods methods,
            dev.mooring.engine.model.StagePlan stagePlan) {
    }

    private record Candidate(Bean<?> bean, Class<?> beanClass, Controller options, Class<? extends KubernetesObject> kind,
            BeanMethods methods) {
    }

    private final List<Candidate> candidates = new ArrayList<>();
    private final List<Discovered> discovered = new ArrayList<>();
    private final List<RuntimeException> problems = new ArrayList<>();

    <T> void onBean(@Observes ProcessManagedBean<T> event) {
        Class<?> beanClass = event.getAnnotatedBeanClass().getJavaClass();
        Controller options = event.getAnnotatedBeanClass().getAnnotation(Controller.class);
        Class<? extends KubernetesObject> kind = ControllerOptions.reconciledKind(event.getBean().getTypes());
        List<Method> members = new ArrayList<>();
        for (AnnotatedMethod<? super T> method : event.getAnnotatedBeanClass().getMethods()) {
            members.add(method.getJavaMember());
        }
        BeanMethods methods = BeanMethods.of(members);
        if (options == null && kind == null) {
            if (!methods.isEmpty()) {
                event.addDefinitionError(new IllegalStateException("@Watch, @Index and @CacheTransform methods of " + beanClass.getName()
                        + " belong on a @Controller reconciler bean"));
            }
            return;
        }
        if (options == null) {
            event.addDefinitionError(new IllegalStateException("Reconciler bean " + beanClass.getName()
                    + " must be annotated @" + Controller.class.getName() + " to run as a controller"));
        } else if (kind == null) {
            event.addDefinitionError(new IllegalStateException("@Controller bean " + beanClass.getName()
                    + " must implement " + Reconciler.class.getName() + "<T>, " + dev.mooring.api.Staged.class.getName()
                    + "<T> or " + dev.mooring.api.DesiredStateReconciler.class.getName() + "<T> with a concrete kind T"));
        } else {
            try {
                ControllerOptions.checkOneContract(beanClass, event.getBean().getTypes());
            } catch (IllegalArgumentException e) {
                event.addDefinitionError(e);
                return;
            }
            candidates.add(new Candidate(event.getBean(), beanClass, options, kind, methods));
        }
    }

    /** Each @Index method's signature, and its kind one the controller watches (the rest is checked when the engine is built). */
    private static void checkIndexes(ControllerDefinition definition, Candidate candidate) {
        List<Class<? extends KubernetesObject>> watched = dev.mooring.engine.model.CacheIndex.watchedKinds(definition,
                candidate.methods().watches());
        for (Method method : candidate.methods().indexes()) {
            Class<? extends KubernetesObject> kind = dev.mooring.engine.model.CacheIndex.indexedKind(method);
            if (!watched.contains(kind)) {
                throw new IllegalArgumentException("@Index method " + candidate.beanClass().getName() + "." + method.getName()
                        + " indexes " + kind.getSimpleName() + ", which controller " + definition.name()
                        + " does not watch; watch it as the primary kind, with @Controller(owns = ...) or a @Watch method");
            }
        }
    }

    void validate(@Observes AfterDeploymentValidation event) {
        Config config = ConfigProvider.getConfig(Thread.currentThread().getContextClassLoader());
        Map<String, Class<?>> names = new HashMap<>();
        for (Candidate candidate : candidates) {
            try {
                boolean cleans = candidate.bean().getTypes().stream().anyMatch(type -> type == dev.mooring.api.Cleanup.class
                        || type instanceof ParameterizedType parameterized && parameterized.getRawType() == dev.mooring.api.Cleanup.class);
                ControllerDefinition definition = ControllerOptions.resolve(candidate.beanClass(), candidate.options(),
                        candidate.kind(), cleans, key -> config.getOptionalValue(key, String.class));
                candidate.methods().watches().forEach(ControllerOptions::watchedKind);
                checkIndexes(definition, candidate);
                dev.mooring.engine.model.ObjectTransform.check(candidate.methods().transforms(),
                        dev.mooring.engine.model.CacheIndex.watchedKinds(definition, candidate.methods().watches()), definition.name());
                dev.mooring.engine.model.StagePlan plan = ControllerOptions.typed(candidate.bean().getTypes(), dev.mooring.api.Staged.class) == null
                        ? null : dev.mooring.engine.model.StagePlan.of(candidate.beanClass(), candidate.kind());
                Class<?> clash = names.putIfAbsent(definition.name(), candidate.beanClass());
                if (clash != null) {
                    throw new IllegalStateException("Controller name '" + definition.name() + "' is used by both "
                            + clash.getName() + " and " + candidate.beanClass().getName()
                            + "; set distinct @Controller(name = ...) values");
                }
                discovered.add(new Discovered(definition, candidate.bean(), candidate.methods(), plan));
                LOG.info(() -> "Found controller " + definition.name() + " for " + definition.kind().getSimpleName()
                        + " (" + candidate.beanClass().getName() + ")");
            } catch (RuntimeException e) {
                problems.add(e);
            }
        }
        // every declared controller's name counts, also of one whose options failed above (reported already)
        java.util.Set<String> declared = new java.util.TreeSet<>(names.keySet());
        for (Candidate candidate : candidates) {
            try {
                declared.add(ControllerOptions.nameOf(candidate.options(), candidate.kind()));
            } catch (RuntimeException e) {
                // a kind that cannot be named was reported above
            }
        }
        problems.addAll(ConfigCheck.problems(config, declared));
    }

    /**
     * What is wrong with the controllers' configuration (options, MicroProfile Config values),
     * each naming the property or the method. Not deployment problems: the application deploys,
     * starts nothing and reports them as a failed start, so that liveness says what is wrong
     * (a failed deployment had no health checks and answered liveness UP).
     */
    public List<RuntimeException> problems() {
        return List.copyOf(problems);
    }

    /** The validated controllers of this deployment, in discovery order. */
    public List<Discovered> discovered() {
        return List.copyOf(discovered);
    }
}
