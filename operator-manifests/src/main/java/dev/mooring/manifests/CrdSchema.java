package dev.mooring.manifests;

import com.google.gson.annotations.SerializedName;
import dev.mooring.api.crd.Default;
import dev.mooring.api.crd.Description;
import dev.mooring.api.crd.IntOrString;
import dev.mooring.api.crd.ListType;
import dev.mooring.api.crd.PreserveUnknownFields;
import dev.mooring.api.crd.Validation;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.io.StringReader;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAPI v3 schema of a custom resource class, as client-java's JSON (Gson) writes and reads
 * it: the non-static, non-transient fields of the class and its superclasses, named by
 * {@code @SerializedName} where present. The schema is structural, as the API server requires:
 * every object declares its properties, or preserves unknown fields.
 *
 * <table>
 * <caption>Java types and their schemas</caption>
 * <tr><td>String, char</td><td>string</td></tr>
 * <tr><td>boolean</td><td>boolean</td></tr>
 * <tr><td>int, short, byte (int32), long, BigInteger (int64)</td><td>integer</td></tr>
 * <tr><td>float, double, BigDecimal</td><td>number</td></tr>
 * <tr><td>an enum</td><td>string with the constants' serialized names as {@code enum}</td></tr>
 * <tr><td>OffsetDateTime</td><td>string, format date-time</td></tr>
 * <tr><td>client-java's IntOrString and Quantity</td><td>{@code x-kubernetes-int-or-string}</td></tr>
 * <tr><td>List, Collection, array</td><td>array of the element's schema; a Set is a {@code set} list</td></tr>
 * <tr><td>Map with String keys</td><td>object with {@code additionalProperties}</td></tr>
 * <tr><td>V1ObjectMeta</td><td>at the top, {@code type: object} (the API server owns its schema);
 * nested, an object that preserves unknown fields</td></tr>
 * <tr><td>any other class (client-java models included)</td><td>object of its fields; a client-java model's
 * required fields (its {@code openapiRequiredFields}) stay required</td></tr>
 * </table>
 *
 * Jakarta Bean Validation constraints on fields become {@code required}, bounds, lengths, sizes
 * and patterns; Mooring's annotations in {@code dev.mooring.api.crd} add the rest. What cannot
 * be represented (a raw Object, a map whose keys are not strings, a recursive type without
 * {@link PreserveUnknownFields}, a constraint on a type it does not apply to) fails with an
 * {@link IllegalArgumentException} naming the class and field.
 */
public final class CrdSchema {

    private final Deque<Class<?>> path = new ArrayDeque<>();

    private CrdSchema() {
    }

    /** The {@code openAPIV3Schema} of a custom resource class (apiVersion, kind, metadata and its fields). */
    public static JsonObject of(Class<?> resource) {
        return new CrdSchema().object(resource, resource.getName(), true);
    }

    private JsonObject object(Class<?> type, String where, boolean root) {
        if (path.contains(type)) {
            throw new IllegalArgumentException(where + ": " + type.getName() + " contains itself; mark the field"
                    + " @PreserveUnknownFields to store it without a schema");
        }
        path.push(type);
        try {
            JsonObjectBuilder schema = Json.createObjectBuilder().add("type", "object");
            describe(schema, type.getAnnotation(Description.class));
            if (type.isAnnotationPresent(PreserveUnknownFields.class)) {
                schema.add("x-kubernetes-preserve-unknown-fields", true);
            }
            JsonObjectBuilder properties = Json.createObjectBuilder();
            JsonArrayBuilder required = Json.createArrayBuilder();
            boolean anyRequired = false;
            boolean anyProperty = false;
            Set<String> modelRequired = clientJavaRequired(type);
            for (Field field : fields(type)) {
                String name = serializedName(field);
                String at = type.getName() + "." + field.getName();
                JsonObject property = root && name.equals("metadata") && field.getType() == V1ObjectMeta.class
                        ? Json.createObjectBuilder().add("type", "object").build()
                        : field(field, at);
                properties.add(name, property);
                anyProperty = true;
                if (field.isAnnotationPresent(NotNull.class) || field.isAnnotationPresent(NotEmpty.class)
                        || field.isAnnotationPresent(NotBlank.class) || modelRequired.contains(name)) {
                    required.add(name);
                    anyRequired = true;
                }
            }
            if (anyProperty) {
                schema.add("properties", properties);
            } else if (!type.isAnnotationPresent(PreserveUnknownFields.class)) {
                schema.add("x-kubernetes-preserve-unknown-fields", true); // an object without fields keeps what it gets
            }
            if (anyRequired) {
                schema.add("required", required);
            }
            validations(schema, type.getAnnotationsByType(Validation.class));
            return schema.build();
        } finally {
            path.pop();
        }
    }

