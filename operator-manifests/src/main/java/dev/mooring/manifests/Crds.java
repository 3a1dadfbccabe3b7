package dev.mooring.manifests;

import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.PrinterColumn;
import dev.mooring.api.crd.ScaleSubresource;
import dev.mooring.engine.kube.Kinds;
import dev.mooring.engine.kube.ResourceType;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CustomResourceDefinitions ({@code apiextensions.k8s.io/v1}) from {@link CustomResource}
 * classes, offline. Classes of one group and kind with different versions make one CRD with a
 * version each; with several versions exactly one class says {@code storage = true}. Each
 * version's schema is {@link CrdSchema#of}; a class with a {@code status} field gets the status
 * subresource, one with {@link ScaleSubresource} the scale subresource. The output is deterministic: CRDs by name, versions by class order, properties in
 * field order.
 */
public final class Crds {

    private Crds() {
    }

    /**
     * The CRDs of these classes; classes without {@code @CustomResource} are skipped.
     *
     * @throws IllegalArgumentException naming the classes, when two define one version twice,
     *     disagree on names or scope, or do not name exactly one storage version; or naming the
     *     class and field that has no schema
     */
    public static List<JsonObject> of(List<Class<?>> classes) {
        Map<String, List<Class<?>>> byCrd = new LinkedHashMap<>();
        for (Class<?> type : classes) {
            CustomResource resource = type.getAnnotation(CustomResource.class);
            if (resource != null) {
                if (resource.group().isBlank() || !resource.group().contains(".")) {
                    throw new IllegalArgumentException("@CustomResource on " + type.getName() + " has group '" + resource.group()
                            + "': a custom resource's group is a domain with a dot, such as example.com");
                }
                byCrd.computeIfAbsent(plural(type) + "." + resource.group(), name -> new ArrayList<>()).add(type);
            }
        }
        List<JsonObject> crds = new ArrayList<>();
        byCrd.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> crds.add(crd(entry.getKey(), entry.getValue())));
        return crds;
    }

    private static JsonObject crd(String name, List<Class<?>> versions) {
        Class<?> first = versions.get(0);
        CustomResource resource = first.getAnnotation(CustomResource.class);
        String kind = kind(first);
        for (Class<?> other : versions.subList(1, versions.size())) {
            CustomResource annotation = other.getAnnotation(CustomResource.class);
            if (!kind(other).equals(kind) || annotation.clusterScoped() != resource.clusterScoped()) {
                throw new IllegalArgumentException("CRD " + name + " is defined differently by " + first.getName() + " and "
                        + other.getName() + " (kind and scope must agree)");
            }
        }
        List<Class<?>> storage = versions.stream().filter(type -> type.getAnnotation(CustomResource.class).storage()).toList();
        if (versions.size() > 1 && storage.size() != 1) {
            throw new IllegalArgumentException("CRD " + name + " has versions " + versions.stream().map(Class::getName).toList()
                    + ": exactly one must be @CustomResource(storage = true), " + (storage.isEmpty() ? "none is"
                            : storage.stream().map(Class::getName).toList() + " are"));
        }
        JsonArrayBuilder served = Json.createArrayBuilder();
        Map<String, Class<?>> seen = new LinkedHashMap<>();
        for (Class<?> type : versions) {
            CustomResource annotation = type.getAnnotation(CustomResource.class);
            Class<?> clash = seen.putIfAbsent(annotation.version(), type);
            if (clash != null) {
                throw new IllegalArgumentException("CRD " + name + " version " + annotation.version() + " is defined by both "
                        + clash.getName() + " and " + type.getName());
            }
            served.add(version(type, annotation, versions.size() == 1 || annotation.storage()));
        }
        JsonObjectBuilder names = Json.createObjectBuilder().add("kind", kind).add("listKind", kind + "List")
                .add("plural", plural(first))
                .add("singular", resource.singular().isEmpty() ? kind.toLowerCase(Locale.ROOT) : resource.singular());
        if (resource.shortNames().length > 0) {
            names.add("shortNames", strings(resource.shortNames()));
        }
        if (resource.categories().length > 0) {
            names.add("categories", strings(resource.categories()));
        }
        return Json.createObjectBuilder().add("apiVersion", "apiextensions.k8s.io/v1").add("kind", "CustomResourceDefinition")
                .add("metadata", Json.createObjectBuilder().add("name", name))
                .add("spec", Json.createObjectBuilder().add("group", resource.group()).add("names", names)
                        .add("scope", resource.clusterScoped() ? "Cluster" : "Namespaced").add("versions", served))
                .build();
    }

    private static JsonObject version(Class<?> type, CustomResource annotation, boolean storage) {
        JsonObject schema = CrdSchema.of(type);
        if (schema.containsKey("required") && schema.getJsonArray("required").stream()
                .anyMatch(name -> name instanceof jakarta.json.JsonString text && text.getString().equals("status"))) {
            throw new IllegalArgumentException(type.getName() + ".status is required (a Bean Validation constraint), but no"
                    + " object has a status when it is created: the controller writes it afterwards; remove the constraint");
        }
        JsonObjectBuilder version = Json.createObjectBuilder().add("name", annotation.version()).add("served", true)
                .add("storage", storage)
                .add("schema", Json.createObjectBuilder().add("openAPIV3Schema", schema));
        JsonObjectBuilder subresources = Json.createObjectBuilder();
        boolean anySubresource = false;
        if (CrdSchema.fields(type).stream().anyMatch(field -> CrdSchema.serializedName(field).equals("status"))) {
            subresources.add("status", JsonObject.EMPTY_JSON_OBJECT);
            anySubresource = true;
        }
        ScaleSubresource scale = type.getAnnotation(ScaleSubresource.class);
        if (scale != null) {
            for (String path : new String[] {scale.specReplicasPath(), scale.statusReplicasPath()}) {
                if (!path.startsWith(".")) {
                    throw new IllegalArgumentException(type.getName() + ": @ScaleSubresource paths are JSON paths such as"
                            + " .spec.replicas, not '" + path + "'");
                }
            }
            JsonObjectBuilder scaling = Json.createObjectBuilder().add("specReplicasPath", scale.specReplicasPath())
                    .add("statusReplicasPath", scale.statusReplicasPath());
            if (!scale.labelSelectorPath().isEmpty()) {
                scaling.add("labelSelectorPath", scale.labelSelectorPath());
            }
            subresources.add("scale", scaling);
            anySubresource = true;
        }
        if (anySubresource) {
            version.add("subresources", subresources);
        }
        PrinterColumn[] columns = type.getAnnotationsByType(PrinterColumn.class);
        if (columns.length > 0) {
            JsonArrayBuilder printed = Json.createArrayBuilder();
            for (PrinterColumn column : columns) {
                JsonObjectBuilder printedColumn = Json.createObjectBuilder().add("name", column.name()).add("type", column.type())
                        .add("jsonPath", column.jsonPath());
                if (!column.description().isEmpty()) {
                    printedColumn.add("description", column.description());
                }
                if (column.priority() != 0) {
                    printedColumn.add("priority", column.priority());
                }
                printed.add(printedColumn);
            }
            version.add("additionalPrinterColumns", printed);
        }
        return version.build();
    }

    private static JsonArrayBuilder strings(String[] values) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (String value : values) {
            array.add(value);
        }
        return array;
    }

    /** Group, version, kind, plural and scope as the runtime derives them from {@code @CustomResource}. */
    @SuppressWarnings("unchecked")
    private static ResourceType<?> coordinates(Class<?> type) {
        if (!io.kubernetes.client.common.KubernetesObject.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(type.getName() + " is a @CustomResource but does not implement KubernetesObject");
        }
        return Kinds.offline().resolve((Class<? extends io.kubernetes.client.common.KubernetesObject>) type);
    }

    private static String kind(Class<?> type) {
        return coordinates(type).kind();
    }

    private static String plural(Class<?> type) {
        return coordinates(type).plural();
    }
}
