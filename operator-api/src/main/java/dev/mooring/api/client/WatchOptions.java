package dev.mooring.api.client;

/**
 * What a watch selects and where it starts.
 *
 * @param list the label and field selectors and the namespace scope (its page size is not used)
 * @param resourceVersion the resourceVersion to start after, or null to start with the current
 *     objects (each sent as {@code ADDED})
 * @param failWhenExpired when the server no longer has the history since {@code resourceVersion}
 *     (410 Gone): true throws that {@link KubernetesException} (list again, then watch from the
 *     list's resourceVersion, as an informer does); false starts again from the current objects,
 *     as the reference's watch does
 */
public record WatchOptions(ListOptions list, String resourceVersion, boolean failWhenExpired) {

    /** Every object of the namespace, from its current state, starting again when the history expires. */
    public static final WatchOptions DEFAULT = new WatchOptions(ListOptions.DEFAULT, null, false);

    public WatchOptions {
        list = list == null ? ListOptions.DEFAULT : list;
        resourceVersion = resourceVersion == null || resourceVersion.isBlank() ? null : resourceVersion;
    }

    public WatchOptions withSelection(ListOptions value) {
        return new WatchOptions(value, resourceVersion, failWhenExpired);
    }

    public WatchOptions from(String value) {
        return new WatchOptions(list, value, failWhenExpired);
    }

    public WatchOptions failingWhenExpired() {
        return new WatchOptions(list, resourceVersion, true);
    }
}
