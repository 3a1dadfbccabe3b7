package dev.mooring.runtime;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * The one use of the {@code org.crac} API (served by Liberty's {@code crac-1.4} feature), apart
 * so that a server without that feature fails only when a checkpoint asks for it.
 */
final class CracNotifications {

    private CracNotifications() {
    }

    /**
     * Registers a resource with the global context that runs {@code before} before a checkpoint
     * and {@code after} after a restore; returns it (the caller keeps it referenced).
     *
     * @throws LinkageError when the {@code org.crac} API is not served
     */
    static Object register(Runnable before, Runnable after) {
        Resource resource = new Resource() {
            @Override
            public void beforeCheckpoint(Context<? extends Resource> context) {
                before.run();
            }

            @Override
            public void afterRestore(Context<? extends Resource> context) {
                after.run();
            }
        };
        Core.getGlobalContext().register(resource);
        return resource;
    }
}
