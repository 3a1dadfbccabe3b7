package dev.mooring.api;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Kubernetes objects read from YAML or JSON text into typed models: a template kept beside the
 * code ({@code deployment.yaml}), a manifest a test applies, an object from a ConfigMap.
 *
 * <pre>{@code
 * V1Deployment template = Manifests.parse(text, V1Deployment.class);
 * List<KubernetesObject> objects = Manifests.readAll(Path.of("install.yaml"), KubernetesObject.class);
 * }</pre>
 *
 * <p>Every document must be a Kubernetes object: a mapping with {@code apiVersion} and
 * {@code kind}, of the model asked for. The model is a client-java model ({@code V1Deployment}),
 * a {@link CustomResource} class, {@link DynamicKubernetesObject} for any kind, or
 * {@link KubernetesObject} itself, which gives a {@code DynamicKubernetesObject}. A client-java
 * model is matched by the version and kind its name encodes ({@code V1beta1CronJob}: {@code v1beta1},
 * {@code CronJob}), a custom resource by its annotation's group, version and kind.
 *
 * <p>Documents are read with SnakeYAML's safe constructor (no Java types from tags); timestamps
 * stay text, as client-java's models expect them; a key given twice is an error. JSON is read as
 * YAML. Empty documents ({@code ---} alone, or only comments) are skipped.
 *
 * <p>Every problem is an {@link IllegalArgumentException} whose message names the source and the
 * document (counted from 1) and says what is wrong, but holds no value of the document, which may
 * be a Secret's.
 */
public final class Manifests {

    private static final Pattern MODEL_NAME = Pattern.compile("^(?:[A-Z][a-z]+)?(V\\d+(?:(?:alpha|beta)\\d+)?)([A-Z]\\w*)$");

    private Manifests() {
    }

    /**
     * The one object that {@code text} holds.
     *
     * @throws IllegalArgumentException when the text holds no document ("Empty YAML document"),
     *     more than one ("Multiple YAML documents"), a document without apiVersion or kind
     *     ("Missing apiVersion or kind"), one of another kind than {@code model}, one that does not
     *     fit it, or is not YAML
     */
    public static <T extends KubernetesObject> T parse(String text, Class<T> model) {
        return one(parseAll(text, model), "the text");
    }

    /**
     * Every object that {@code text} holds, in order.
     *
     * @throws IllegalArgumentException when the text holds no document, or for a document as
     *     {@link #parse(String, Class)} says
     */
    public static <T extends KubernetesObject> List<T> parseAll(String text, Class<T> model) {
        return objects(text, model, "the text");
    }

    /**
     * The one object that the UTF-8 file {@code file} holds; as {@link #parse(String, Class)}, the
     * messages naming the file.
     *
     * @throws IOException when the file cannot be read
     */
    public static <T extends KubernetesObject> T read(Path file, Class<T> model) throws IOException {
        return one(readAll(file, model), file.toString());
    }

    /**
     * Every object that the UTF-8 file {@code file} holds, in order; as
     * {@link #parseAll(String, Class)}, the messages naming the file.
     *
     * @throws IOException when the file cannot be read
     */
    public static <T extends KubernetesObject> List<T> readAll(Path file, Class<T> model) throws IOException {
        return objects(Files.readString(file), model, file.toString());
    }

    private static <T> T one(List<T> objects, String source) {
        if (objects.size() > 1) {
            throw new IllegalArgumentException("Multiple YAML documents in " + source + " (" + objects.size()
                    + "), where one object was asked for: read them with parseAll or readAll");
        }
        return objects.get(0);
    }

