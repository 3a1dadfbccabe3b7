package dev.mooring.engine.kube;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import java.util.regex.Pattern;

/**
 * The label and field selectors that limit what one informer lists and watches (the {@code
 * labelSelector} and {@code fieldSelector} of a list), each null for none. Checked when made: a
 * selector the API server would refuse fails the deployment, not the first list.
 *
 * @param labels a label selector in {@code kubectl -l} syntax ({@code app=web,tier!=cache}), or null
 * @param fields a field selector ({@code metadata.name=web,status.phase!=Failed}), or null; which
 *     fields a kind supports the API server decides (every kind has {@code metadata.name} and
 *     {@code metadata.namespace})
 */
public record Selectors(String labels, String fields) {

    /** No selector: every object of the kind in scope. */
    public static final Selectors NONE = new Selectors(null, null);

    private static final Pattern FIELD_REQUIREMENT = Pattern.compile("[A-Za-z0-9_.\\-\\[\\]]+\\s*(==|=|!=)\\s*[^,=!]*");

    /**
     * @throws IllegalArgumentException naming the selector and what is wrong with it
     */
    public Selectors {
        labels = labels == null || labels.isBlank() ? null : labels.trim();
        fields = fields == null || fields.isBlank() ? null : fields.trim();
        if (labels != null) {
            LabelSelectors.parse(labels);
        }
        if (fields != null) {
            for (String requirement : fields.split(",", -1)) {
                if (!FIELD_REQUIREMENT.matcher(requirement.trim()).matches()) {
                    throw new IllegalArgumentException("Invalid field selector '" + fields + "' at '" + requirement.trim()
                            + "': expected field=value, field==value or field!=value, separated by commas");
                }
            }
        }
    }

    /** Only a label selector. */
    public static Selectors labels(String labels) {
        return new Selectors(labels, null);
    }

    /** The label selector parsed, or null without one. */
    public V1LabelSelector labelSelector() {
        return labels == null ? null : LabelSelectors.parse(labels);
    }

    /** Whether there is no selector. */
    public boolean isEmpty() {
        return labels == null && fields == null;
    }

    /** For messages: the selectors as a list query would carry them. */
    public String describe() {
        return isEmpty() ? "no selector" : (labels == null ? "" : "labels " + labels) + (labels != null && fields != null ? ", " : "")
                + (fields == null ? "" : "fields " + fields);
    }
}
