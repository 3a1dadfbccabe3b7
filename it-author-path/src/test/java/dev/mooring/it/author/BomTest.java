package dev.mooring.it.author;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The BOM has no parent (see its pom), so its versions are written out: they must be those
 * Mooring is built and tested with.
 */
class BomTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();

    @Test
    void theBomNamesTheVersionsMooringIsBuiltWith() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        Document bom = read(ROOT.resolve("mooring-bom/pom.xml"));
        String version = text(parent, "/project/version");
        assertEquals(version, text(bom, "/project/version"), "the BOM's version");
        for (String artifact : new String[] {"operator-api", "mooring-runtime", "mooring-test", "operator-manifests"}) {
            assertEquals(version, managed(bom, artifact), artifact + " in the BOM");
        }
        Map<String, String> properties = Map.of("client-java", "client-java.version", "jakarta.jakartaee-api", "jakartaee.version",
                "microprofile-config-api", "mp-config.version", "arquillian-liberty-managed-jakarta", "arquillian-liberty.version",
                "arquillian-bom", "arquillian.version");
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            assertEquals(text(parent, "/project/properties/" + entry.getValue()), managed(bom, entry.getKey()),
                    entry.getKey() + " in the BOM");
        }
    }

    private static Document read(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    private static String text(Document document, String path) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(path, document).trim();
    }

    private static String managed(Document bom, String artifactId) throws Exception {
        return text(bom, "/project/dependencyManagement/dependencies/dependency[artifactId='" + artifactId + "']/version");
    }
}
