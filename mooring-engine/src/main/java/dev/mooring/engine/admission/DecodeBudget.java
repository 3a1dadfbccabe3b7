package dev.mooring.engine.admission;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/**
 * Bounds the decoding work that admission takes on, so that reviews from anyone who can reach the
 * webhook port cannot take the CPU from health checks and from the API server's small reviews,
 * while a valid review is never refused because the pod is busy:
 *
 * <ul>
 * <li>a body of at least {@link #LARGE_BODY} bytes decodes only while one of a fixed number of
 * slots is free (otherwise it is refused at once, before any parsing), and only for a fixed amount
 * of <em>CPU time</em> of the thread that decodes it: on a busy machine the same body takes longer
 * by the clock but no more CPU, so the budget charges what the body costs, not how busy the pod is;
 * <li>a smaller body needs no slot and has no CPU budget (the decoder is linear in the body, so its
 * cost is small); it is refused for slowness only once the webhook's own timeout, less
 * {@link #TIMEOUT_MARGIN}, has passed, when the API server is about to give up on it anyway;
 * <li>every decode, large or small, ends at that same point of the webhook's timeout.
 * </ul>
 *
 * <p>Decoding runs on the thread that serves the HTTP request; refusing, rather than queueing,
 * keeps that thread no longer than the refusal takes.
 */
public final class DecodeBudget {

    /** The size from which a body needs a slot: 256 KiB. */
    public static final int LARGE_BODY = 256 * 1024;

    /**
     * The CPU time one large body may take to decode by default: 2 seconds. Under Liberty here
     * (HotSpot 17, 2 cores) the costliest shape at the size limit (deep nesting) decodes in about
     * 1 s of CPU, a realistic 3 MB review in a fraction of it.
     */
    public static final Duration DEFAULT_LARGE_CPU = Duration.ofSeconds(2);

    /**
     * What is kept of the webhook's timeout for the call and the answer: 500 ms (half the timeout
     * when that is shorter). A review not decoded by then is answered 429 instead of being left
     * to the API server's timeout.
     */
    public static final Duration TIMEOUT_MARGIN = Duration.ofMillis(500);

    private final Semaphore largeSlots;
    private final int slots;
    private final Duration largeCpu;
    private final LongSupplier wallTime;
    private final LongSupplier threadCpuTime;

    /**
     * @param largeAtOnce how many large bodies may decode at once, at least 1
     * @param largeCpu the CPU time one large body may take to decode
     * @param wallTime the clock the webhook's timeout runs on ({@link System#nanoTime()} outside tests)
     * @param threadCpuTime the CPU time of the calling thread, in nanoseconds
     *     ({@link ThreadMXBean#getCurrentThreadCpuTime()} outside tests)
     * @throws IllegalArgumentException if {@code largeAtOnce} is below 1 or {@code largeCpu} not positive
     */
    public DecodeBudget(int largeAtOnce, Duration largeCpu, LongSupplier wallTime, LongSupplier threadCpuTime) {
        if (largeAtOnce < 1) {
            throw new IllegalArgumentException("largeAtOnce must be at least 1, not " + largeAtOnce);
        }
        if (largeCpu.isNegative() || largeCpu.isZero()) {
            throw new IllegalArgumentException("largeCpu must be positive, not " + largeCpu);
        }
        this.largeSlots = new Semaphore(largeAtOnce);
        this.slots = largeAtOnce;
        this.largeCpu = largeCpu;
        this.wallTime = java.util.Objects.requireNonNull(wallTime);
        this.threadCpuTime = java.util.Objects.requireNonNull(threadCpuTime);
    }

    /** The webhook's clock, in nanoseconds: what a route's timeout counts on. */
    long now() {
        return wallTime.getAsLong();
    }

    /**
     * As many large decodes at once as the JVM has processors, {@link #DEFAULT_LARGE_CPU} of CPU
     * each, on the system clock and the JVM's thread CPU clock (the system clock where the JVM
     * cannot measure a thread's CPU time).
     */
    public static DecodeBudget standard() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        LongSupplier cpu = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled()
                ? threads::getCurrentThreadCpuTime : System::nanoTime;
        return new DecodeBudget(Math.max(1, Runtime.getRuntime().availableProcessors()), DEFAULT_LARGE_CPU, System::nanoTime, cpu);
    }

    /**
     * The right to decode one body on the thread that entered; close it when the decode ends.
     * Use it on that thread only: its CPU budget is that thread's.
     */
    public final class Ticket implements AutoCloseable {
        private final boolean holdsSlot;
        private final long wallDeadline;
        private final long cpuDeadline;
        private boolean closed;

        private Ticket(boolean holdsSlot, Duration webhookTimeLeft) {
            this.holdsSlot = holdsSlot;
            Duration margin = TIMEOUT_MARGIN.compareTo(webhookTimeLeft.dividedBy(2)) < 0 ? TIMEOUT_MARGIN : webhookTimeLeft.dividedBy(2);
            this.wallDeadline = wallTime.getAsLong() + webhookTimeLeft.minus(margin).toNanos();
            this.cpuDeadline = holdsSlot ? threadCpuTime.getAsLong() + largeCpu.toNanos() : 0;
        }

        /** True once the body's CPU time (large bodies) or the webhook's time less the margin is spent. */
        public boolean expired() {
            return overrun() != null;
        }

        /** Which budget is spent, as the answer says it, or null while neither is. */
        public String overrun() {
            if (wallTime.getAsLong() - wallDeadline > 0) {
                return "before the webhook's timeout";
            }
            if (holdsSlot && threadCpuTime.getAsLong() - cpuDeadline > 0) {
                return "within " + largeCpu.toMillis() + " ms of CPU time";
            }
            return null;
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
     * A ticket to decode a body of {@code bytes} with {@code webhookTimeLeft} of the webhook's
     * timeout left, or empty when it is large and every slot is taken.
     */
    public Optional<Ticket> enter(int bytes, Duration webhookTimeLeft) {
        if (bytes < LARGE_BODY) {
            return Optional.of(new Ticket(false, webhookTimeLeft));
        }
        return largeSlots.tryAcquire() ? Optional.of(new Ticket(true, webhookTimeLeft)) : Optional.empty();
    }

    /** How many large bodies may decode at once. */
    public int slots() {
        return slots;
    }

    /** The CPU time one large body may take to decode. */
    public Duration largeCpu() {
        return largeCpu;
    }
}
