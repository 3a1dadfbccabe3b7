package dev.mooring.api.client;

/**
 * Which objects a list or a watch selects, and how a list is paged.
 *
 * @param labelSelector a label selector ({@code app=web,tier!=db}), or null for all
 * @param fieldSelector a field selector ({@code metadata.name=web}), or null for all
 * @param pageSize the most objects one list request asks for (1 to 10,000; the server may answer fewer)
 * @param allNamespaces across all namespaces instead of one (the namespace argument is then ignored)
 */
public record ListOptions(String labelSelector, String fieldSelector, int pageSize, boolean allNamespaces) {

    /** Pages of this many objects unless said otherwise. */
    public static final int DEFAULT_PAGE_SIZE = 500;

    /** Every object of the namespace, in pages of {@value #DEFAULT_PAGE_SIZE}. */
    public static final ListOptions DEFAULT = new ListOptions(null, null, DEFAULT_PAGE_SIZE, false);

    /** @throws IllegalArgumentException if the page size is outside 1 to 10,000 */
    public ListOptions {
        if (pageSize < 1 || pageSize > 10_000) {
            throw new IllegalArgumentException("A page size is 1 to 10000, got " + pageSize);
        }
        labelSelector = labelSelector == null || labelSelector.isBlank() ? null : labelSelector;
        fieldSelector = fieldSelector == null || fieldSelector.isBlank() ? null : fieldSelector;
    }

    public ListOptions withLabelSelector(String value) {
        return new ListOptions(value, fieldSelector, pageSize, allNamespaces);
    }

    public ListOptions withFieldSelector(String value) {
        return new ListOptions(labelSelector, value, pageSize, allNamespaces);
    }

    public ListOptions withPageSize(int value) {
        return new ListOptions(labelSelector, fieldSelector, value, allNamespaces);
    }

    public ListOptions inAllNamespaces() {
        return new ListOptions(labelSelector, fieldSelector, pageSize, true);
    }
}
