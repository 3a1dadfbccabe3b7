package dev.mooring.engine.queue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A thread-safe, deduplicating work queue with per-key serialization, two priorities, delayed
 * keys and exponential retry backoff. See the package documentation for its invariants.
 *
 * <p>Priorities: a key added as {@link Priority#NORMAL} is handed out before the
 * {@link Priority#LOW} keys waiting, except that while keys of both priorities wait, each normal
 * key handed out is followed by {@value #LOW_TURNS} low ones. Fresh changes therefore wait for
 * at most a few passes behind a backlog of any size, and the backlog keeps at least two thirds
 * of the workers' passes however fast fresh changes come: it drains within 1.5 times the time it
 * takes alone. A key added as normal while it waits as low is promoted; a low add never demotes.
 * Delayed keys and retries come back as normal.
 *
 * <p>Typical worker loop:
 * <pre>{@code
 * for (Optional<K> next = queue.get(); next.isPresent(); next = queue.get()) {
 *     K key = next.get();
 *     try {
 *         process(key);
 *         queue.forget(key);
 *     } catch (Exception e) {
 *         queue.retry(key);
 *     } finally {
 *         queue.done(key);
 *     }
 * }
 * }</pre>
 *
 * @param <K> the key type; keys must have value equality and must not change while queued
 */
public final class WorkQueue<K> {

    private static final long IDLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** While keys of both priorities wait, the low keys handed out after each normal one. */
    static final int LOW_TURNS = 2;

    private final RetryPolicy<K> retries;
    private final LongSupplier ticker;
    private final QueueObserver observer;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when work may be available to {@link #get()} or the delay heap changed. */
    private final Condition workChanged = lock.newCondition();
    /** Signalled when a key finished or work was discarded, for {@link #awaitIdle}. */
    private final Condition idleChanged = lock.newCondition();

    // Invariants: `ready` holds exactly the keys that are normal in `dirty` and not in `processing`.
    // `readyLow` holds every key that is low in `dirty` and not in `processing` (`readyLowCount` of
    // them), and may hold stale entries besides: a key promoted to normal leaves its low entry
    // behind rather than being searched for; take() skips entries that are no longer live. A key in
    // `dirty` that is in neither is in `processing` and becomes ready again on done().
    private final ArrayDeque<K> ready = new ArrayDeque<>();
    private final ArrayDeque<K> readyLow = new ArrayDeque<>();
    private int readyLowCount;
    /** Low keys still owed before the next normal one, while both wait. */
    private int lowTurns;
    /** The keys waiting to be handed out: their priority and since when they wait. */
    private final Map<K, Waiting> dirty = new HashMap<>();
    private final Set<K> processing = new HashSet<>();
    private final DelayedKeys<K> delayed = new DelayedKeys<>();
    /** When each processing key was handed out (ticker nanoseconds). */
    private final Map<K, Long> processingSince = new HashMap<>();
    private boolean shuttingDown;
    private boolean immediate;
    /** How often keys may be handed out, or null for as fast as workers take them. */
    private PassRate rate;

    /** A queue with the default retry policy ({@link RetryPolicy#defaults()}: 1 s doubling to 60 s, &plusmn;10 % jitter). */
    public WorkQueue() {
        this(RetryPolicy.defaults(), System::nanoTime);
    }

    /**
     * A queue whose failed keys come back when {@code retries} says.
     *
     * @param ticker monotonic nanoseconds, like {@link System#nanoTime()} (a fake one in tests)
     */
    public WorkQueue(RetryPolicy<K> retries, LongSupplier ticker) {
        this(retries, ticker, QueueObserver.NONE);
    }

    /**
     * A queue whose failed keys come back when {@code retries} says, and whose keys' comings and
     * goings {@code observer} is told.
     *
     * @param ticker monotonic nanoseconds, like {@link System#nanoTime()} (a fake one in tests); it times the keys too
     */
    public WorkQueue(RetryPolicy<K> retries, LongSupplier ticker, QueueObserver observer) {
        this.retries = Objects.requireNonNull(retries, "retries");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    /**
     * Hand keys out at most {@code perSecond} a second on average and {@code burst} at once (a
     * token bucket, full at first): a worker asking for a key when none is left waits for the next
     * token, retries and fresh changes alike. Call before the first {@link #get()}.
     *
     * @throws IllegalArgumentException unless {@code perSecond} is positive and finite and {@code burst} at least 1
     */
    public void limitRate(double perSecond, int burst) {
        lock.lock();
        try {
            rate = new PassRate(perSecond, burst, ticker.getAsLong());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Request processing of {@code key} now. Repeated adds before the key is handed out collapse
     * into one; an add while a worker holds the key makes it come back once after
     * {@link #done}. A pending delay for the key is superseded. Ignored after shutdown.
     */
    public void add(K key) {
        add(key, Priority.NORMAL);
    }

    /**
     * Like {@link #add(Object)}, with a priority: {@link Priority#LOW} for backlog (an initial
     * list, a resync), which fresh changes overtake. A key waiting as low is promoted by a normal
     * add; a key waiting as normal stays normal.
     */
    public void add(K key, Priority priority) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(priority, "priority");
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            delayed.cancel(key);
            enqueue(key, priority);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Request processing of {@code key} after {@code delay}. When the key already has a pending
     * delay, the earlier deadline wins. Ignored when the key is already waiting to be processed
     * (that pass comes sooner) and after shutdown. A zero delay is {@link #add}.
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    public void addAfter(K key, Duration delay) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        if (delay.isZero()) {
            add(key);
            return;
        }
        lock.lock();
        try {
            schedule(key, delay.toNanos());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Schedule {@code key} again after a failure, after the delay the queue's {@link RetryPolicy}
     * gives (by default the base delay, doubled for each consecutive failure up to the cap, times
     * a random factor in {@code [1 - jitter, 1 + jitter)}, never above the cap). Call
     * {@link #forget} after a success to reset the count.
     *
     * @return the chosen delay; {@link Duration#ZERO} after shutdown (nothing is scheduled)
     */
    public Duration retry(K key) {
        Objects.requireNonNull(key, "key");
        lock.lock();
        try {
            if (shuttingDown) {
                return Duration.ZERO;
            }
            Duration delay = retries.when(key);
            schedule(key, delay.toNanos());
            observer.retried();
            return delay;
        } finally {
            lock.unlock();
        }
    }

    /** Reset the failure count of {@code key}, after a success or a terminal failure. */
    public void forget(K key) {
        lock.lock();
        try {
            retries.forget(key);
        } finally {
            lock.unlock();
        }
    }

    /** Consecutive {@link #retry} calls for {@code key} since its last {@link #forget}. */
    public int numRetries(K key) {
        lock.lock();
        try {
            return retries.numRequeues(key);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Take the next ready key, waiting until one is ready. The caller holds the key until it
     * calls {@link #done} (always, in a {@code finally} block); no other caller gets the same key
     * meanwhile.
     *
     * @return the key, or empty once the queue is shut down and has no ready work left
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public Optional<K> get() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                promoteDue();
                long token = nanosUntilToken();
                K key = token == 0 ? takeCounted() : null;
                if (key != null) {
                    return Optional.of(key);
                }
                if (shuttingDown && !hasReady()) {
                    return Optional.empty();
                }
                long next = delayed.nanosUntilNext(ticker.getAsLong());
                long until = token == 0 ? next : next < 0 ? token : Math.min(token, next);
                if (until < 0) {
                    workChanged.await();
                } else {
                    workChanged.awaitNanos(until);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Take the next ready key without waiting (delayed keys whose time has come count as
     * ready). The same obligations as {@link #get()} apply to a returned key.
     *
     * @return the key, or empty when none is ready now
     */
    public Optional<K> poll() {
        lock.lock();
        try {
            promoteDue();
            return Optional.ofNullable(nanosUntilToken() == 0 ? takeCounted() : null);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Release a key taken with {@link #get()} or {@link #poll()}. If it was added meanwhile, it
     * becomes ready again (unless the queue was shut down immediately).
     *
     * @throws IllegalStateException if the key is not being processed
     */
    public void done(K key) {
        lock.lock();
        try {
            if (!processing.remove(key)) {
                throw new IllegalStateException("done called for a key that is not processing: " + key);
            }
            observer.worked(Duration.ofNanos(ticker.getAsLong() - processingSince.remove(key)));
            Waiting again = dirty.get(key);
            if (again != null) {
                if (immediate) {
                    dirty.remove(key);
                } else {
                    makeReady(key, again.priority);
                    workChanged.signal();
                }
            }
            idleChanged.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuse new work and discard delayed keys and failure counts. Ready work can still be
     * taken (drained); {@link #get()} returns empty once none is left. Keys being processed are
     * not interrupted: their callers still call {@link #done}.
     */
    public void shutdown() {
        shutdown(false);
    }

    /**
     * Like {@link #shutdown()}; with {@code immediate} also discard ready work, and keys added
     * while processing are not handed out again.
     */
    public void shutdown(boolean immediate) {
        lock.lock();
        try {
            shuttingDown = true;
            delayed.clear();
            if (immediate) {
                this.immediate = true;
                ready.clear();
                readyLow.clear();
                readyLowCount = 0;
                dirty.keySet().retainAll(processing);
            }
            workChanged.signalAll();
            idleChanged.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #shutdown} was called. */
    public boolean isShutdown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wait until no key is ready, processing or delayed.
     *
     * @return true when idle, false when {@code timeout} passed first
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        // Real time bounds the wait; the ticker only decides when delayed keys are due. The
        // periodic wake-up promotes delayed keys whose deadline passed while nobody called get().
        long end = System.nanoTime() + timeout.toNanos();
        lock.lockInterruptibly();
        try {
            promoteDue();
            while (readyCount() > 0 || !processing.isEmpty() || !delayed.isEmpty()) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idleChanged.awaitNanos(Math.min(left, IDLE_POLL_NANOS));
                promoteDue();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Keys ready and waiting for a worker (not processing, not delayed). For information only. */
    public int depth() {
        lock.lock();
        try {
            promoteDue();
            return readyCount();
        } finally {
            lock.unlock();
        }
    }

    /** Keys currently held by workers. For information only. */
    public int processing() {
        lock.lock();
        try {
            return processing.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * How long the keys held by workers now have been held, added up: work in progress that no
     * finished pass has measured yet (client-go's unfinished work). For information only.
     */
    public Duration unfinishedWork() {
        return Duration.ofNanos(heldNanos(java.util.stream.LongStream::sum));
    }

    /** How long the key held longest by a worker now has been held; zero when none is. For information only. */
    public Duration longestRunning() {
        return Duration.ofNanos(heldNanos(held -> held.max().orElse(0)));
    }

    /** A summary of how long each key held by a worker now has been held. */
    private long heldNanos(java.util.function.ToLongFunction<java.util.stream.LongStream> summary) {
        lock.lock();
        try {
            long now = ticker.getAsLong();
            return summary.applyAsLong(processingSince.values().stream().mapToLong(since -> now - since));
        } finally {
            lock.unlock();
        }
    }

    /** Keys with a pending delay or retry. For information only. */
    public int delayed() {
        lock.lock();
        try {
            promoteDue();
            return delayed.size();
        } finally {
            lock.unlock();
        }
    }

    // --- internals; all called with the lock held ---

    /** Keys ready now, whatever their priority. */
    private int readyCount() {
        return ready.size() + readyLowCount;
    }

    private void enqueue(K key, Priority priority) {
        Waiting waiting = dirty.get(key);
        if (waiting == null) {
            dirty.put(key, new Waiting(priority, ticker.getAsLong()));
            observer.added();
            if (!processing.contains(key)) {
                makeReady(key, priority);
                workChanged.signal();
            }
        } else if (waiting.priority == Priority.LOW && priority == Priority.NORMAL) {
            waiting.priority = Priority.NORMAL;
            if (!processing.contains(key)) {
                readyLowCount--; // its entry in readyLow is stale now
                ready.addLast(key);
                workChanged.signal();
            }
        }
    }

    private void makeReady(K key, Priority priority) {
        if (priority == Priority.NORMAL) {
            ready.addLast(key);
        } else {
            readyLow.addLast(key);
            readyLowCount++;
        }
    }

    private void schedule(K key, long delayNanos) {
        // A dirty key is ready, or comes back right after done(): that pass is sooner.
        if (shuttingDown || dirty.containsKey(key)) {
            return;
        }
        if (delayed.schedule(key, ticker.getAsLong() + delayNanos)) {
            workChanged.signalAll();
        }
    }

    private void promoteDue() {
        delayed.promoteDue(ticker.getAsLong(), key -> enqueue(key, Priority.NORMAL));
    }

    /** The next key by priority and turn (see the class documentation), or null when none is ready. */
    /** Nanoseconds until the rate lets the next ready key out: 0 without a rate, with a token, or with nothing ready. */
    private long nanosUntilToken() {
        return rate == null || !hasReady() ? 0 : rate.nanosUntilToken(ticker.getAsLong());
    }

    private boolean hasReady() {
        return !ready.isEmpty() || readyLowCount > 0;
    }

    /** {@link #take()}, taking a token of the rate for the key handed out. */
    private K takeCounted() {
        K key = take();
        if (key != null && rate != null) {
            rate.take();
        }
        return key;
    }

    private K take() {
        K key;
        if (readyLowCount > 0 && (ready.isEmpty() || lowTurns > 0)) {
            key = takeLow();
            lowTurns = Math.max(0, lowTurns - 1);
        } else {
            key = ready.pollFirst();
            lowTurns = key != null && readyLowCount > 0 ? LOW_TURNS : 0;
        }
        if (key != null) {
            Waiting waited = dirty.remove(key);
            processing.add(key);
            long now = ticker.getAsLong();
            observer.waited(Duration.ofNanos(now - waited.since));
            processingSince.put(key, now);
        }
        return key;
    }

    /** The first live entry of readyLow (there is one: readyLowCount > 0); stale ones before it are dropped. */
    private K takeLow() {
        while (true) {
            K key = readyLow.pollFirst();
            if (key == null) {
                throw new IllegalStateException("the queue counted " + readyLowCount + " low keys ready but holds none");
            }
            Waiting waiting = dirty.get(key);
            if (waiting != null && waiting.priority == Priority.LOW && !processing.contains(key)) {
                readyLowCount--;
                return key;
            }
        }
    }

    /**
     * A waiting key's priority and since when it waits: one small entry per key rather than a
     * second map of boxed times, which the initial list of 100,000 objects fills at once.
     */
    private static final class Waiting {
        Priority priority;
        final long since;

        Waiting(Priority priority, long since) {
            this.priority = priority;
            this.since = since;
        }
    }
}
