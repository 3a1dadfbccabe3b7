package dev.mooring.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The custom resource's {@code scale} subresource, so that {@code kubectl scale} and the
 * HorizontalPodAutoscaler work on it: where its desired and observed replicas, and optionally
 * its label selector, are.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ScaleSubresource {

    /** The JSON path of the desired replicas, such as {@code .spec.replicas}. */
    String specReplicasPath() default ".spec.replicas";

    /** The JSON path of the observed replicas, such as {@code .status.replicas}. */
    String statusReplicasPath() default ".status.replicas";

    /** The JSON path of the label selector (a string, for the HorizontalPodAutoscaler); none by default. */
    String labelSelectorPath() default "";
}
