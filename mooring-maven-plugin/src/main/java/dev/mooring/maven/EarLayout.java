package dev.mooring.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where each file goes in an operator's EAR: Mooring's EJB module and web module at the top
 * (the web module at context root {@code /}), every library in {@code lib/} under
 * {@code groupId-artifactId-version.jar}, and an {@code application.xml} that names them.
 * Mooring's libraries win over the author's of the same {@code groupId:artifactId}: the runtime
 * is tested with its own versions.
 */
final class EarLayout {

    /** A file to place: its coordinates and where it is on disk. */
    record Part(String groupId, String artifactId, String version, String extension, Path file) {
        Part {
            Objects.requireNonNull(file, () -> groupId + ":" + artifactId + " has no file");
        }

        String key() {
            return groupId + ":" + artifactId;
        }
    }

    /**
     * The module's own code (a jar or a classes folder) must be a bean archive: Mooring's server
     * discovers CDI beans only in archives with a {@code META-INF/beans.xml} (implicit bean
     * archives are off, so that Liberty does not scan every library at each start).
     *
     * @throws IllegalArgumentException naming the archive and the fix, when it has none
     */
    static void requireBeansXml(Path code, String artifactId) {
        boolean present;
        if (java.nio.file.Files.isDirectory(code)) {
            present = java.nio.file.Files.isRegularFile(code.resolve("META-INF/beans.xml"));
        } else {
            try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(code.toFile())) {
                present = jar.getEntry("META-INF/beans.xml") != null;
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException(code + " cannot be read as a jar: " + e.getMessage(), e);
            }
        }
        if (!present) {
            throw new IllegalArgumentException(artifactId + " (" + code + ") has no META-INF/beans.xml: Mooring's server finds"
                    + " reconcilers and admission beans only in archives that have one (implicit bean archives are off). Add"
                    + " src/main/resources/META-INF/beans.xml, for example <beans xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                    + " version=\"4.0\" bean-discovery-mode=\"annotated\"/>");
        }
    }

    static final String EJB_MODULE = "operator-ejb.jar";
    static final String WEB_MODULE = "operator-web.war";

    private final Map<String, Path> entries = new LinkedHashMap<>();
    private final List<String> replaced = new ArrayList<>();
    private final String displayName;

    /**
     * @param displayName the application's display name
     * @param runtime Mooring's runtime: {@code operator-ejb}, {@code operator-web} (a war) and libraries
     * @param author the author's own jar and its runtime libraries
     * @throws IllegalArgumentException when the runtime lacks its EJB or web module
     */
    EarLayout(String displayName, List<Part> runtime, List<Part> author) {
        this.displayName = displayName;
        Map<String, Part> libraries = new LinkedHashMap<>();
        for (Part part : runtime) {
            if (part.artifactId().equals("operator-ejb") && part.groupId().equals("dev.mooring")) {
                entries.put(EJB_MODULE, part.file());
            } else if (part.extension().equals("war")) {
                entries.put(WEB_MODULE, part.file());
            } else if (part.extension().equals("jar")) {
                libraries.put(part.key(), part);
            }
        }
        if (!entries.containsKey(EJB_MODULE) || !entries.containsKey(WEB_MODULE)) {
            throw new IllegalArgumentException("Mooring's runtime resolved without " + (entries.containsKey(EJB_MODULE)
                    ? "its web module (operator-web)" : "its EJB module (operator-ejb)"));
        }
        for (Part part : author) {
            Part mooring = libraries.get(part.key());
            if (mooring == null) {
                libraries.put(part.key(), part);
            } else if (!mooring.version().equals(part.version())) {
                replaced.add(part.key() + ":" + part.version() + " (Mooring's runtime uses " + mooring.version() + ")");
            }
        }
        for (Part part : libraries.values()) {
            entries.put("lib/" + part.groupId() + "-" + part.artifactId() + "-" + part.version() + ".jar", part.file());
        }
    }

    /** The EAR's entries (path in the EAR → file), modules first. */
    Map<String, Path> entries() {
        return Map.copyOf(entries);
    }

    /** The author's libraries left out because Mooring's runtime has another version of them. */
    List<String> replaced() {
        return List.copyOf(replaced);
    }

    /** The deployment descriptor. */
    String applicationXml() {
        return String.join("\n",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<application xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                        + " xsi:schemaLocation=\"https://jakarta.ee/xml/ns/jakartaee"
                        + " https://jakarta.ee/xml/ns/jakartaee/application_10.xsd\" version=\"10\">",
                "  <display-name>" + xml(displayName) + "</display-name>",
                "  <module>",
                "    <ejb>" + EJB_MODULE + "</ejb>",
                "  </module>",
                "  <module>",
                "    <web>",
                "      <web-uri>" + WEB_MODULE + "</web-uri>",
                "      <context-root>/</context-root>",
                "    </web>",
                "  </module>",
                "  <library-directory>lib</library-directory>",
                "</application>",
                "");
    }

    /**
     * Liberty's loose application configuration of this layout: the same EAR, read in place —
     * a folder (such as {@code target/classes}) as a library archive. Liberty restarts the
     * application when a file under such a folder changes.
     *
     * @param applicationXml where {@link #applicationXml()} was written
     */
    String looseXml(Path applicationXml) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<archive>\n");
        xml.append("  <file targetInArchive=\"/META-INF/application.xml\" sourceOnDisk=\"").append(xml(applicationXml.toString()))
                .append("\"/>\n");
        for (Map.Entry<String, Path> entry : new java.util.TreeMap<>(entries).entrySet()) {
            String target = "/" + entry.getKey();
            String source = xml(entry.getValue().toAbsolutePath().toString());
            if (java.nio.file.Files.isDirectory(entry.getValue())) {
                xml.append("  <archive targetInArchive=\"").append(target).append("\">\n")
                        .append("    <dir targetInArchive=\"/\" sourceOnDisk=\"").append(source).append("\"/>\n")
                        .append("  </archive>\n");
            } else {
                xml.append("  <file targetInArchive=\"").append(target).append("\" sourceOnDisk=\"").append(source).append("\"/>\n");
            }
        }
        return xml.append("</archive>\n").toString();
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
