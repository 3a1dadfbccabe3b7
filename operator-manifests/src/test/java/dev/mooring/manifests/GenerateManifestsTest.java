package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line: the YAML of the classes named; a class that is no custom resource, or an unknown option, is named. */
class GenerateManifestsTest {

    @Test
    void printsTheCrdsOfTheClassesNamed() throws Exception {
        String yaml = GenerateManifests.generate(List.of(Gadget.class.getName(), "java.lang.String")).crds();
        assertTrue(yaml.contains("name: gadgets.example.com"), yaml);
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> GenerateManifests.generate(List.of("java.lang.String")));
        assertTrue(none.getMessage().contains("is a @CustomResource"), none.getMessage());
        String rbac = GenerateManifests.generate(List.of("--name", "widgets", "--namespace", "operators",
                dev.mooring.examples.snippets.WidgetController.class.getName())).rbac();
        assertTrue(rbac.contains("kind: Role\n") && rbac.contains("namespace: operators"), rbac);
        IllegalArgumentException half = assertThrows(IllegalArgumentException.class,
                () -> GenerateManifests.generate(List.of("--name", "widgets", Gadget.class.getName())));
        assertTrue(half.getMessage().contains("--name and --namespace go together"), half.getMessage());
        IllegalArgumentException option = assertThrows(IllegalArgumentException.class,
                () -> GenerateManifests.generate(List.of("--image", "x")));
        assertTrue(option.getMessage().contains("unknown option --image"), option.getMessage());
    }
}
