package dev.mooring.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Defers Mooring's start to the restore of a Liberty InstantOn checkpoint taken after the
 * application started ({@code server checkpoint --at=afterAppStart}), so that the checkpoint
 * holds no connection to the API server, no token and no certificate: the controllers and the
 * admission webhooks start in the {@code afterRestore} notification of Liberty's {@code crac-1.4}
 * feature instead of at the application's start.
 *
 * <p>A checkpoint is pending when this JVM was launched by Liberty's {@code server checkpoint}
 * action with {@code --at=afterAppStart} (the launcher's {@code --internal-checkpoint-at} option
 * in the JVM's command) and has not been restored yet. Without a pending checkpoint (a plain
 * start, a checkpoint before the application starts, or after the restore) nothing is deferred.
 */
@ApplicationScoped
public class CheckpointRestore {

    private static final Logger LOG = Logger.getLogger(CheckpointRestore.class.getName());
    private static final String CHECKPOINT_AT = "--internal-checkpoint-at=";

    /** A start waiting for the restore. */
    private record Deferred(String what, Runnable start) {
    }

    private final List<Deferred> deferred = new ArrayList<>();
    /** Held here: the notifications may keep their resources by weak reference. */
    private Object registration;
    private boolean restored;

    /**
     * True when the JVM's launch {@code command} asks Liberty for a checkpoint after the
     * applications started.
     */
    static boolean checkpointAfterAppStart(String command) {
        if (command == null) {
            return false;
        }
        for (String argument : command.split("\\s+")) {
            if (argument.startsWith(CHECKPOINT_AT) && argument.substring(CHECKPOINT_AT.length()).equalsIgnoreCase("afterAppStart")) {
                return true;
            }
        }
        return false;
    }

    /** True while a checkpoint after the application's start is pending in this JVM. */
    public synchronized boolean pending() {
        return !restored && checkpointAfterAppStart(System.getProperty("sun.java.command"));
    }

    /**
     * Runs {@code start} now, or, while a checkpoint is pending, when the process is restored
     * from it (in the order deferred, on the thread that delivers the notification).
     *
     * @param what what starts, for the log
     * @throws IllegalStateException naming the missing feature when a checkpoint is pending and
     *     the server lacks {@code crac-1.4}: without its notification nothing would ever start
     */
    public void startNowOrOnRestore(String what, Runnable start) {
        if (!defer(what, start)) {
            start.run();
        }
    }

    /** Keeps {@code start} for the restore and returns true while a checkpoint is pending. */
    private synchronized boolean defer(String what, Runnable start) {
        if (!pending()) {
            return false;
        }
        if (registration == null) {
            try {
                registration = CracNotifications.register(this::beforeCheckpoint, this::afterRestore);
            } catch (LinkageError e) {
                throw new IllegalStateException("A checkpoint after the application's start (server checkpoint --at=afterAppStart)"
                        + " is requested, but Liberty's crac-1.4 feature is not enabled: add <feature>crac-1.4</feature> to the"
                        + " server's featureManager, so that Mooring starts when the process is restored", e);
            }
        }
        deferred.add(new Deferred(what, start));
        LOG.info(() -> "A checkpoint after the application's start is requested: " + what + " start when the process is"
                + " restored from it; until then Mooring reads no token or certificate and opens no connection");
        return true;
    }

    private synchronized void beforeCheckpoint() {
        LOG.info(() -> "Checkpoint: Mooring holds no connection, token or certificate; waiting to start " + names());
    }

    /** Runs the deferred starts once; one that fails is logged and the others still run. */
    void afterRestore() {
        List<Deferred> starts;
        synchronized (this) {
            if (restored) {
                return;
            }
            restored = true;
            starts = List.copyOf(deferred);
            deferred.clear();
        }
        LOG.info(() -> "Restored from the checkpoint: starting " + starts.stream().map(Deferred::what).toList());
        for (Deferred start : starts) {
            try {
                start.start().run();
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "Starting " + start.what() + " after the restore failed: " + e.getMessage(), e);
            }
        }
    }

    private List<String> names() {
        return deferred.stream().map(Deferred::what).toList();
    }
}
