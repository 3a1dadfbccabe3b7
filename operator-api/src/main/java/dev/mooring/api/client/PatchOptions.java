package dev.mooring.api.client;

/**
 * How a patch is applied.
 *
 * @param status patch the {@code status} subresource instead of the main resource
 * @param dryRun let the server validate and admit the patch without persisting it ({@code dryRun=All})
 */
public record PatchOptions(boolean status, boolean dryRun) {

    /** The main resource, persisted. */
    public static final PatchOptions DEFAULT = new PatchOptions(false, false);

    /** The status subresource, persisted. */
    public static PatchOptions statusSubresource() {
        return new PatchOptions(true, false);
    }

    /** These options, as a dry run. */
    public PatchOptions asDryRun() {
        return new PatchOptions(status, true);
    }
}
