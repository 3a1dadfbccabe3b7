package dev.mooring.examples.patterns;

import dev.mooring.api.LifecycleEvent;
import dev.mooring.api.Wait;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The lifespan pattern: a resource whose lifetime is the leadership term (with leader election)
 * or the process (without). Mooring fires {@link LifecycleEvent}s in an order this relies on: a
 * term's {@code LEADERSHIP_ACQUIRED} before its informers and workers start; its end
 * ({@code SHUTDOWN}, {@code LEADERSHIP_LOST} or {@code FAILURE}) after its workers have stopped
 * and before the Lease is released. So the session is open whenever a worker runs, and no worker
 * uses it once it is closed. Workers acquire it typed with {@link #require()}.
 */
@ApplicationScoped
public class LeaderSession {

    private final AtomicReference<PublisherSession> current = new AtomicReference<>();

    @Inject
    @ConfigProperty(name = "mooring.leader-election.enabled", defaultValue = "false")
    boolean elected;

    void lifecycle(@Observes LifecycleEvent event) {
        LifecycleEvent.Scope scope = elected ? LifecycleEvent.Scope.LEADER : LifecycleEvent.Scope.PROCESS;
        if (event.scope() != scope) {
            return;
        }
        boolean begins = event.type() == (elected ? LifecycleEvent.Type.LEADERSHIP_ACQUIRED : LifecycleEvent.Type.STARTUP);
        if (begins) {
            current.set(new PublisherSession(event.identity() == null ? "this process" : event.identity()));
            return;
        }
        PublisherSession ending = current.getAndSet(null);
        if (ending != null) {
            ending.close(event.type().name());
        }
    }

    /**
     * The open session.
     *
     * @throws Wait when there is none (between terms): the pass is tried again later, without an error
     */
    public PublisherSession require() {
        PublisherSession session = current.get();
        if (session == null) {
            throw new Wait("NoPublisherSession", "this replica holds no publisher session", Duration.ofSeconds(5));
        }
        return session;
    }
}
