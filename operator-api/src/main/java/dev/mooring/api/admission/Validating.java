package dev.mooring.api.admission;

import io.kubernetes.client.common.KubernetesObject;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a CDI bean as a validating admission webhook for the kind of its
 * {@link AdmissionRequest} parameter. The method returns {@code void} to allow the request, or
 * throws {@link AdmissionDenied} to reject it; any other exception rejects it with a generic
 * message (the exception is logged, not shown to the user).
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class DeploymentPolicy {
 *     @Validating
 *     void requireTeam(AdmissionRequest<V1Deployment> request) throws AdmissionDenied {
 *         if (request.object().getMetadata().getLabels() == null
 *                 || !request.object().getMetadata().getLabels().containsKey("team")) {
 *             throw new AdmissionDenied("every Deployment needs a team label");
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>The served path defaults to {@code /validate/<group with . as />/<version>/<plural>/<method>}
 * (the method name in lower case, words separated by {@code -}). Options are checked when the
 * application deploys; a wrong one fails the deployment with a message naming the method.
 * Callbacks must not have side effects: the request may be a dry run, or be rejected later.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Validating {

    /** The operations to admit; CREATE and UPDATE by default. CONNECT needs a {@link #subresource()}. */
    Operation[] operations() default {Operation.CREATE, Operation.UPDATE};

    /** A subresource such as {@code scale} or {@code status}; the main resource by default. */
    String subresource() default "";

    /**
     * The kind whose subresource is admitted, when the request carries another kind: a
     * validator of {@code AdmissionRequest<V1Scale>} with {@code subresource = "scale"} and
     * {@code target = V1Deployment.class} admits {@code deployments/scale}. Requires
     * {@link #subresource()}. By default the request's own kind.
     */
    Class<? extends KubernetesObject> target() default KubernetesObject.class;

    /** The plural resource name, when it cannot be derived from the kind (irregular plurals). */
    String resource() default "";

    /**
     * A label selector on namespaces, such as {@code "team=blue"} or
     * {@code "kubernetes.io/metadata.name in (a,b)"}. By default the webhook follows the
     * namespaces of the controller of the kind, or the operator namespace when there is none;
     * cluster-scoped kinds are matched everywhere.
     */
    String namespaceSelector() default "";

    /** The API server's timeout for this webhook, 1–30 seconds; the webhook also stops waiting then. */
    int timeoutSeconds() default 5;

    /** What the API server does when the webhook cannot answer. */
    FailurePolicy failurePolicy() default FailurePolicy.FAIL;

    /** The served path, overriding the default; lowercase letters, digits, {@code / . -}. */
    String path() default "";
}
