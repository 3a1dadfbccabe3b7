package dev.mooring.engine.kube;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the label selector syntax of {@code kubectl -l} into a {@link V1LabelSelector}:
 * {@code k=v} and {@code k==v} (match labels), {@code k!=v}, {@code k in (a,b)},
 * {@code k notin (a,b)}, {@code k} (exists) and {@code !k} (does not exist), separated by commas.
 */
public final class LabelSelectors {

    private static final String KEY = "(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(?:\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            + "[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?";
    private static final String VALUE = "(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?";
    private static final Pattern EQUALS = Pattern.compile("(" + KEY + ")\\s*(==|=|!=)\\s*(" + VALUE + ")");
    private static final Pattern SET = Pattern.compile("(" + KEY + ")\\s+(in|notin)\\s*\\(([^)]*)\\)");
    private static final Pattern EXISTS = Pattern.compile("(!?)\\s*(" + KEY + ")");
    private static final Pattern VALUE_ONLY = Pattern.compile(VALUE);

    private LabelSelectors() {
    }

    /**
     * @throws IllegalArgumentException naming the requirement that is not valid selector syntax
     */
    public static V1LabelSelector parse(String selector) {
        V1LabelSelector result = new V1LabelSelector();
        if (selector.isBlank()) {
            throw new IllegalArgumentException("The label selector '" + selector + "' is empty");
        }
        for (String requirement : split(selector)) {
            Matcher matcher;
            if (requirement.isEmpty()) {
                // as the API server: "a=b," and "a=b,,c=d" are not selectors
                throw invalid(selector, requirement, "an empty requirement (a comma at an end, or two in a row)");
            } else if ((matcher = SET.matcher(requirement)).matches()) {
                List<String> values = new ArrayList<>();
                for (String value : matcher.group(5).split(",", -1)) {
                    String trimmed = value.trim();
                    if (trimmed.isEmpty() || !VALUE_ONLY.matcher(trimmed).matches()) {
                        throw invalid(selector, requirement, "'" + trimmed + "' is not a label value");
                    }
                    values.add(trimmed);
                }
                result.addMatchExpressionsItem(new V1LabelSelectorRequirement().key(matcher.group(1))
                        .operator(matcher.group(4).equals("in") ? "In" : "NotIn").values(values));
            } else if ((matcher = EQUALS.matcher(requirement)).matches()) {
                if (matcher.group(4).equals("!=")) {
                    result.addMatchExpressionsItem(new V1LabelSelectorRequirement().key(matcher.group(1))
                            .operator("NotIn").values(List.of(matcher.group(5))));
                } else {
                    result.putMatchLabelsItem(matcher.group(1), matcher.group(5));
                }
            } else if ((matcher = EXISTS.matcher(requirement)).matches()) {
                result.addMatchExpressionsItem(new V1LabelSelectorRequirement().key(matcher.group(2))
                        .operator(matcher.group(1).isEmpty() ? "Exists" : "DoesNotExist").values(null));
            } else {
                throw invalid(selector, requirement, "expected k=v, k!=v, k in (..), k notin (..), k or !k with a valid label key");
            }
        }
        return result;
    }

    /**
     * Whether {@code labels} (null for none) satisfy {@code selector}, as the API server decides:
     * every match label equal; {@code In} a value present among the values; {@code NotIn} the key
     * absent or its value not among them; {@code Exists}; {@code DoesNotExist}.
     */
    public static boolean matches(V1LabelSelector selector, java.util.Map<String, String> labels) {
        java.util.Map<String, String> actual = labels == null ? java.util.Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (var label : selector.getMatchLabels().entrySet()) {
                if (!label.getValue().equals(actual.get(label.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (V1LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
                String value = actual.get(requirement.getKey());
                boolean matched = switch (requirement.getOperator()) {
                    case "In" -> value != null && requirement.getValues().contains(value);
                    case "NotIn" -> value == null || !requirement.getValues().contains(value);
                    case "Exists" -> actual.containsKey(requirement.getKey());
                    case "DoesNotExist" -> !actual.containsKey(requirement.getKey());
                    default -> throw new IllegalArgumentException("Unknown label selector operator " + requirement.getOperator());
                };
                if (!matched) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<String> split(String selector) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : selector.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                parts.add(current.toString().trim());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString().trim());
        return parts;
    }

    private static IllegalArgumentException invalid(String selector, String requirement, String why) {
        return new IllegalArgumentException("Invalid label selector '" + selector + "' at '" + requirement + "': " + why);
    }
}
