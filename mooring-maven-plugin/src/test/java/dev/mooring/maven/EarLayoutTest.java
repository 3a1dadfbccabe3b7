package dev.mooring.maven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EarLayoutTest {

    @TempDir
    Path dir;

    private EarLayout.Part part(String group, String artifact, String version, String extension) throws Exception {
        Path file = dir.resolve(group + "." + artifact + "-" + version + "." + extension);
        Files.writeString(file, group + ":" + artifact + ":" + version);
        return new EarLayout.Part(group, artifact, version, extension, file);
    }

    private List<EarLayout.Part> runtime() throws Exception {
        return List.of(part("dev.mooring", "operator-ejb", "1", "jar"), part("dev.mooring", "operator-web", "1", "war"),
                part("dev.mooring", "operator-api", "1", "jar"), part("io.kubernetes", "client-java", "27.0.0", "jar"));
    }

    @Test
    void modulesAtTheTopLibrariesInLibMooringsVersionsWin() throws Exception {
        EarLayout layout = new EarLayout("bucket-operator", runtime(), List.of(part("com.example", "bucket-operator", "1.0", "jar"),
                part("io.kubernetes", "client-java", "26.0.0", "jar"), part("dev.mooring", "operator-api", "1", "jar"),
                part("org.example", "helper", "2", "jar")));
        assertEquals(List.of("lib/com.example-bucket-operator-1.0.jar", "lib/dev.mooring-operator-api-1.jar",
                "lib/io.kubernetes-client-java-27.0.0.jar", "lib/org.example-helper-2.jar", "operator-ejb.jar", "operator-web.war"),
                layout.entries().keySet().stream().sorted().toList());
        assertEquals(List.of("io.kubernetes:client-java:26.0.0 (Mooring's runtime uses 27.0.0)"), layout.replaced());
        String xml = layout.applicationXml();
        assertTrue(xml.contains("<display-name>bucket-operator</display-name>") && xml.contains("<ejb>operator-ejb.jar</ejb>")
                && xml.contains("<web-uri>operator-web.war</web-uri>") && xml.contains("<context-root>/</context-root>")
                && xml.contains("<library-directory>lib</library-directory>"), xml);
    }

    @Test
    void aRuntimeWithoutItsModulesIsAnError() throws Exception {
        List<EarLayout.Part> withoutWeb = runtime().stream().filter(part -> !part.extension().equals("war")).toList();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new EarLayout("x", withoutWeb, List.of()));
        assertTrue(e.getMessage().contains("operator-web"), e.getMessage());
    }

    @Test
    void theSameInputGivesTheSameFile() throws Exception {
        EarLayout layout = new EarLayout("x", runtime(), List.of(part("com.example", "x", "1", "jar")));
        Path first = dir.resolve("first.ear");
        Path second = dir.resolve("second.ear");
        EarMojo.write(layout, first);
        Thread.sleep(1100);
        EarMojo.write(layout, second);
        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second));
        try (ZipFile zip = new ZipFile(first.toFile())) {
            assertEquals("dev.mooring:operator-ejb:1", new String(zip.getInputStream(zip.getEntry("operator-ejb.jar")).readAllBytes()));
            assertTrue(zip.getEntry("META-INF/application.xml") != null);
        }
    }

    @Test
    void theServerConfigurationIsWrittenBesideTheEar() throws Exception {
        EarMojo.writeLibertyConfig(dir.resolve("liberty/config"));
        for (String name : EarMojo.LIBERTY_CONFIG) {
            assertTrue(Files.size(dir.resolve("liberty/config").resolve(name)) > 0, name);
        }
        assertTrue(Files.readString(dir.resolve("liberty/config/server.xml")).contains("<feature>cdi-4.0</feature>"));
    }

    /** Implicit bean archives are off in Mooring's server: the module's code without a beans.xml is refused, by name. */
    @Test
    void theModulesCodeMustCarryABeansXml() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes/META-INF"));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> EarLayout.requireBeansXml(dir.resolve("classes"), "bucket-operator"));
        assertTrue(missing.getMessage().startsWith("bucket-operator (" + dir.resolve("classes") + ") has no META-INF/beans.xml"),
                missing.getMessage());
        Files.writeString(classes.resolve("beans.xml"), "<beans/>");
        EarLayout.requireBeansXml(dir.resolve("classes"), "bucket-operator");

        Path jar = dir.resolve("bucket-operator.jar");
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.zip.ZipEntry("com/example/Bucket.class"));
            out.closeEntry();
        }
        assertThrows(IllegalArgumentException.class, () -> EarLayout.requireBeansXml(jar, "bucket-operator"));
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.zip.ZipEntry("META-INF/beans.xml"));
            out.closeEntry();
        }
        EarLayout.requireBeansXml(jar, "bucket-operator");
    }
}
