package dev.mooring.engine.replica;

import dev.mooring.engine.kube.Backoff;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The acquire/renew loop that the {@link LeaderElector} and the {@link ShardCoordinator} share:
 * rounds a retry period apart (jittered &plusmn;10 %, so that replicas started together do not ask
 * together) until a stop is requested; the API server's contact as readiness sees it (answered
 * within the last lease duration, on this replica's monotonic clock); and a run of failed
 * requests reported as one warning, its other failures at FINE, and the recovery said once.
 *
 * <p>Not thread-safe but for {@link #requestStop}, {@link #stop} and {@link #connected}:
 * the rest is called by the loop's own thread. Records go to the owner's logger.
 */
final class LeaseLoop {

    private final ElectionSettings settings;
    private final LongSupplier nanoTime;
    private final Logger log;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile long lastContact;
    private volatile boolean contacted;
    private int failedInARow;

    LeaseLoop(ElectionSettings settings, LongSupplier nanoTime, Logger log) {
        this.settings = settings;
        this.nanoTime = nanoTime;
        this.log = log;
    }

    /** Asks the loop to end; its owner sees it at the next {@link #pause} or {@link #stopping} check. */
    void requestStop() {
        stopRequested.countDown();
    }

    boolean stopping() {
        return stopRequested.getCount() == 0;
    }

    /** Sleeps up to {@code delay}; true when a stop was requested meanwhile (at once if it was before). */
    boolean pause(Duration delay) throws InterruptedException {
        return stopRequested.await(Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** The retry period, &plusmn;10 %. */
    Duration nextRound() {
        return Backoff.constant(settings.retryPeriod()).withJitter(0.9, 1.1).delay(0);
    }

    /** Called by the loop's thread as it ends, whatever the reason. */
    void finish() {
        finished.countDown();
    }

    /** Asks the loop to end and waits up to {@code timeout} for it to; an interrupt ends the wait (the flag is kept). */
    void stop(Duration timeout) {
        requestStop();
        try {
            finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The API server answered: contact from now on, and after a run of failures the recovery is
     * logged once with {@code recovery} applied to the number of failures.
     */
    void answered(IntFunction<String> recovery) {
        lastContact = nanoTime.getAsLong();
        contacted = true;
        if (failedInARow > 0) {
            int failed = failedInARow;
            log.info(() -> recovery.apply(failed));
            failedInARow = 0;
        }
    }

    /** A request failed (transiently): the first of a run is a warning, the rest FINE. */
    void failed(Supplier<String> message) {
        failedInARow++;
        log.log(failedInARow == 1 ? Level.WARNING : Level.FINE, message);
    }

    /** True when the API server answered within the last lease duration. */
    boolean connected() {
        return contacted && nanoTime.getAsLong() - lastContact < settings.leaseDuration().toNanos();
    }

    /** "1 failure", "2 failures". */
    static String failures(int count) {
        return count + (count == 1 ? " failure" : " failures");
    }
}
