package dev.mooring.runtime;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The threads Mooring runs on, none of them from the pool that serves HTTP and admission
 * requests. In Liberty every managed executor service, the default one included, runs its tasks
 * on the server's one global executor, which also serves HTTP: long-lived loops there (a watch,
 * a worker, the election) hold threads that requests wait for. So Mooring takes its threads from
 * the default {@link ManagedThreadFactory} (Jakarta Concurrency: the application's context, not
 * pooled by Liberty) and pools them itself:
 * <ul>
 * <li>{@link #loops()}: a thread per long-lived loop (one per informer, {@code workers} per
 * controller, the elector, start-up tasks), created when needed, kept 60 s when idle;</li>
 * <li>{@link #timers()}: two threads for short timed tasks (resyncs, reconcile timeouts,
 * certificate checks);</li>
 * <li>{@link #admission()}: a bounded pool for admission methods, {@code mooring.admission.threads}
 * threads and a queue of {@code mooring.admission.queue}; a call beyond both is refused at once.</li>
 * </ul>
 * The pools are written here, not taken from {@code java.util.concurrent.Executors}, because
 * their threads must come from the managed factory.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
// no container transaction around its lifecycle: Mooring uses none, and InstantOn refuses a checkpoint after one began
@jakarta.ejb.TransactionManagement(jakarta.ejb.TransactionManagementType.BEAN)
public class MooringThreads {

    private static final Logger LOG = Logger.getLogger(MooringThreads.class.getName());
    private static final int TIMER_THREADS = 2;

    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    MooringConfig config;

    private ThreadPoolExecutor loops;
    private ScheduledThreadPoolExecutor timers;
    private ThreadPoolExecutor admission;

    @PostConstruct
    void create() {
        loops = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), named("mooring-loop"));
        timers = new ScheduledThreadPoolExecutor(TIMER_THREADS, named("mooring-timer"));
        timers.setRemoveOnCancelPolicy(true);
        MooringConfig.AdmissionPool size = config.admissionPool();
        admission = new ThreadPoolExecutor(size.threads(), size.threads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(size.queue()), named("mooring-admission"));
        admission.allowCoreThreadTimeOut(true);
    }

    /** Threads for long-lived loops: each task gets a thread of its own. */
    public ExecutorService loops() {
        return loops;
    }

    /** Threads for short timed tasks. */
    public ScheduledExecutorService timers() {
        return timers;
    }

    /** The bounded pool admission methods run on; it refuses a call when its threads and queue are full. */
    public ExecutorService admission() {
        return admission;
    }

    @PreDestroy
    void destroy() {
        // the runtime and admission stopped their tasks before this singleton is destroyed (@DependsOn)
        for (ExecutorService pool : new ExecutorService[] {admission, timers, loops}) {
            pool.shutdownNow();
        }
        try {
            for (ExecutorService pool : new ExecutorService[] {admission, timers, loops}) {
                if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
                    LOG.warning("Some of Mooring's threads did not end within 5 s of the application's stop");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = threadFactory.newThread(task);
            thread.setName(prefix + "-" + count.incrementAndGet());
            return thread;
        };
    }
}
