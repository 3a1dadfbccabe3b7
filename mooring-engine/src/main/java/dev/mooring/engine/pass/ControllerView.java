package dev.mooring.engine.pass;

import dev.mooring.api.ObjectKey;
import java.time.Clock;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What every pass of one controller sees of it, the same for all its passes: its name (which names
 * its field manager), its caches, its work queue (to enqueue other keys), the clock of the times a
 * pass writes, the conditions its stages manage (which the author may not set), and its own status
 * writes the cache has not delivered yet.
 */
public record ControllerView(String controller, ControllerCaches caches, Consumer<ObjectKey> enqueue, Clock clock,
        Set<String> managedConditions, StatusWrites statusWrites) {

    public ControllerView {
        Objects.requireNonNull(controller, "controller");
        Objects.requireNonNull(caches, "caches");
        Objects.requireNonNull(enqueue, "enqueue");
        Objects.requireNonNull(clock, "clock");
        managedConditions = Set.copyOf(managedConditions);
        Objects.requireNonNull(statusWrites, "statusWrites");
    }
}
