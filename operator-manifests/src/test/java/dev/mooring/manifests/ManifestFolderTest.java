package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manifests folder is read only within itself, from regular files of bounded size, each document checked. */
class ManifestFolderTest {

    private static final String CONFIG_MAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: ops\n";

    @TempDir
    Path parent;

    private Path folder(String... resources) throws IOException {
        Path folder = Files.createDirectories(parent.resolve("manifests"));
        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n" + String.join("", java.util.Arrays.stream(resources)
                .map(resource -> "  - " + resource + "\n").toList()));
        return folder;
    }

    @Test
    void theListedFilesAreReadInOrder() throws Exception {
        Path folder = folder("b.yaml", "sub/a.yaml");
        Files.writeString(folder.resolve("b.yaml"), CONFIG_MAP.replace("name: a", "name: b") + "---\n" + CONFIG_MAP.replace("name: a", "name: c"));
        Files.createDirectories(folder.resolve("sub"));
        Files.writeString(folder.resolve("sub/a.yaml"), CONFIG_MAP);
        List<JsonObject> objects = ManifestFolder.read(folder);
        assertEquals(List.of("b", "c", "a"), objects.stream().map(o -> o.getAsJsonObject("metadata").get("name").getAsString()).toList());
    }

    @Test
    void theKustomizationsVarsAreResolvedAsKustomizeDoesAndAWrongOneIsNamed() throws Exception {
        Path folder = folder("a.yaml");
        Files.writeString(folder.resolve("a.yaml"), "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: op\n  namespace: ops\n---\n"
                + CONFIG_MAP.replace("name: a", "name: $(NAME).$(WHERE)"));
        String vars = "vars:\n  - name: NAME\n    objref: {apiVersion: v1, kind: ServiceAccount, name: op}\n"
                + "  - name: WHERE\n    objref: {apiVersion: v1, kind: ServiceAccount, name: op}\n    fieldref: {fieldpath: metadata.namespace}\n";
        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n  - a.yaml\n" + vars);
        assertEquals("op.ops", ManifestFolder.read(folder).get(1).getAsJsonObject("metadata").get("name").getAsString(),
                "NAME defaults to metadata.name, as in kustomize");

        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n  - a.yaml\n" + vars.replace("metadata.namespace", "spec.x"));
        IllegalArgumentException field = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder));
        assertTrue(field.getMessage().endsWith("var WHERE reads spec.x; only metadata.name and metadata.namespace are resolved here"),
                field.getMessage());
        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n  - a.yaml\n" + vars.replace("name: op}", "name: other}"));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder));
        assertTrue(missing.getMessage().endsWith("var NAME refers to ServiceAccount other (metadata.name), which no listed file holds"),
                missing.getMessage());
        // a hostile folder: a long value times many placeholders would multiply a file's size
        String longName = "n".repeat(300);
        Files.writeString(folder.resolve("a.yaml"), "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: " + longName
                + "\n  namespace: ops\n");
        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n  - a.yaml\n" + vars.replace("name: op}", "name: " + longName + "}"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder)).getMessage()
                .endsWith("var NAME resolves to a value of 300 characters; a Kubernetes name has at most 253"));
        String name = "m".repeat(250);
        Files.writeString(folder.resolve("a.yaml"), "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: " + name
                + "\n  namespace: ops\n---\n" + CONFIG_MAP.replace("name: a", "name: a") + "# " + "$(NAME)".repeat(40_000) + "\n");
        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n  - a.yaml\n" + vars.replace("name: op}", "name: " + name + "}"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder)).getMessage()
                .endsWith("a.yaml: its variables resolved would make it larger than " + ManifestFolder.MAX_FILE_BYTES + " bytes"));
        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n  - a.yaml\nvars: {name: X}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder)).getMessage().endsWith("vars is not a list"));
        Files.writeString(folder.resolve("kustomization.yaml"), "resources:\n  - a.yaml\nvars:\n  - name: \"$(X)\"\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder)).getMessage()
                .contains("a var needs a name and an objref with kind and name"));
    }

    @Test
    void pathsOutsideTheFolderAreRefused() throws Exception {
        Files.writeString(parent.resolve("outside.yaml"), CONFIG_MAP);
        for (String escape : List.of("../outside.yaml", "sub/../../outside.yaml", parent.resolve("outside.yaml").toString(),
                "https://example.com/x.yaml")) {
            Path folder = folder(escape);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder), escape);
            assertTrue(refused.getMessage().startsWith(escape) && (refused.getMessage().contains("outside the manifests folder")
                    || refused.getMessage().contains("not URLs")), refused.getMessage());
        }
        // a link inside the folder that leads out of it
        Path folder = folder("link.yaml");
        Files.createSymbolicLink(folder.resolve("link.yaml"), parent.resolve("outside.yaml"));
        IllegalArgumentException linked = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder));
        assertTrue(linked.getMessage().contains("link.yaml is outside the manifests folder") && linked.getMessage().contains("links to"),
                linked.getMessage());
    }

    @Test
    void onlyRegularFilesAreRead() throws Exception {
        Path folder = folder("fifo.yaml");
        Process mkfifo = new ProcessBuilder("mkfifo", folder.resolve("fifo.yaml").toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor());
        IllegalArgumentException fifo = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder)), "a FIFO blocks no read");
        assertEquals("fifo.yaml is not a regular file", fifo.getMessage());
        Path zero = folder("zero.yaml");
        Files.createSymbolicLink(zero.resolve("zero.yaml"), Path.of("/dev/zero"));
        IllegalArgumentException device = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(zero));
        assertTrue(device.getMessage().startsWith("zero.yaml is outside the manifests folder"), device.getMessage());
        Path directory = folder("sub");
        Files.createDirectories(directory.resolve("sub"));
        assertEquals("sub is not a regular file but a folder",
                assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(directory)).getMessage());
    }

    @Test
    void aDeviceInsideTheFolderIsNotRead() throws Exception {
        // /dev is its own folder: a manifests folder there may list a device by its plain name
        Path dev = Path.of("/dev");
        IllegalArgumentException zero = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(IllegalArgumentException.class, () -> ManifestFolder.text(dev.toRealPath(), "zero")));
        assertEquals("zero is not a regular file", zero.getMessage());
    }

    @Test
    void aFileOverTheSizeLimitIsRefusedBeforeItIsParsed() throws Exception {
        Path folder = folder("big.yaml");
        StringBuilder big = new StringBuilder(ManifestFolder.MAX_FILE_BYTES + 100);
        while (big.length() <= ManifestFolder.MAX_FILE_BYTES) {
            big.append("# a comment line of the manifest that makes it larger than allowed\n");
        }
        Files.writeString(folder.resolve("big.yaml"), big);
        long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder));
        assertEquals("big.yaml is larger than " + ManifestFolder.MAX_FILE_BYTES + " bytes", refused.getMessage());
        long used = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
        assertTrue(used < Duration.ofSeconds(1).toNanos(), "refused on its size, without parsing: " + used / 1e6 + " ms of CPU");
        Files.writeString(folder.resolve("big.yaml"), "#".repeat(ManifestFolder.MAX_FILE_BYTES - 1) + "\n");
        assertEquals(ManifestFolder.MAX_FILE_BYTES, Files.size(folder.resolve("big.yaml")));
        assertEquals(ManifestFolder.MAX_FILE_BYTES, ManifestFolder.text(folder, "big.yaml").length(), "a file of exactly the limit is read");
    }

    @Test
    void tooManyDocumentsAreRefused() throws Exception {
        Path folder = folder("many.yaml");
        Files.writeString(folder.resolve("many.yaml"), ("---\n" + CONFIG_MAP).repeat(ManifestFolder.MAX_DOCUMENTS));
        assertEquals(ManifestFolder.MAX_DOCUMENTS, ManifestFolder.read(folder).size(), "the most documents a file may hold");
        Files.writeString(folder.resolve("many.yaml"), ("---\n" + CONFIG_MAP).repeat(ManifestFolder.MAX_DOCUMENTS + 1));
        assertEquals("many.yaml holds more than " + ManifestFolder.MAX_DOCUMENTS + " YAML documents",
                assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder)).getMessage());
    }

    @Test
    void everyDocumentIsCheckedNamingTheFileAndDocument() throws Exception {
        Path folder = folder("ok.yaml", "bad.yaml");
        Files.writeString(folder.resolve("ok.yaml"), CONFIG_MAP);
        String[][] cases = {
            {CONFIG_MAP.replace("name: a", "name: ../../secrets/x"), "bad.yaml, document 2: metadata.name '../../secrets/x'"},
            {CONFIG_MAP.replace("namespace: ops", "namespace: ../x"), "bad.yaml, document 2: metadata.namespace '../x'"},
            {CONFIG_MAP.replace("apiVersion: v1", "apiVersion: ../v1"), "bad.yaml, document 2: apiVersion's group '..'"},
            {CONFIG_MAP.replace("kind: ConfigMap", "kind: 12"), "bad.yaml, document 2 has no kind string"},
            {CONFIG_MAP.replace("  name: a\n", ""), "bad.yaml, document 2 has no metadata.name string"},
            {"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: Not_A_Label\n", "bad.yaml, document 2: metadata.name 'Not_A_Label'"},
            {"- a list\n", "bad.yaml, document 2 is not a Kubernetes object"},
        };
        for (String[] bad : cases) {
            Files.writeString(folder.resolve("bad.yaml"), CONFIG_MAP + "---\n" + bad[0]);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(folder), bad[0]);
            assertTrue(refused.getMessage().startsWith(bad[1]), refused.getMessage());
        }
    }

    @Test
    void oneFileIsReadWithTheSameChecks() throws Exception {
        Path file = Files.writeString(parent.resolve("extra.yaml"), CONFIG_MAP + "---\n" + CONFIG_MAP.replace("name: a", "name: b"));
        assertEquals(List.of("a", "b"), ManifestFolder.readFile(file).stream()
                .map(object -> object.getAsJsonObject("metadata").get("name").getAsString()).toList());
        Path bad = Files.writeString(parent.resolve("bad.yaml"), "kind: ConfigMap\nmetadata: {name: a}\n");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.readFile(bad));
        assertTrue(refused.getMessage().contains("bad.yaml, document 1"), refused.getMessage());
        IOException missing = assertThrows(IOException.class, () -> ManifestFolder.readFile(parent.resolve("none.yaml")));
        assertTrue(missing.getMessage().contains("none.yaml does not exist"), missing.getMessage());
        Path folderItself = Files.createDirectories(parent.resolve("a-folder.yaml"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ManifestFolder.readFile(folderItself)).getMessage()
                .contains("not a regular file"));
    }

    @Test
    void aFolderWithoutKustomizationIsNamed() throws Exception {
        Path empty = Files.createDirectories(parent.resolve("empty"));
        IOException missing = assertThrows(IOException.class, () -> ManifestFolder.read(empty));
        assertTrue(missing.getMessage().contains("has no kustomization.yaml"), missing.getMessage());
    }
}
