package dev.mooring.runtime;

import dev.mooring.api.admission.AdmissionCache;
import dev.mooring.engine.admission.AdmissionRoute;
import dev.mooring.engine.admission.AdmissionRoutes;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Finds the beans with {@code @Validating} and {@code @Mutating} methods when the application
 * deploys and validates their routes; a wrong option or two methods on one path fail the
 * deployment with a message naming the method.
 */
public class AdmissionExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(AdmissionExtension.class.getName());

    /**
     * An admission bean.
     *
     * @param bean the bean
     * @param routes its routes
     * @param cached the kinds it reads through per-replica caches
     */
    public record Policy(Bean<?> bean, List<AdmissionRoute> routes, List<Class<? extends KubernetesObject>> cached) {
    }

    private final List<Policy> policies = new ArrayList<>();
    private final List<RuntimeException> problems = new ArrayList<>();

    <T> void onBean(@Observes ProcessManagedBean<T> event) {
        Class<?> beanClass = event.getAnnotatedBeanClass().getJavaClass();
        AdmissionCache cache = beanClass.getAnnotation(AdmissionCache.class);
        if (!AdmissionRoutes.declares(beanClass)) {
            if (cache != null) {
                event.addDefinitionError(new IllegalStateException("@AdmissionCache on " + beanClass.getName()
                        + " needs @Validating or @Mutating methods on the same bean"));
            }
            return;
        }
        try {
            List<AdmissionRoute> routes = AdmissionRoutes.of(beanClass);
            policies.add(new Policy(event.getBean(), routes, cache == null ? List.of() : List.of(cache.value())));
        } catch (RuntimeException e) {
            event.addDefinitionError(e);
        }
    }

    void validate(@Observes AfterDeploymentValidation event) {
        if (policies.isEmpty()) {
            return;
        }
        org.eclipse.microprofile.config.Config config = org.eclipse.microprofile.config.ConfigProvider.getConfig(
                Thread.currentThread().getContextClassLoader());
        // the port and the pool are parsed for every deployment (ConfigCheck); client-auth needs its CA file here
        try {
            MooringConfig.webhookClientAuth(config);
        } catch (RuntimeException e) {
            problems.add(e);
        }
        try {
            AdmissionRoutes.requireUniquePaths(routes());
            routes().forEach(route -> LOG.info(() -> "Found admission webhook " + route.describe() + " at " + route.path()
                    + " for " + route.rule().resource() + " " + route.rule().operations()));
        } catch (RuntimeException e) {
            problems.add(e);
        }
    }

    /** What is wrong with the webhooks' configuration, reported as a failed start (as {@link ReconcilerExtension#problems()}). */
    public List<RuntimeException> problems() {
        return List.copyOf(problems);
    }

    /** The admission beans of this deployment, in discovery order. */
    public List<Policy> policies() {
        return List.copyOf(policies);
    }

    /** Every route, in discovery order. */
    public List<AdmissionRoute> routes() {
        return policies.stream().flatMap(policy -> policy.routes().stream()).toList();
    }
}
