package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.FailurePolicy;
import dev.mooring.api.admission.Mutating;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Scale;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionRoutesTest {

    static class Policies {
        @Validating
        void requireTeam(AdmissionRequest<V1Deployment> request) {
        }

        @Mutating(timeoutSeconds = 10, failurePolicy = FailurePolicy.IGNORE)
        V1Pod default_Sidecar(AdmissionRequest<V1Pod> request) {
            return null;
        }

        @Validating(target = V1Deployment.class, subresource = "scale", operations = Operation.UPDATE)
        void limitReplicas(AdmissionRequest<V1Scale> request) {
        }

        @Validating(operations = {Operation.CREATE, Operation.UPDATE, Operation.DELETE}, namespaceSelector = "team in (a,b)")
        void checkSpec(AdmissionRequest<Widget> request) {
        }

        @Validating(path = "/custom/namespaces")
        void namespaces(AdmissionRequest<V1Namespace> request) {
        }

        @Validating(operations = Operation.CONNECT, target = V1Pod.class, subresource = "exec")
        void noExec(AdmissionRequest<DynamicKubernetesObject> request) {
        }

        void unrelated() {
        }
    }

    @Test
    void pathsAreDerivedFromGroupVersionPluralAndMethodName() {
        List<AdmissionRoute> routes = AdmissionRoutes.of(Policies.class);
        assertEquals(List.of("/validate/example/com/v1/widgets/check-spec", "/mutate/core/v1/pods/default-sidecar",
                "/validate/apps/v1/deployments/limit-replicas", "/custom/namespaces", "/validate/core/v1/pods/no-exec",
                "/validate/apps/v1/deployments/require-team"), routes.stream().map(AdmissionRoute::path).toList());
    }

    @Test
    void optionsAndDefaultsAreCarriedByTheRoute() {
        List<AdmissionRoute> routes = AdmissionRoutes.of(Policies.class);
        AdmissionRoute require = route(routes, "requireTeam");
        assertEquals(List.of(Operation.CREATE, Operation.UPDATE), require.rule().operations());
        assertEquals(5, require.call().timeoutSeconds());
        assertEquals(FailurePolicy.FAIL, require.call().failurePolicy());
        assertEquals("deployments", require.rule().resource());
        assertNull(require.call().namespaceSelector());
        AdmissionRoute sidecar = route(routes, "default_Sidecar");
        assertTrue(sidecar.mutating());
        assertEquals(10, sidecar.call().timeoutSeconds());
        assertEquals(FailurePolicy.IGNORE, sidecar.call().failurePolicy());
        AdmissionRoute scale = route(routes, "limitReplicas");
        assertEquals("deployments/scale", scale.rule().resource());
        assertEquals("autoscaling", scale.requestKind().group());
        assertEquals("Scale", scale.requestKind().kind());
        assertEquals("apps", scale.rule().target().group());
        AdmissionRoute widget = route(routes, "checkSpec");
        assertEquals("widgets", widget.rule().plural());
        assertEquals("In", widget.call().namespaceSelector().getMatchExpressions().get(0).getOperator());
        assertEquals(List.of("a", "b"), widget.call().namespaceSelector().getMatchExpressions().get(0).getValues());
        AdmissionRoute exec = route(routes, "noExec");
        assertNull(exec.requestKind());
        assertEquals("pods/exec", exec.rule().resource());
    }

    @Test
    void methodNamesBecomeKebabCase() {
        assertEquals("limit-replicas", AdmissionRoutes.kebab("limitReplicas"));
        assertEquals("check-spec", AdmissionRoutes.kebab("check_spec"));
        assertEquals("v2-check", AdmissionRoutes.kebab("v2Check"));
        assertEquals("handler", AdmissionRoutes.kebab("__"));
    }

    static class TimeoutTooLong {
        @Validating(timeoutSeconds = 31)
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class TimeoutZero {
        @Validating(timeoutSeconds = 0)
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class TargetWithoutSubresource {
        @Validating(target = V1Deployment.class)
        void check(AdmissionRequest<V1Scale> request) {
        }
    }

    static class MutatingDelete {
        @Mutating(operations = Operation.DELETE)
        V1ConfigMap change(AdmissionRequest<V1ConfigMap> request) {
            return null;
        }
    }

    static class ConnectWithoutSubresource {
        @Validating(operations = Operation.CONNECT)
        void check(AdmissionRequest<V1Pod> request) {
        }
    }

    static class DuplicateOperations {
        @Validating(operations = {Operation.CREATE, Operation.CREATE})
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class NoOperations {
        @Validating(operations = {})
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class BadPath {
        @Validating(path = "/Validate/x?y=1")
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class ReservedPath {
        @Validating(path = "/health/ready")
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class BadResource {
        @Validating(resource = "Config_Maps")
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class ChecksOnly {
        @Validating
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class DefaultsOnly {
        @dev.mooring.api.admission.Mutating
        V1ConfigMap label(AdmissionRequest<V1ConfigMap> request) {
            return request.object();
        }
    }

    static class NoAdmission {
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    @Test
    void aClassDeclaresAdmissionWithAValidatingOrAMutatingMethod() {
        assertTrue(AdmissionRoutes.declares(ChecksOnly.class));
        assertTrue(AdmissionRoutes.declares(DefaultsOnly.class));
        org.junit.jupiter.api.Assertions.assertFalse(AdmissionRoutes.declares(NoAdmission.class));
    }

    static class LongestResource {
        @Validating(resource = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr") // 63 characters: a DNS label's most
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class TooLongResource {
        @Validating(resource = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr") // 64
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class BadSubresource {
        @Validating(subresource = "Scale")
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class BadSelector {
        @Validating(namespaceSelector = "team in a,b")
        void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class PrivateMethod {
        @Validating
        private void check(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class WrongParameter {
        @Validating
        void check(V1ConfigMap object) {
        }
    }

    static class ValidatorReturnsValue {
        @Validating
        boolean check(AdmissionRequest<V1ConfigMap> request) {
            return true;
        }
    }

    static class MutatorReturnsOtherKind {
        @Mutating
        V1Pod change(AdmissionRequest<V1ConfigMap> request) {
            return null;
        }
    }

    static class ScaleWithoutTarget {
        @Validating(subresource = "scale")
        void check(AdmissionRequest<V1Scale> request) {
        }
    }

    static class Both {
        @Validating
        @Mutating
        V1ConfigMap check(AdmissionRequest<V1ConfigMap> request) {
            return null;
        }
    }

    @Test
    void wrongOptionsAreRefusedWithTheMethodAndTheProblem() {
        assertProblem(TimeoutTooLong.class, "timeoutSeconds must be an integer between 1 and 30, not 31");
        assertProblem(TimeoutZero.class, "timeoutSeconds must be an integer between 1 and 30, not 0");
        assertProblem(TargetWithoutSubresource.class, "requires subresource");
        assertProblem(MutatingDelete.class, "CREATE and UPDATE only");
        assertProblem(ConnectWithoutSubresource.class, "CONNECT, which only exists for subresources");
        assertProblem(DuplicateOperations.class, "operations must be unique");
        assertProblem(NoOperations.class, "operations must not be empty");
        assertProblem(BadPath.class, "path '/Validate/x?y=1' must be an absolute path");
        assertProblem(ReservedPath.class, "is under /health");
        assertProblem(BadResource.class, "resource 'Config_Maps' must be the exact lowercase Kubernetes resource plural");
        assertProblem(TooLongResource.class, "must be the exact lowercase Kubernetes resource plural");
        assertEquals(1, AdmissionRoutes.of(LongestResource.class).size());
        assertProblem(BadSubresource.class, "subresource 'Scale' must be an exact lowercase subresource name");
        assertProblem(BadSelector.class, "namespaceSelector: Invalid label selector");
        assertProblem(PrivateMethod.class, "non-private instance method");
        assertProblem(WrongParameter.class, "must take one parameter AdmissionRequest<T>");
        assertProblem(ValidatorReturnsValue.class, "a @Validating method returns void");
        assertProblem(MutatorReturnsOtherKind.class, "must return the edited object: V1ConfigMap, not V1Pod");
        assertProblem(ScaleWithoutTarget.class, "Scale is not served as a resource of its own");
        assertProblem(Both.class, "both @Validating and @Mutating");
    }

    static class Clash {
        @Validating(path = "/same")
        void one(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class OtherClash {
        @Validating(path = "/same")
        void two(AdmissionRequest<V1Pod> request) {
        }
    }

    @Test
    void twoMethodsOnOnePathAreRefused() {
        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
                () -> AdmissionRoutes.of(List.of(Clash.class, OtherClash.class)));
        assertTrue(clash.getMessage().contains("Clash.one and OtherClash.two are both served at /same"), clash.getMessage());
    }

    private static void assertProblem(Class<?> beanClass, String expected) {
        IllegalArgumentException problem = assertThrows(IllegalArgumentException.class, () -> AdmissionRoutes.of(beanClass));
        assertTrue(problem.getMessage().contains(beanClass.getName() + "."), problem.getMessage());
        assertTrue(problem.getMessage().contains(expected), problem.getMessage());
    }

    static AdmissionRoute route(List<AdmissionRoute> routes, String method) {
        return routes.stream().filter(route -> route.method().getName().equals(method)).findFirst().orElseThrow();
    }
}
