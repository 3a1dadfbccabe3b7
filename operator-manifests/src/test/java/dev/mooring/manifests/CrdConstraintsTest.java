package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.crd.Description;
import dev.mooring.api.crd.Validation;
import jakarta.json.JsonObject;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each Bean Validation constraint as its schema keywords, exactly; and refused, naming field and constraint, where it cannot apply. */
class CrdConstraintsTest {

    @Description("A part of a gadget")
    @Validation(rule = "self.low <= self.high", message = "low must not exceed high")
    @Validation(rule = "has(self.label)")
    static class Part {
        @Description("The lower bound") @DecimalMin(value = "0.5", inclusive = false) @DecimalMax("9.5") double low;
        @DecimalMin("1") @DecimalMax(value = "10", inclusive = false) double high;
        @PositiveOrZero int offset;
        @Positive int count;
        @Negative int debt;
        @NegativeOrZero int balance;
        @Min(2) @Max(4) int size;
        @NotBlank String label;
        @Pattern(regexp = "[a-z]+") String code;
        @Size(max = 5) String shortText;
        @Size(min = 0) List<String> anyTags;
        @Size(min = 2, max = 3) List<String> tags;
        @Size(min = 1) Map<String, String> labels;
        @NotEmpty Map<String, String> settings;
        @NotEmpty List<String> owners;
        @Validation(rule = "self.size() < 10") String note;
    }

    private static String property(JsonObject schema, String name) {
        return schema.getJsonObject("properties").getJsonObject(name).toString();
    }

    @Test
    void constraintsDescriptionsAndValidationsBecomeTheirKeywords() {
        JsonObject schema = CrdSchema.of(Part.class);
        assertEquals("A part of a gadget", schema.getString("description"));
        assertEquals("[{\"rule\":\"self.low <= self.high\",\"message\":\"low must not exceed high\"},{\"rule\":\"has(self.label)\"}]",
                schema.get("x-kubernetes-validations").toString(), "a validation without a message has none");
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("low", "{\"type\":\"number\",\"description\":\"The lower bound\",\"minimum\":0.5,"
                + "\"exclusiveMinimum\":true,\"maximum\":9.5}");
        expected.put("high", "{\"type\":\"number\",\"minimum\":1,\"maximum\":10,\"exclusiveMaximum\":true}");
        expected.put("offset", "{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":0}");
        expected.put("count", "{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":0,\"exclusiveMinimum\":true}");
        expected.put("debt", "{\"type\":\"integer\",\"format\":\"int32\",\"maximum\":0,\"exclusiveMaximum\":true}");
        expected.put("balance", "{\"type\":\"integer\",\"format\":\"int32\",\"maximum\":0}");
        expected.put("size", "{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":2,\"maximum\":4}");
        expected.put("label", "{\"type\":\"string\",\"minLength\":1,\"pattern\":\"\\\\S\"}");
        expected.put("code", "{\"type\":\"string\",\"pattern\":\"[a-z]+\"}");
        expected.put("shortText", "{\"type\":\"string\",\"maxLength\":5}");
        expected.put("anyTags", "{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":0}");
        expected.put("tags", "{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":2,\"maxItems\":3}");
        expected.put("labels", "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"},\"minProperties\":1}");
        expected.put("settings", "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"},\"minProperties\":1}");
        expected.put("owners", "{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1}");
        expected.put("note", "{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self.size() < 10\"}]}");
        expected.forEach((name, keywords) -> assertEquals(keywords, property(schema, name), name));
        assertEquals("[\"label\",\"settings\",\"owners\"]", schema.get("required").toString(), "@NotBlank and @NotEmpty are required");
    }

    static class NotBlankNumber { @NotBlank Integer value; }
    static class MinText { @Min(1) String value; }
    static class MaxText { @Max(1) String value; }
    static class DecimalMinText { @DecimalMin("1") String value; }
    static class DecimalMaxText { @DecimalMax("1") String value; }
    static class PositiveText { @Positive String value; }
    static class NegativeText { @Negative String value; }
    static class PatternNumber { @Pattern(regexp = "x") Integer value; }
    static class SizeNumber { @Size(max = 1) Integer value; }
    static class NotEmptyNumber { @NotEmpty Integer value; }

    @Test
    void aConstraintOnATypeItDoesNotFitIsRefusedNamingFieldAndConstraint() {
        Map<Class<?>, String> refused = new LinkedHashMap<>();
        refused.put(NotBlankNumber.class, "@NotBlank does not apply to java.lang.Integer");
        refused.put(MinText.class, "@Min does not apply to java.lang.String");
        refused.put(MaxText.class, "@Max does not apply to java.lang.String");
        refused.put(DecimalMinText.class, "@DecimalMin does not apply to java.lang.String");
        refused.put(DecimalMaxText.class, "@DecimalMax does not apply to java.lang.String");
        refused.put(PositiveText.class, "@Positive does not apply to java.lang.String");
        refused.put(NegativeText.class, "@Negative does not apply to java.lang.String");
        refused.put(PatternNumber.class, "@Pattern does not apply to java.lang.Integer");
        refused.put(SizeNumber.class, "@Size applies to strings, lists and maps, not java.lang.Integer");
        refused.put(NotEmptyNumber.class, "@NotEmpty applies to strings, lists and maps, not java.lang.Integer");
        refused.forEach((type, message) -> assertEquals(type.getName() + ".value: " + message,
                assertThrows(IllegalArgumentException.class, () -> CrdSchema.of(type)).getMessage()));
    }
}
