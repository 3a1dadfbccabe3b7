package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.RbacRule;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What generation refuses, naming the class and what is wrong, before any manifest is written. */
class GenerationRefusalsTest {

    @CustomResource(group = "", version = "v1")
    static class NoGroup extends CustomObject {
    }

    @CustomResource(group = "example.com", version = "v1")
    static class RequiredStatus extends CustomObject {
        @NotNull
        Status status;

        static class Status {
            String phase;
        }
    }

    @CustomResource(group = "example.com", version = "v1")
    static class JobLike extends io.kubernetes.client.openapi.models.V1Job {
    }

    @RbacRule(resources = "configmaps", verbs = {"get", "create"}, resourceNames = "settings")
    static class CreateByName {
    }

    @RbacRule(resources = "configmaps", verbs = {"get", "list", "watch"}, resourceNames = "settings")
    static class ReadByName {
    }

    @Test
    void aCustomResourceWithoutAGroup() {
        assertEquals("@CustomResource on " + NoGroup.class.getName() + " has group '': a custom resource's group is a domain"
                + " with a dot, such as example.com", assertThrows(IllegalArgumentException.class, () -> Crds.of(List.of(NoGroup.class)))
                .getMessage());
    }

    @Test
    void aRequiredStatus() {
        assertEquals(RequiredStatus.class.getName() + ".status is required (a Bean Validation constraint), but no object has a status"
                + " when it is created: the controller writes it afterwards; remove the constraint",
                assertThrows(IllegalArgumentException.class, () -> Crds.of(List.of(RequiredStatus.class))).getMessage());
    }

    @Test
    void resourceNamesWithVerbsKubernetesCannotRestrictByName() {
        Rbac.Settings settings = Rbac.Settings.builder("op", "operators").build();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Rbac.of(List.of(CreateByName.class), settings));
        assertEquals("@RbacRule on " + CreateByName.class.getName() + " names resources [settings] for [create]: Kubernetes"
                + " ignores resource names for those verbs (a create has no name yet, a deletecollection addresses the whole"
                + " collection), so the rule would grant them on every object; give them in a rule without resourceNames",
                refused.getMessage());
        Rbac.of(List.of(ReadByName.class), settings); // a list and watch of one name is how a watch by name is authorized
    }

    @Test
    void aCustomResourceThatExtendsAClientJavaModel() {
        String message = assertThrows(IllegalArgumentException.class, () -> Crds.of(List.of(JobLike.class))).getMessage();
        org.junit.jupiter.api.Assertions.assertTrue(message.startsWith("@CustomResource " + JobLike.class.getName()
                + " extends the client-java model V1Job"), message);
    }
}