    private static <T extends KubernetesObject> List<T> objects(String text, Class<T> model, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(model, "model");
        List<T> objects = new ArrayList<>();
        int document = 0;
        if (text.isBlank()) {
            throw new IllegalArgumentException("Empty YAML document: " + source + " holds no object");
        }
        try {
            for (Object loaded : yaml().loadAll(text)) {
                document++;
                if (loaded != null) {
                    objects.add(object(loaded, model, "document " + document + " of " + source));
                }
            }
        } catch (MarkedYAMLException e) {
            var mark = e.getProblemMark();
            throw new IllegalArgumentException("Failed to parse YAML in " + source + ": " + e.getProblem()
                    + (mark == null ? "" : " (line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ")"));
        } catch (YAMLException e) {
            throw new IllegalArgumentException("Failed to parse YAML in " + source + ": " + e.getClass().getSimpleName());
        }
        if (objects.isEmpty()) {
            throw new IllegalArgumentException("Empty YAML document: " + source + " holds no object");
        }
        return objects;
    }

    private static <T extends KubernetesObject> T object(Object loaded, Class<T> model, String where) {
        JsonElement tree = new Gson().toJsonTree(loaded);
        if (!tree.isJsonObject()) {
            throw new IllegalArgumentException(where + " is " + (tree.isJsonArray() ? "a list" : "a single value")
                    + ", not a Kubernetes object");
        }
        JsonObject json = tree.getAsJsonObject();
        String apiVersion = text(json, "apiVersion");
        String kind = text(json, "kind");
        if (apiVersion == null || kind == null) {
            throw new IllegalArgumentException("Missing apiVersion or kind in " + where);
        }
        if (model == KubernetesObject.class || model == DynamicKubernetesObject.class) {
            return model.cast(new DynamicKubernetesObject(json));
        }
        checkKind(apiVersion, kind, model, where);
        try {
            return JSON.getGson().fromJson(json, model);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + " does not fit " + model.getSimpleName() + ": " + decodeFailure(e));
        }
    }

    private static final Pattern FIELD = Pattern.compile("field `([^`]{1,63})`");

    /**
     * What is wrong with a JSON document that a model cannot decode, without any of its values:
     * client-java's and Gson's messages quote the document or the offending value, which may be a
     * Secret's. Names the field when the message does.
     *
     * @param e what client-java's JSON threw while reading the document
     * @return such as "required field 'template' is missing", "unknown field 'x'", "field 'replicas'
     *     has the wrong type" or "a value of the wrong type or format (NumberFormatException)"
     */
    public static String decodeFailure(RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        var field = FIELD.matcher(message);
        String name = field.find() ? field.group(1).replaceAll("[^\\w.\\-/]", "?") : null;
        if (name != null && message.contains("is not defined")) {
            return "unknown field '" + name + "'";
        }
        if (name != null && message.contains("required field")) {
            return "required field '" + name + "' is missing";
        }
        if (name != null) {
            return "field '" + name + "' has the wrong type";
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return "a value of the wrong type or format (" + root.getClass().getSimpleName() + ")";
    }

    private static void checkKind(String apiVersion, String kind, Class<?> model, String where) {
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        CustomResource custom = model.getAnnotation(CustomResource.class);
        boolean matches;
        String expected;
        if (custom != null) {
            String customKind = custom.kind().isEmpty() ? model.getSimpleName() : custom.kind();
            matches = group.equals(custom.group()) && version.equals(custom.version()) && kind.equals(customKind);
            expected = custom.group() + "/" + custom.version() + " " + customKind;
        } else {
            var name = MODEL_NAME.matcher(model.getSimpleName());
            if (!name.matches()) {
                throw new IllegalArgumentException(model.getName() + " is neither a @CustomResource nor named like a client-java"
                        + " model of a Kubernetes kind (such as V1ConfigMap)");
            }
            matches = version.equals(name.group(1).toLowerCase(Locale.ROOT)) && kind.equals(name.group(2));
            expected = name.group(1).toLowerCase(Locale.ROOT) + " " + name.group(2);
        }
        if (!matches) {
            throw new IllegalArgumentException(where + " is " + apiVersion + " " + kind + ", not the " + expected + " of "
                    + model.getSimpleName());
        }
    }

    private static String text(JsonObject json, String member) {
        JsonElement value = json.get(member);
        return value != null && value.isJsonPrimitive() && !value.getAsString().isBlank() ? value.getAsString() : null;
    }

    /**
     * SnakeYAML's safe constructor, duplicate keys refused, and a resolver without the timestamp
     * rule: client-java's models read times from text, and a {@code java.util.Date} would reach
     * them as an object.
     */
    private static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Resolver resolver = new Resolver() {
            @Override
            public void addImplicitResolver(Tag tag, Pattern regexp, String first, int limit) {
                if (!Tag.TIMESTAMP.equals(tag)) {
                    super.addImplicitResolver(tag, regexp, first, limit);
                }
            }
        };
        var dumper = new org.yaml.snakeyaml.DumperOptions();
        return new Yaml(new SafeConstructor(options), new Representer(dumper), dumper, options, resolver);
    }
}
