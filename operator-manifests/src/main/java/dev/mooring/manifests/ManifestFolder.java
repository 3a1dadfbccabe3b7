package dev.mooring.manifests;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads a manifests folder as {@code mooring:manifests} writes it: the files its
 * {@code kustomization.yaml} lists under {@code resources}, in that order. The folder may come from
 * a pipeline, so what it says is not trusted:
 * <ul>
 * <li>a listed path must stay inside the folder, also after symbolic links are followed (kustomize
 * refuses {@code ../x.yaml} too); URLs, absolute paths and folders are refused;</li>
 * <li>every file read, the kustomization included, must be a regular file (a FIFO would block the
 * read for ever, a device such as {@code /dev/zero} never ends) of at most {@link #MAX_FILE_BYTES};</li>
 * <li>a file holds at most {@link #MAX_DOCUMENTS} YAML documents, read with SnakeYAML's safe
 * constructor and its limits (aliases, nesting, code points);</li>
 * <li>every document is a Kubernetes object whose names follow Kubernetes' rules
 * ({@link ManifestObjects}).</li>
 * </ul>
 * Each refusal names the file and what is wrong, before anything is applied.
 */
public final class ManifestFolder {

    /** The largest file read: 8 MiB (a CRD is at most about 1.5 MiB, the API server's object limit). */
    public static final int MAX_FILE_BYTES = 8 * 1024 * 1024;

    /** The most YAML documents in one file. */
    public static final int MAX_DOCUMENTS = 1000;

    private ManifestFolder() {
    }

    /**
     * The objects of the folder, in the order of its {@code kustomization.yaml}, its {@code vars}
     * resolved as kustomize resolves them without an overlay.
     *
     * @throws IOException when the folder, its kustomization or a listed file cannot be read
     * @throws IllegalArgumentException naming the file, for a listed path outside the folder, a file
     *     that is not a regular file or is too large, or YAML that is not a list of Kubernetes objects
     */
    public static List<JsonObject> read(Path folder) throws IOException {
        Path root = folder.toRealPath();
        Path kustomization = root.resolve("kustomization.yaml");
        if (!Files.exists(kustomization, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(folder + " has no kustomization.yaml: give the folder mooring:manifests wrote (target/manifests)");
        }
        Object listing = yaml().load(text(root, "kustomization.yaml"));
        if (!(listing instanceof Map<?, ?> map) || !(map.get("resources") instanceof List<?> resources)) {
            throw new IllegalArgumentException(kustomization + " lists no resources");
        }
        List<String> files = new ArrayList<>();
        for (Object resource : resources) {
            if (!(resource instanceof String file) || file.isBlank()) {
                throw new IllegalArgumentException(kustomization + " lists a resource that is not a file name: " + resource);
            }
            files.add(file);
        }
        Map<String, String> texts = new java.util.LinkedHashMap<>();
        for (String file : files) {
            texts.put(file, text(root, file));
        }
        Map<String, String> variables = variables(map.get("vars"), texts, kustomization);
        List<JsonObject> objects = new ArrayList<>();
        for (String file : files) {
            String text = texts.get(file);
            for (Map.Entry<String, String> variable : variables.entrySet()) {
                String placeholder = "$(" + variable.getKey() + ")";
                long grown = (long) occurrences(text, placeholder) * Math.max(0, variable.getValue().length() - placeholder.length());
                if (text.length() + grown > MAX_FILE_BYTES) {
                    throw new IllegalArgumentException(file + ": its variables resolved would make it larger than " + MAX_FILE_BYTES + " bytes");
                }
                text = text.replace(placeholder, variable.getValue());
            }
            objects.addAll(documents(text, file));
        }
        return objects;
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    /**
     * The values of the kustomization's {@code vars}, as kustomize resolves them: each names an
     * object of the listed files by kind and name, and its {@code metadata.name} or
     * {@code metadata.namespace} (what {@code mooring:manifests} declares).
     *
     * @throws IllegalArgumentException naming the kustomization and the variable, for one of another
     *     shape, another field, or an object no listed file holds
     */
    private static Map<String, String> variables(Object declared, Map<String, String> texts, Path kustomization) {
        Map<String, String> values = new java.util.LinkedHashMap<>();
        if (declared == null) {
            return values;
        }
        if (!(declared instanceof List<?> list)) {
            throw new IllegalArgumentException(kustomization + ": vars is not a list");
        }
        for (Object entry : list) {
            String name = entry instanceof Map<?, ?> variable && variable.get("name") instanceof String text ? text : null;
            Map<?, ?> reference = entry instanceof Map<?, ?> variable && variable.get("objref") instanceof Map<?, ?> objref ? objref : null;
            Object field = entry instanceof Map<?, ?> variable && variable.get("fieldref") instanceof Map<?, ?> fieldref
                    ? fieldref.get("fieldpath") : "metadata.name";
            if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]*") || reference == null || !(reference.get("kind") instanceof String kind)
                    || !(reference.get("name") instanceof String objectName)) {
                throw new IllegalArgumentException(kustomization + ": a var needs a name and an objref with kind and name: " + entry);
            }
            if (!"metadata.name".equals(field) && !"metadata.namespace".equals(field)) {
                throw new IllegalArgumentException(kustomization + ": var " + name + " reads " + field
                        + "; only metadata.name and metadata.namespace are resolved here");
            }
            String value = texts.values().stream().flatMap(text -> java.util.stream.StreamSupport.stream(yaml().loadAll(text).spliterator(), false))
                    .filter(document -> document instanceof Map<?, ?> object && kind.equals(object.get("kind"))
                            && object.get("metadata") instanceof Map<?, ?> metadata && objectName.equals(metadata.get("name")))
                    .map(document -> ((Map<?, ?>) ((Map<?, ?>) document).get("metadata")).get(field.equals("metadata.name") ? "name" : "namespace"))
                    .filter(String.class::isInstance).map(String.class::cast).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(kustomization + ": var " + name + " refers to " + kind + " " + objectName
                            + " (" + field + "), which no listed file holds"));
            if (value.length() > 253) {
                throw new IllegalArgumentException(kustomization + ": var " + name + " resolves to a value of " + value.length()
                        + " characters; a Kubernetes name has at most 253");
            }
            values.put(name, value);
        }
        return values;
    }

    /**
     * The objects of one YAML file, with the limits and checks of a folder's files (a test's
     * extra manifests, for example).
     *
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException naming the file, for one that is not a regular file or is
     *     too large, or YAML that is not a list of Kubernetes objects
     */
    public static List<JsonObject> readFile(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        if (absolute.getFileName() == null || !Files.exists(absolute)) {
            throw new IOException(file + " does not exist");
        }
        return documents(text(absolute.getParent().toRealPath(), absolute.getFileName().toString()), file.toString());
    }

    private static List<JsonObject> documents(String text, String file) {
        Gson gson = new Gson();
        List<JsonObject> objects = new ArrayList<>();
        int document = 0;
        for (Object loaded : yaml().loadAll(text)) {
            document++;
            if (document > MAX_DOCUMENTS) {
                throw new IllegalArgumentException(file + " holds more than " + MAX_DOCUMENTS + " YAML documents");
            }
            if (loaded == null) {
                continue;
            }
            var json = gson.toJsonTree(loaded);
            ManifestObjects.check(json, file + ", document " + document);
            objects.add(json.getAsJsonObject());
        }
        return objects;
    }

    /**
     * The text of {@code file}, a path relative to {@code root}, read only if it is a regular file
     * inside {@code root} of at most {@link #MAX_FILE_BYTES}.
     */
    static String text(Path root, String file) throws IOException {
        if (file.contains("://")) {
            throw new IllegalArgumentException(file + ": only files of the manifests folder are read, not URLs");
        }
        Path given = Path.of(file);
        if (given.isAbsolute() || !root.resolve(given).normalize().startsWith(root)) {
            throw new IllegalArgumentException(file + " is outside the manifests folder " + root);
        }
        Path path = root.resolve(given);
        if (!Files.exists(path)) {
            throw new IOException(file + " is listed in kustomization.yaml but does not exist in " + root);
        }
        Path real = path.toRealPath();
        if (!real.startsWith(root)) {
            throw new IllegalArgumentException(file + " is outside the manifests folder " + root + ": it links to " + real);
        }
        // the type is checked before the file is opened: opening a FIFO blocks until someone writes to it
        BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IllegalArgumentException(file + " is not a regular file" + (attributes.isDirectory() ? " but a folder" : ""));
        }
        if (attributes.size() > MAX_FILE_BYTES) {
            throw new IllegalArgumentException(file + " is larger than " + MAX_FILE_BYTES + " bytes");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(real)) {
            // the size again, as read: the file may have grown since its attributes were read
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new IllegalArgumentException(file + " is larger than " + MAX_FILE_BYTES + " bytes");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(file + " is not UTF-8 text", e);
        }
    }

    private static Yaml yaml() {
        return new Yaml(new SafeConstructor(new LoaderOptions()));
    }
}
