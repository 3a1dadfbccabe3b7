package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Pins the API group of a client-java model class (one named like {@code V1Certificate}, such as
 * client-java's generator makes from a CRD). Without it the group is found through discovery: the
 * core group first, then the groups in the API server's order that serve the model's version and
 * kind; when several do, the first is used and a warning names them all. A
 * {@link CustomResource} names its group already.
 *
 * <pre>{@code
 * @ApiGroup("cert-manager.io")
 * public class V1Certificate implements KubernetesObject { ... }
 * }</pre>
 *
 * <p>When the pinned group does not serve the kind, resolution fails naming the group, as for any
 * kind the API server does not serve.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ApiGroup {

    /** The group, such as {@code cert-manager.io}; {@code ""} for the core group. */
    String value();
}
