package dev.mooring.api.client;

/**
 * How a create, update, status update or apply is sent.
 *
 * @param dryRun let the server validate and admit the write without persisting it
 *     ({@code dryRun=All}): the answer shows what would be stored, and nothing changes
 */
public record WriteOptions(boolean dryRun) {

    /** Persisted. */
    public static final WriteOptions DEFAULT = new WriteOptions(false);

    /** Validated and admitted by the server, not persisted. */
    public static final WriteOptions DRY_RUN = new WriteOptions(true);
}
