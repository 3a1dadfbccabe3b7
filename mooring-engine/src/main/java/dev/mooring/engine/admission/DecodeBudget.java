package dev.mooring.engine.admission;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/**
 * Bounds the decoding work that admission takes on, so that reviews from anyone who can reach the
 * webhook port cannot take the CPU from health checks and from the API server's small reviews:
 * a body of at least {@link #LARGE_BODY} bytes decodes only while one of a fixed number of slots
 * is free (otherwise it is refused at once, before any parsing), and every decode has a deadline.
 * A small body needs no slot: the decoder is linear in the body, so its cost is small.
 *
 * <p>Decoding runs on the thread that serves the HTTP request; refusing, rather than queueing,
 * keeps that thread no longer than the refusal takes.
 */
public final class DecodeBudget {

    /** The size from which a body needs a slot: 256 KiB. */
    public static final int LARGE_BODY = 256 * 1024;

    /**
     * The time one decode may take by default: 2 seconds, well within the API server's default
     * webhook timeout of 5 s used by Mooring's routes. Under Liberty here (HotSpot 17, 2 cores) the
     * costliest shape at the size limit (deep nesting) decodes in about 1 s of CPU, a realistic 3 MB
     * review in a fraction of it.
     */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(2);

    private final Semaphore largeSlots;
    private final int slots;
    private final Duration perDecode;
    private final LongSupplier nanoTime;

    /**
     * @param largeAtOnce how many large bodies may decode at once, at least 1
     * @param perDecode the time one decode may take
     * @param nanoTime the clock ({@link System#nanoTime()} outside tests)
     */
    public DecodeBudget(int largeAtOnce, Duration perDecode, LongSupplier nanoTime) {
        if (largeAtOnce < 1) {
            throw new IllegalArgumentException("largeAtOnce must be at least 1, not " + largeAtOnce);
        }
        if (perDecode.isNegative() || perDecode.isZero()) {
            throw new IllegalArgumentException("perDecode must be positive, not " + perDecode);
        }
        this.largeSlots = new Semaphore(largeAtOnce);
        this.slots = largeAtOnce;
        this.perDecode = perDecode;
        this.nanoTime = nanoTime;
    }

    /** As many large decodes at once as the JVM has processors, {@link #DEFAULT_DEADLINE} each, on the system clock. */
    public static DecodeBudget standard() {
        return new DecodeBudget(Math.max(1, Runtime.getRuntime().availableProcessors()), DEFAULT_DEADLINE, System::nanoTime);
    }

    /** The right to decode one body until {@link #deadline()}; close it when the decode ends. */
    public final class Ticket implements AutoCloseable {
        private final boolean holdsSlot;
        private final long deadline;
        private boolean closed;

        private Ticket(boolean holdsSlot) {
            this.holdsSlot = holdsSlot;
            this.deadline = nanoTime.getAsLong() + perDecode.toNanos();
        }

        /** The end of this decode's time, on the budget's clock. */
        public long deadline() {
            return deadline;
        }

        /** True once the deadline has passed. */
        public boolean expired() {
            return nanoTime.getAsLong() - deadline > 0;
        }

        /** Frees the slot, if this ticket holds one; closing twice frees it once. */
        @Override
        public void close() {
            if (holdsSlot && !closed) {
                largeSlots.release();
            }
            closed = true;
        }
    }

    /**
     * A ticket to decode a body of {@code bytes}, or empty when it is large and every slot is taken.
     */
    public Optional<Ticket> enter(int bytes) {
        if (bytes < LARGE_BODY) {
            return Optional.of(new Ticket(false));
        }
        return largeSlots.tryAcquire() ? Optional.of(new Ticket(true)) : Optional.empty();
    }

    /** How many large bodies may decode at once. */
    public int slots() {
        return slots;
    }

    /** The time one decode may take. */
    public Duration perDecode() {
        return perDecode;
    }

    /** The clock the deadlines are on. */
    LongSupplier clock() {
        return nanoTime;
    }
}
