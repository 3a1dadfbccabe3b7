package dev.mooring.it;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

/** EARs for the container tests: Mooring's EAR (mooring.it.ear) with an operator module of the test's own in lib/. */
final class Ears {

    /** beans.xml of a module whose beans are discovered by their annotations. */
    static final StringAsset ANNOTATED_BEANS = new StringAsset("<beans xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\""
            + " bean-discovery-mode=\"annotated\"/>");

    private Ears() {
    }

    /** Mooring's EAR as built. */
    static EnterpriseArchive mooring() {
        return ShrinkWrap.createFromZipFile(EnterpriseArchive.class, new File(System.getProperty("mooring.it.ear")));
    }

    /** Mooring's EAR, named {@code name}, with {@code module} as a library. */
    static EnterpriseArchive withLibrary(String name, JavaArchive module) {
        return ShrinkWrap.create(EnterpriseArchive.class, name).merge(mooring()).addAsLibrary(module);
    }

    /** {@code ear} with {@code war} as one more web module, at {@code contextRoot}. */
    static EnterpriseArchive withWebModule(EnterpriseArchive ear, org.jboss.shrinkwrap.api.spec.WebArchive war, String contextRoot)
            throws java.io.IOException {
        String applicationXml;
        try (java.io.InputStream in = ear.get("META-INF/application.xml").getAsset().openStream()) {
            applicationXml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String module = "  <module>\n    <web>\n      <web-uri>" + war.getName() + "</web-uri>\n      <context-root>" + contextRoot
                + "</context-root>\n    </web>\n  </module>\n  <library-directory>";
        return ear.addAsModule(war).setApplicationXML(new StringAsset(applicationXml.replace("<library-directory>", module)));
    }

    /**
     * Mooring's EAR with a module of {@code packageOf}'s package (annotated beans, operator
     * namespace {@code namespace}) in lib/, written to {@code dir/name} for a server outside
     * Arquillian.
     */
    static java.nio.file.Path exportWithPackage(java.nio.file.Path dir, String name, Class<?> packageOf, String namespace)
            throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir);
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, name.replace(".ear", ".jar"))
                .addPackage(packageOf.getPackage())
                .addAsManifestResource(ANNOTATED_BEANS, "beans.xml")
                .addAsManifestResource(new StringAsset("mooring.namespace=" + namespace + "\n"), "microprofile-config.properties");
        java.nio.file.Path ear = dir.resolve(name);
        withLibrary(name, module).as(org.jboss.shrinkwrap.api.exporter.ZipExporter.class).exportTo(ear.toFile(), true);
        return ear;
    }
}