    private JsonObject field(Field field, String where) {
        JsonObjectBuilder schema;
        if (field.isAnnotationPresent(PreserveUnknownFields.class)) {
            schema = Json.createObjectBuilder().add("x-kubernetes-preserve-unknown-fields", true);
            if (!isRaw(field.getType())) {
                schema.add("type", "object");
            }
        } else if (field.isAnnotationPresent(IntOrString.class)) {
            if (field.getType() != String.class) {
                throw new IllegalArgumentException(where + ": @IntOrString applies to String fields, not " + field.getType().getName());
            }
            schema = Json.createObjectBuilder().add("x-kubernetes-int-or-string", true);
        } else {
            schema = Json.createObjectBuilder(type(field.getGenericType(), where));
        }
        describe(schema, field.getAnnotation(Description.class));
        listType(schema, field, where);
        constraints(schema, field, where);
        Default value = field.getAnnotation(Default.class);
        if (value != null) {
            try {
                schema.add("default", Json.createReader(new StringReader(value.value())).readValue());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(where + ": @Default(\"" + value.value() + "\") is not JSON");
            }
        }
        validations(schema, field.getAnnotationsByType(Validation.class));
        JsonObject built = schema.build();
        checkListMapKeys(built, where);
        return built;
    }

    /** The package of client-java's generated models, whose classes list their required fields. */
    private static final String CLIENT_JAVA_MODELS = "io.kubernetes.client.openapi.models";

    /**
     * The JSON names of the fields a client-java model requires, from its generated {@code
     * openapiRequiredFields} (Kubernetes' own OpenAPI): a {@code V1Condition} in a CRD keeps its
     * {@code type}, {@code status}, {@code reason}, {@code message} and {@code lastTransitionTime}
     * required, as Kubernetes' schema has them. Empty for any other class.
     */
    private static Set<String> clientJavaRequired(Class<?> type) {
        if (!type.getPackageName().equals(CLIENT_JAVA_MODELS)) {
            return Set.of();
        }
        try {
            Object required = type.getField("openapiRequiredFields").get(null);
            return required instanceof Collection<?> names ? names.stream().map(String::valueOf).collect(
                    java.util.stream.Collectors.toUnmodifiableSet()) : Set.of();
        } catch (NoSuchFieldException | IllegalAccessException e) {
            return Set.of();
        }
    }

