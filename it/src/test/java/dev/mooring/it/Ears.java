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
}
