package dev.mooring.api.admission;

import io.kubernetes.client.common.KubernetesObject;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a CDI bean as a mutating admission webhook for the kind of its
 * {@link AdmissionRequest} parameter. The method returns the edited object (the request's
 * object is a copy the method may edit and return), or {@code null} for no change; Mooring
 * answers with the JSON Patch from the object the API server sent to the returned one, so
 * fields the model class does not know are kept. {@link AdmissionDenied} rejects the request.
 *
 * <pre>{@code
 * @Mutating
 * V1Deployment defaultTeam(AdmissionRequest<V1Deployment> request) {
 *     V1Deployment deployment = request.object();
 *     deployment.getMetadata().putLabelsItem("team", "platform");
 *     return deployment;
 * }
 * }</pre>
 *
 * <p>The served path defaults to {@code /mutate/<group with . as />/<version>/<plural>/<method>}.
 * Operations are CREATE and UPDATE by default; DELETE and CONNECT have no object to mutate and
 * are refused when the application deploys. Mutating webhooks are registered with
 * {@code reinvocationPolicy: Never}. Callbacks must not have side effects.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Mutating {

    /** The operations to admit: CREATE and UPDATE by default, only these two are allowed. */
    Operation[] operations() default {Operation.CREATE, Operation.UPDATE};

    /** A subresource such as {@code scale} or {@code status}; the main resource by default. */
    String subresource() default "";

    /**
     * The kind whose subresource is admitted, when the request carries another kind: a
     * mutator of {@code AdmissionRequest<V1Scale>} with {@code subresource = "scale"} and
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