    /**
     * A {@code map} list's keys must be required or defaulted in its items, or the API server refuses
     * the CRD; found here, naming the field and the key.
     */
    private static void checkListMapKeys(JsonObject schema, String where) {
        if (!"map".equals(schema.getString("x-kubernetes-list-type", null)) || !(schema.get("items") instanceof JsonObject items)) {
            return;
        }
        Set<String> required = items.containsKey("required") ? items.getJsonArray("required").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).collect(java.util.stream.Collectors.toSet()) : Set.of();
        JsonObject properties = items.getJsonObject("properties");
        for (jakarta.json.JsonString key : schema.getJsonArray("x-kubernetes-list-map-keys").getValuesAs(jakarta.json.JsonString.class)) {
            String name = key.getString();
            if (properties == null || !properties.containsKey(name)) {
                throw new IllegalArgumentException(where + ": @ListType(MAP) key '" + name + "' is not a field of the list's items");
            }
            if (!required.contains(name) && !properties.getJsonObject(name).containsKey("default")) {
                throw new IllegalArgumentException(where + ": @ListType(MAP) key '" + name + "' must be required (@NotNull) or"
                        + " have a @Default in the list's items, or the API server refuses the CRD");
            }
        }
    }

    private JsonObject type(Type type, String where) {
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
            Type[] arguments = parameterized.getActualTypeArguments();
            if (Collection.class.isAssignableFrom(raw)) {
                JsonObjectBuilder array = Json.createObjectBuilder().add("type", "array").add("items", type(arguments[0], where + "[]"));
                if (Set.class.isAssignableFrom(raw)) {
                    array.add("x-kubernetes-list-type", "set");
                }
                return array.build();
            }
            if (Map.class.isAssignableFrom(raw)) {
                if (arguments[0] != String.class) {
                    throw new IllegalArgumentException(where + ": a map's keys must be Strings in JSON, not " + arguments[0].getTypeName());
                }
                return Json.createObjectBuilder().add("type", "object").add("additionalProperties", type(arguments[1], where + "{}"))
                        .build();
            }
            return type(raw, where);
        }
        if (type instanceof GenericArrayType array) {
            return Json.createObjectBuilder().add("type", "array").add("items", type(array.getGenericComponentType(), where + "[]")).build();
        }
        if (type instanceof WildcardType || !(type instanceof Class<?>)) {
            throw new IllegalArgumentException(where + ": the type " + type.getTypeName() + " has no schema; use a concrete type");
        }
        Class<?> raw = (Class<?>) type;
        if (raw == String.class || raw == char.class || raw == Character.class) {
            return scalar("string");
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return scalar("boolean");
        }
        if (raw == int.class || raw == Integer.class || raw == short.class || raw == Short.class || raw == byte.class
                || raw == Byte.class) {
            return Json.createObjectBuilder().add("type", "integer").add("format", "int32").build();
        }
        if (raw == long.class || raw == Long.class || raw == BigInteger.class) {
            return Json.createObjectBuilder().add("type", "integer").add("format", "int64").build();
        }
        if (raw == float.class || raw == Float.class || raw == double.class || raw == Double.class || raw == BigDecimal.class) {
            return scalar("number");
        }
        if (raw == OffsetDateTime.class) {
            return Json.createObjectBuilder().add("type", "string").add("format", "date-time").build();
        }
        if (raw == io.kubernetes.client.custom.IntOrString.class || raw == Quantity.class) {
            return Json.createObjectBuilder().add("x-kubernetes-int-or-string", true).build();
        }
        if (raw.isEnum()) {
            JsonArrayBuilder names = Json.createArrayBuilder();
            for (Field constant : raw.getFields()) {
                if (constant.isEnumConstant()) {
                    names.add(serializedName(constant));
                }
            }
            return Json.createObjectBuilder().add("type", "string").add("enum", names).build();
        }
        if (raw.isArray()) {
            return Json.createObjectBuilder().add("type", "array").add("items", type(raw.getComponentType(), where + "[]")).build();
        }
        if (raw == V1ObjectMeta.class) {
            return Json.createObjectBuilder().add("type", "object").add("x-kubernetes-preserve-unknown-fields", true).build();
        }
        if (Collection.class.isAssignableFrom(raw) || Map.class.isAssignableFrom(raw)) {
            throw new IllegalArgumentException(where + ": a raw " + raw.getSimpleName() + " has no element type; declare it, such as "
                    + raw.getSimpleName() + (Map.class.isAssignableFrom(raw) ? "<String, String>" : "<String>"));
        }
        if (isRaw(raw) || raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
            throw new IllegalArgumentException(where + ": " + raw.getName() + " has no schema; use a class with fields, or mark"
                    + " the field @PreserveUnknownFields");
        }
        return object(raw, where, false);
    }

    /** A type whose JSON can be anything. */
    private static boolean isRaw(Class<?> type) {
        return type == Object.class || com.google.gson.JsonElement.class.isAssignableFrom(type)
                || JsonValue.class.isAssignableFrom(type);
    }

    private static JsonObject scalar(String type) {
        return Json.createObjectBuilder().add("type", type).build();
    }

    private static void describe(JsonObjectBuilder schema, Description description) {
        if (description != null) {
            schema.add("description", description.value());
        }
    }

    private static void listType(JsonObjectBuilder schema, Field field, String where) {
        ListType list = field.getAnnotation(ListType.class);
        if (list == null) {
            return;
        }
        if (!isList(field.getType())) {
            throw new IllegalArgumentException(where + ": @ListType applies to lists, not " + field.getType().getName());
        }
        schema.add("x-kubernetes-list-type", list.value().name().toLowerCase(java.util.Locale.ROOT));
        if (list.value() == ListType.Kind.MAP) {
            if (list.keys().length == 0) {
                throw new IllegalArgumentException(where + ": @ListType(MAP) needs keys");
            }
            JsonArrayBuilder keys = Json.createArrayBuilder();
            for (String key : list.keys()) {
                keys.add(key);
            }
            schema.add("x-kubernetes-list-map-keys", keys);
        } else if (list.keys().length > 0) {
            throw new IllegalArgumentException(where + ": keys belong to @ListType(MAP) only");
        }
    }

    private static void constraints(JsonObjectBuilder schema, Field field, String where) {
        Class<?> type = field.getType();
        boolean text = type == String.class;
        boolean number = isNumber(type);
        if (field.isAnnotationPresent(NotEmpty.class)) {
            minimumSize(schema, type, 1, where, "@NotEmpty");
        }
        if (field.isAnnotationPresent(NotBlank.class)) {
            requireType(text, where, "@NotBlank", type);
            schema.add("minLength", 1).add("pattern", "\\S");
        }
        Min min = field.getAnnotation(Min.class);
        if (min != null) {
            requireType(number, where, "@Min", type);
            schema.add("minimum", min.value());
        }
        Max max = field.getAnnotation(Max.class);
        if (max != null) {
            requireType(number, where, "@Max", type);
            schema.add("maximum", max.value());
        }
        DecimalMin decimalMin = field.getAnnotation(DecimalMin.class);
        if (decimalMin != null) {
            requireType(number, where, "@DecimalMin", type);
            schema.add("minimum", new BigDecimal(decimalMin.value()));
            if (!decimalMin.inclusive()) {
                schema.add("exclusiveMinimum", true);
            }
        }
        DecimalMax decimalMax = field.getAnnotation(DecimalMax.class);
        if (decimalMax != null) {
            requireType(number, where, "@DecimalMax", type);
            schema.add("maximum", new BigDecimal(decimalMax.value()));
            if (!decimalMax.inclusive()) {
                schema.add("exclusiveMaximum", true);
            }
        }
        if (field.isAnnotationPresent(Positive.class) || field.isAnnotationPresent(PositiveOrZero.class)) {
            requireType(number, where, "@Positive", type);
            schema.add("minimum", 0);
            if (field.isAnnotationPresent(Positive.class)) {
                schema.add("exclusiveMinimum", true);
            }
        }
        if (field.isAnnotationPresent(Negative.class) || field.isAnnotationPresent(NegativeOrZero.class)) {
            requireType(number, where, "@Negative", type);
            schema.add("maximum", 0);
            if (field.isAnnotationPresent(Negative.class)) {
                schema.add("exclusiveMaximum", true);
            }
        }
        Size size = field.getAnnotation(Size.class);
        if (size != null) {
            String suffix = text ? "Length" : isList(type) ? "Items" : Map.class.isAssignableFrom(type) ? "Properties" : null;
            if (suffix == null) {
                throw new IllegalArgumentException(where + ": @Size applies to strings, lists and maps, not " + type.getName());
            }
            // Size cannot tell min = 0 given from its default: an @Size without a max states its min, 0 included
            if (size.min() > 0 || size.max() == Integer.MAX_VALUE) {
                schema.add("min" + suffix, size.min());
            }
            if (size.max() < Integer.MAX_VALUE) {
                schema.add("max" + suffix, size.max());
            }
        }
        Pattern pattern = field.getAnnotation(Pattern.class);
        if (pattern != null) {
            requireType(text, where, "@Pattern", type);
            schema.add("pattern", pattern.regexp());
        }
    }

    private static void minimumSize(JsonObjectBuilder schema, Class<?> type, int size, String where, String constraint) {
        if (type == String.class) {
            schema.add("minLength", size);
        } else if (isList(type)) {
            schema.add("minItems", size);
        } else if (Map.class.isAssignableFrom(type)) {
            schema.add("minProperties", size);
        } else {
            throw new IllegalArgumentException(where + ": " + constraint + " applies to strings, lists and maps, not " + type.getName());
        }
    }

    private static void requireType(boolean applies, String where, String constraint, Class<?> type) {
        if (!applies) {
            throw new IllegalArgumentException(where + ": " + constraint + " does not apply to " + type.getName());
        }
    }

    private static boolean isNumber(Class<?> type) {
        return type.isPrimitive() && type != boolean.class && type != char.class || Number.class.isAssignableFrom(type);
    }

    private static boolean isList(Class<?> type) {
        return Collection.class.isAssignableFrom(type) || type.isArray();
    }

    private static void validations(JsonObjectBuilder schema, Validation[] validations) {
        if (validations.length == 0) {
            return;
        }
        JsonArrayBuilder rules = Json.createArrayBuilder();
        for (Validation validation : validations) {
            JsonObjectBuilder rule = Json.createObjectBuilder().add("rule", validation.rule());
            if (!validation.message().isEmpty()) {
                rule.add("message", validation.message());
            }
            rules.add(rule);
        }
        schema.add("x-kubernetes-validations", rules);
    }

    /** The fields Gson writes, superclasses first, in declaration order. */
    static List<Field> fields(Class<?> type) {
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
            hierarchy.add(0, current);
        }
        List<Field> fields = new ArrayList<>();
        for (Class<?> current : hierarchy) {
            for (Field field : current.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !field.isSynthetic()) {
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    /** The name Gson writes for a field or enum constant. */
    static String serializedName(Field field) {
        SerializedName name = field.getAnnotation(SerializedName.class);
        return name != null ? name.value() : field.getName();
    }
}
