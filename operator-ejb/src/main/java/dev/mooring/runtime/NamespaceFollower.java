package dev.mooring.runtime;

import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Follows the {@code mooring.controller.<name>.namespaces} property of each controller that
 * watches a namespace set: read again on every {@link #poll()}, a changed set is handed to the
 * runtime, which stops and starts the informers. MicroProfile Config has no change event, so the
 * property is polled (a managed timer, {@code mooring.namespaces.poll-interval}); a source whose
 * values change while the server runs (a server.xml variable, a config drop-in) is what makes a
 * change visible.
 *
 * <p>A value that does not parse is logged once, naming the property, and the set stays as it
 * is; so does a property that is removed (the set it last gave stays: the annotation's is read at
 * deployment only).
 */
final class NamespaceFollower {

    private static final Logger LOG = Logger.getLogger(NamespaceFollower.class.getName());

    private final Function<String, Optional<String>> config;
    private final BiConsumer<String, Set<String>> apply;
    /** The set each following controller watches, by name. */
    private final Map<String, Set<String>> current = new LinkedHashMap<>();
    /** The last value refused for each controller, so that it is logged once. */
    private final Map<String, String> refused = new LinkedHashMap<>();

    /**
     * @param definitions the deployment's controllers; those without a namespace set are left alone
     * @param config MicroProfile Config lookup
     * @param apply changes a controller's set ({@code OperatorRuntime.watchNamespaces})
     */
    NamespaceFollower(List<ControllerDefinition> definitions, Function<String, Optional<String>> config,
            BiConsumer<String, Set<String>> apply) {
        this.config = config;
        this.apply = apply;
        definitions.stream().filter(definition -> definition.namespaces() != null)
                .forEach(definition -> current.put(definition.name(), definition.namespaces()));
    }

    /** Whether some controller watches a namespace set (else there is nothing to poll). */
    boolean following() {
        return !current.isEmpty();
    }

    /** Poll every {@code interval} on {@code timers}; cancel the returned future to stop. */
    ScheduledFuture<?> start(ScheduledExecutorService timers, Duration interval) {
        return timers.scheduleWithFixedDelay(this::poll, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Read each following controller's property once; apply the sets that changed. Never throws. */
    synchronized void poll() {
        for (Map.Entry<String, Set<String>> entry : current.entrySet()) {
            String name = entry.getKey();
            String key = ControllerOptions.PREFIX + name + ".namespaces";
            try {
                Optional<String> value = config.apply(key).filter(text -> !text.isBlank());
                if (value.isEmpty()) {
                    continue;
                }
                Set<String> wanted = parsed(name, key, value.get(), entry.getValue());
                if (wanted != null && !wanted.equals(entry.getValue())) {
                    apply.accept(name, wanted);
                    entry.setValue(wanted);
                }
            } catch (RuntimeException e) {
                LOG.warning(() -> "Controller " + name + " keeps watching namespaces " + entry.getValue() + ": " + e.getMessage());
            }
        }
    }

    /** The set {@code value} gives, or null when it does not parse (logged once per value). */
    private Set<String> parsed(String name, String key, String value, Set<String> watched) {
        try {
            Set<String> wanted = ControllerOptions.namespaces(value, key);
            refused.remove(name);
            return wanted;
        } catch (IllegalArgumentException e) {
            if (!value.equals(refused.put(name, value))) {
                LOG.warning(() -> e.getMessage() + "; controller " + name + " keeps watching namespaces " + watched);
            }
            return null;
        }
    }
}
