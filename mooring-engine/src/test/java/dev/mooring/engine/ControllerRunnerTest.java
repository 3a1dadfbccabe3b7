package dev.mooring.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Context;
import dev.mooring.api.DesiredStateReconciler;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.TerminalException;
import dev.mooring.api.Wait;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerState;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.engine.pass.EventRecorder;
import dev.mooring.engine.pass.Outcome;
import dev.mooring.engine.pass.Pass;
import dev.mooring.engine.pass.PassDispatcher;
import dev.mooring.engine.pass.PassEnvironment;
import dev.mooring.engine.pass.RequestScope;
import dev.mooring.engine.pass.StagePipeline;
import dev.mooring.engine.queue.RetryPolicy;
import dev.mooring.engine.queue.WorkQueue;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One controller's guarantees, as controller-runtime's controller tests pin them, over an event
 * source the test drives and a client that records what it would send. Retries run on the work
 * queue's clock (a fake ticker, no jitter): a delay is due when the test moves the clock, never by
 * waiting.
 */
class ControllerRunnerTest {

    private static final ResourceType<V1Deployment> DEPLOYMENTS = new ResourceType<>("apps", "v1", "Deployment",
            "deployments", true, V1Deployment.class);
    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps",
            true, V1ConfigMap.class);
    private static final String FINALIZER = "test.mooring.dev/cleanup";
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final AtomicLong ticker = new AtomicLong(java.util.concurrent.TimeUnit.HOURS.toNanos(5)); // far from zero, as nanoTime may be
    /** Base delay 1 s, cap 60 s; the random source gives the middle of the jitter range, so a factor of 1. */
    private final WorkQueue<ObjectKey> queue = new WorkQueue<>(
            RetryPolicy.perKey(RetryPolicy.backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), 0.1).withRandom(() -> 0.5)), ticker::get);
    private final FakeSource<V1Deployment> source = new FakeSource<>(DEPLOYMENTS);
    private final RecordingClient client = new RecordingClient();
    private final List<Outcome.Kind> outcomes = new CopyOnWriteArrayList<>();
    private final List<V1Deployment> seen = new CopyOnWriteArrayList<>();
    private final List<ControllerRunner<?>> failed = new CopyOnWriteArrayList<>();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private ControllerRunner<V1Deployment> runner;

    @AfterEach
    void stop() throws InterruptedException {
        if (runner != null) {
            runner.stop();
        }
        workers.shutdownNow();
        timers.shutdownNow();
        assertTrue(workers.awaitTermination(10, TimeUnit.SECONDS), "the workers end");
    }

    // --- events and passes ---

    @Test
    void changesDuringAPassGiveExactlyOneMorePassWhichSeesTheLatestState() throws Exception {
        CountDownLatch inFirstPass = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            if (seen.size() == 1) {
                inFirstPass.countDown();
                release.await();
            }
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        assertTrue(inFirstPass.await(10, TimeUnit.SECONDS), "the first pass began");
        source.update(deployment("web", "2", 2));
        source.update(deployment("web", "3", 3));
        source.update(deployment("web", "4", 4));
        release.countDown();

        assertTrue(queue.awaitIdle(WAIT), "the queue drains");
        assertEquals(List.of(Outcome.Kind.SUCCESS, Outcome.Kind.SUCCESS), outcomes, "three changes during a pass: one more pass");
        assertEquals(4, seen.get(1).getSpec().getReplicas(), "the second pass reads the cache as it is then");
    }

    /** A runner reading its own writes with {@code bound}, its waits told to {@code waits}; web at 5 cached and a write of it at 7 pending. */
    private void readingItsWrites(Duration bound, List<String> waits) {
        dev.mooring.engine.informer.WrittenVersions written = new dev.mooring.engine.informer.WrittenVersions(List::of);
        runner = runner(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        runner.readYourWrites(new dev.mooring.engine.informer.ReadYourWrites(written,
                new dev.mooring.engine.informer.ReadYourWrites.Settings(true, bound), (controller, caughtUp) -> waits.add(controller + " " + caughtUp)));
        runner.attachPrimary(source);
        source.add(deployment("web", "5", 1));
        // another pass of this runtime scaled it to 3, answered with version 7; the watch has not brought it yet
        written.answered(com.google.gson.JsonParser.parseString("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                + "\"metadata\":{\"namespace\":\"ops\",\"name\":\"web\",\"resourceVersion\":\"7\"}}").getAsJsonObject());
        runner.startWorkers(workers, timers);
    }

    @Test
    void aPassReadsItsObjectOnlyOnceTheCacheHasTheRuntimesLastWriteOfIt() throws Exception {
        List<String> waits = new CopyOnWriteArrayList<>();
        readingItsWrites(Duration.ofMinutes(1), waits);

        long end = System.nanoTime() + WAIT.toNanos();
        while (source.waiting() == 0 && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertEquals(1, source.waiting(), "the pass waits for version 7");
        assertEquals(List.of(), seen, "and has not begun");
        source.update(deployment("web", "7", 3));

        assertTrue(queue.awaitIdle(WAIT), "the queue drains");
        assertEquals(3, seen.get(0).getSpec().getReplicas(), "the first pass reads the version written, not the older one");
        assertEquals(List.of("deployments true"), waits);
    }

    @Test
    void aPassWhoseCacheLagsBeyondTheBoundReadsWhatIsCachedAndTheWaitIsCounted() throws Exception {
        List<String> waits = new CopyOnWriteArrayList<>();
        readingItsWrites(Duration.ofMillis(50), waits);

        assertTrue(queue.awaitIdle(WAIT), "the queue drains");
        assertEquals("5", seen.get(0).getMetadata().getResourceVersion());
        assertEquals(List.of("deployments false"), waits);
    }

    @Test
    void differentKeysPassInParallelUpToTheWorkers() throws Exception {
        CountDownLatch bothInAPass = new CountDownLatch(2);
        List<Boolean> metTheOther = new CopyOnWriteArrayList<>();
        start(definition(null, false, null, 2), (deployment, context) -> {
            bothInAPass.countDown();
            metTheOther.add(bothInAPass.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            return Result.done();
        });
        source.add(deployment("a", "1", 1));
        source.add(deployment("b", "1", 1));

        assertTrue(queue.awaitIdle(WAIT), "the queue drains");
        assertEquals(List.of(true, true), metTheOther, "two workers: the passes of two keys overlap");
    }

    @Test
    void watchedChangesOvertakeTheInitialListAndResyncsWhichStillGetTwoOfEveryThreePasses() throws Exception {
        runner = runner(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        runner.attachPrimary(source);
        for (int i = 0; i < 5; i++) {
            source.listed(deployment("listed-" + i, "1", 1));
        }
        source.update(deployment("listed-4", "1", 1)); // a resync: same resourceVersion, stays behind
        source.update(deployment("listed-3", "2", 2)); // a watched change of a listed object: promoted
        source.add(deployment("fresh", "3", 1));
        runner.startWorkers(workers, timers);

        awaitOutcomes(6);
        assertEquals(List.of("listed-3", "listed-0", "listed-1", "fresh", "listed-2", "listed-4"),
                seen.stream().map(deployment -> deployment.getMetadata().getName()).toList());
    }

    @Test
    void everyObjectOfTheInitialListIsReconciledOnce() throws Exception {
        runner = runner(definition(null, false, null, 2), (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        runner.attachPrimary(source);
        for (String name : List.of("a", "b", "c")) {
            source.listed(deployment(name, "1", 1));
        }
        runner.startWorkers(workers, timers);

        awaitOutcomes(3);
        assertTrue(queue.awaitIdle(WAIT), "the queue drains");
        assertEquals(List.of("a", "b", "c"), seen.stream().map(deployment -> deployment.getMetadata().getName()).sorted().toList(),
                "each listed object once, none twice");
    }

    @Test
    void keysOfShardsThisReplicaDoesNotOwnLeaveTheQueueWithoutAPassAndComeBackWhenItTakesThem() throws Exception {
        java.util.Set<String> owned = java.util.concurrent.ConcurrentHashMap.newKeySet();
        owned.add("a");
        runner = runner(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        runner.shareWork(new dev.mooring.engine.replica.ShardGuard(key -> owned.contains(key.name()), key -> true));
        runner.attachPrimary(source);
        runner.startWorkers(workers, timers);
        source.add(deployment("a", "1", 1));
        source.add(deployment("b", "1", 1));
        assertTrue(queue.awaitIdle(WAIT), "the queue drains");
        assertEquals(List.of("a"), seen.stream().map(deployment -> deployment.getMetadata().getName()).toList(),
                "b is another replica's");
        assertEquals(0, queue.depth());

        owned.add("b"); // this replica takes b's shard
        runner.enqueueCached(key -> key.name().equals("b"));
        awaitOutcomes(2);
        assertEquals(List.of("a", "b"), seen.stream().map(deployment -> deployment.getMetadata().getName()).toList());
    }

    @Test
    void updatesThatChangeOnlyTheStatusAreDroppedAndResyncsAreNot() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);

        V1Deployment statusOnly = deployment("web", "2", 1).status(new V1DeploymentStatus().readyReplicas(1));
        source.update(statusOnly);
        assertTrue(queue.awaitIdle(WAIT));
        assertEquals(1, outcomes.size(), "a status-only update (the controller's own status write) starts no pass");

        source.update(statusOnly);
        awaitOutcomes(2);
        assertEquals("2", seen.get(1).getMetadata().getResourceVersion(), "an update to the same version (a resync) does");

        V1Deployment labelled = deployment("web", "3", 1).status(new V1DeploymentStatus().readyReplicas(1));
        labelled.getMetadata().putLabelsItem("tier", "front");
        source.update(labelled);
        awaitOutcomes(3);
        assertEquals("3", seen.get(2).getMetadata().getResourceVersion(), "a change outside the status does");
    }

    @Test
    void statusEventsMakeStatusOnlyUpdatesStartPasses() throws Exception {
        start(definition(null, true, null), (deployment, context) -> Result.done());
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        source.update(deployment("web", "2", 1).status(new V1DeploymentStatus().readyReplicas(1)));
        awaitOutcomes(2);
    }

    @Test
    void anObjectGoneFromTheCacheIsNotReconciled() throws Exception {
        start(definition(null, false, null), (deployment, context) -> Result.done());
        runner.enqueue(new ObjectKey("ops", "never-seen"));
        assertTrue(queue.awaitIdle(WAIT));
        assertEquals(List.of(), outcomes, "nothing cached under that key: no pass, nothing counted");
        assertEquals(List.of(), client.requests);
    }

    @Test
    void aChangeOfAChildStartsAPassOfItsControllingOwnerWhileItIsCachedWithTheSameUid() throws Exception {
        FakeSource<V1ConfigMap> children = new FakeSource<>(CONFIG_MAPS);
        runner = runner(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        runner.attachPrimary(source);
        runner.attachOwned(children);
        runner.startWorkers(workers, timers);
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);

        children.add(child("web-config", "uid-web", true));
        awaitOutcomes(2);
        children.add(child("not-controlled", "uid-web", false));
        children.add(child("of-an-older-web", "uid-replaced", true));
        assertTrue(queue.awaitIdle(WAIT));
        assertEquals(2, outcomes.size(), "an owner that is not the controller, or another object of the name: no pass");

        children.delete(child("of-an-older-web", "uid-replaced", true));
        awaitOutcomes(3);
        assertEquals(List.of(), client.requests, "an unchanged object's passes send nothing");
    }

    @Test
    void aFailingWatchMappingOrAFailedSourceFailsTheControllerOnce() throws Exception {
        FakeSource<V1ConfigMap> dependency = new FakeSource<>(CONFIG_MAPS);
        runner = runner(definition(null, false, null), (deployment, context) -> Result.done());
        runner.attachPrimary(source);
        runner.attachWatch(dependency, new WatchMapper(V1ConfigMap.class, "the test's mapper", object -> {
            throw new IllegalArgumentException("no key for " + object.getMetadata().getName());
        }));
        runner.startWorkers(workers, timers);

        dependency.add(child("settings", "uid-web", false));
        assertEquals(ControllerState.FAILED, runner.state());
        assertTrue(runner.failure().orElseThrow().getMessage().contains("by the test's mapper failed"),
                runner.failure().orElseThrow().getMessage());
        source.failWith(new IllegalStateException("403 on the watch"));
        assertEquals(List.of(runner), failed, "the runtime is told once");
        source.add(deployment("web", "1", 1));
        assertEquals(0, queue.depth(), "a failed controller's queue takes no work");
    }

    @Test
    void theSourcesAreThePrimaryFirstEachOnceAndAFailureOfAnyFailsTheController() throws Exception {
        FakeSource<V1ConfigMap> children = new FakeSource<>(CONFIG_MAPS);
        FakeSource<V1ConfigMap> dependency = new FakeSource<>(new ResourceType<>("", "v1", "Secret", "secrets", true,
                V1ConfigMap.class));
        runner = runner(definition(null, false, null), (deployment, context) -> Result.done());
        runner.attachPrimary(source);
        runner.attachOwned(children);
        runner.attachWatch(dependency, new WatchMapper(V1ConfigMap.class, "none", object -> List.of()));
        runner.attachWatch(dependency, new WatchMapper(V1ConfigMap.class, "again", object -> List.of()));
        assertEquals(List.of(source, children, dependency), runner.sources());
        runner.startWorkers(workers, timers);

        children.failWith(new IllegalStateException("403 on the children's watch"));
        assertEquals(ControllerState.FAILED, runner.state(), "an owned kind's source failing fails the controller");
        assertTrue(runner.failure().orElseThrow().getMessage().contains("403 on the children's watch"),
                runner.failure().orElseThrow().getMessage());
    }

    @Test
    void aPassAskedForByKeyRunsAgainstTheCachedObject() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        runner.enqueue(new ObjectKey("ops", "web"));
        awaitOutcomes(2);
        assertEquals(2, seen.size());
        assertThrows(NullPointerException.class, () -> runner.enqueue(null));
    }

    @Test
    void aWatchMappingMayReadThePrimariesCacheToFindWhoRefersToTheChange() throws Exception {
        FakeSource<V1ConfigMap> dependency = new FakeSource<>(CONFIG_MAPS);
        List<String> reconciled = new CopyOnWriteArrayList<>();
        runner = runner(definition(null, false, null), (deployment, context) -> {
            reconciled.add(deployment.getMetadata().getName());
            return Result.done();
        });
        runner.attachPrimary(source);
        runner.attachWatch(dependency, new WatchMapper(V1ConfigMap.class, "by reference", new WatchMapper.Mapping() {
            @Override
            public java.util.Collection<?> map(io.kubernetes.client.common.KubernetesObject object) {
                throw new AssertionError("the runner hands the primaries' cache to the mapper");
            }

            @Override
            @SuppressWarnings("unchecked")
            public java.util.Collection<?> map(io.kubernetes.client.common.KubernetesObject object, dev.mooring.api.Cache<?> primaries) {
                return ((dev.mooring.api.Cache<V1Deployment>) primaries).list(object.getMetadata().getNamespace()).stream()
                        .filter(d -> d.getMetadata().getName().startsWith(object.getMetadata().getName()))
                        .map(ObjectKey::of).toList();
            }
        }));
        runner.startWorkers(workers, timers);
        source.add(deployment("web-a", "1", 1));
        source.add(deployment("db", "1", 1));
        awaitOutcomes(2);
        reconciled.clear();

        dependency.add(child("web", "uid-none", false));
        awaitOutcomes(3);
        assertEquals(List.of("web-a"), reconciled, "only the primary the mapper found in the cache");
    }

    // --- retries on the queue's clock ---

    @Test
    void afterItsRetryLimitAKeyIsGivenUpUntilItsObjectChanges() throws Exception {
        List<String> gaveUp = new CopyOnWriteArrayList<>();
        ControllerDefinition limited = definition(null, false, null).toBuilder()
                .queuePolicy(new dev.mooring.engine.model.QueuePolicy(null, null, 2, 0, 0)).build();
        List<dev.mooring.api.Attempt> attempts = new CopyOnWriteArrayList<>();
        Reconciler<V1Deployment> failing = (deployment, context) -> {
            seen.add(deployment);
            attempts.add(context.attempt());
            throw new IllegalStateException("always");
        };
        runner = new ControllerRunner<>(limited, Pass.of(limited, failing, null), PassEnvironment.of(client.forEveryNamespace()), queue, new PassObserver() {
            @Override
            public void passed(String controller, Outcome.Kind outcome, Duration duration) {
                outcomes.add(outcome);
            }

            @Override
            public void gaveUp(String controller) {
                gaveUp.add(controller);
            }
        }, failed::add);
        runner.attachPrimary(source);
        runner.startWorkers(workers, timers);
        ObjectKey web = new ObjectKey("ops", "web");
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        for (int retry = 1; retry <= 2; retry++) {
            await(() -> queue.delayed() == 1 && queue.processing() == 0, "retry waits");
            ticker.addAndGet(Duration.ofSeconds(retry).toNanos()); // 1 s, then 2 s
            queue.depth();
            awaitOutcomes(1 + retry);
        }
        await(() -> queue.processing() == 0, "the third pass is done");
        assertEquals(List.of("deployments"), gaveUp, "two retries failed too: given up");
        assertEquals(0, queue.delayed(), "no retry after the limit");
        assertEquals(0, queue.numRetries(web));
        assertEquals(3, runner.status().errors());
        assertEquals(List.of(new dev.mooring.api.Attempt(1, false), new dev.mooring.api.Attempt(2, false),
                new dev.mooring.api.Attempt(3, true)), attempts, "the third pass knew it was the last");

        runner.enqueue(web); // a child's event or a resync: the object has not changed
        assertTrue(queue.awaitIdle(WAIT));
        assertEquals(3, seen.size(), "no pass of an unchanged object given up");
        source.update(deployment("web", "2", 2));
        awaitOutcomes(4);
        assertEquals(2, seen.get(3).getSpec().getReplicas(), "a change brings it back, with its retries counted afresh");
        assertEquals(dev.mooring.api.Attempt.FIRST, attempts.get(3));
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "its first retry waits again");
        assertEquals(1, queue.numRetries(web));
    }

    @Test
    void aPollThatSeesTheExternalStateChangeReconcilesTheObjectAndStopsWithTheController() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> external = new java.util.concurrent.atomic.AtomicReference<>("v1");
        java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        ControllerDefinition polled = definition(null, false, null).toBuilder().polls(List.of(new dev.mooring.engine.model.Poller(
                "Bean.state", Duration.ofMillis(1), true, object -> {
                    polls.incrementAndGet();
                    return external.get();
                }))).build();
        start(polled, (deployment, context) -> {
            seen.add(deployment);
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        int before = polls.get();
        await(() -> polls.get() > before + 2, "polls go on");
        assertEquals(1, outcomes.size(), "an unchanged external state: no pass");
        external.set("v2");
        awaitOutcomes(2);
        runner.stop();
        int stopped = polls.get();
        assertTrue(queue.awaitIdle(WAIT));
        assertTrue(polls.get() <= stopped + 1, "at most the poll running at the stop finishes");
    }

    @Test
    void anErrorIsRetriedAfterTheBackoffOnTheQueuesClockAndASuccessForgetsIt() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            if (seen.size() == 1) {
                throw new IllegalStateException("the first pass fails");
            }
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.ERROR, outcomes.get(0));
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "the retry waits");
        assertEquals(1, queue.numRetries(ObjectKey.of(seen.get(0))));

        ticker.addAndGet(Duration.ofMillis(999).toNanos());
        assertEquals(1, queue.delayed(), "not due before the base delay");
        ticker.addAndGet(Duration.ofMillis(1).toNanos());
        queue.depth(); // a read promotes due keys and wakes a worker, as its timed wait would
        awaitOutcomes(2);
        assertEquals(Outcome.Kind.SUCCESS, outcomes.get(1));
        await(() -> queue.processing() == 0, "the pass is done");
        assertEquals(0, queue.numRetries(ObjectKey.of(seen.get(0))), "a success forgets the failures");
        assertEquals(1, runner.status().errors());
        assertEquals(1, runner.status().successes());
    }

    @Test
    void aRequestedRequeueOrAWaitComesBackAfterItsDelayWithoutBackoff() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            if (seen.size() == 1) {
                return Result.requeueAfter(Duration.ofSeconds(7));
            }
            throw new Wait("NotReady", "the database is starting", Duration.ofSeconds(3));
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "the requeue waits");
        ticker.addAndGet(Duration.ofSeconds(7).toNanos());
        queue.depth();
        awaitOutcomes(2);
        assertEquals(List.of(Outcome.Kind.SUCCESS, Outcome.Kind.SUCCESS), outcomes, "a Wait is a success");
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "the wait's delay");
        assertEquals(0, queue.numRetries(new ObjectKey("ops", "web")), "no backoff counted");
        ticker.addAndGet(Duration.ofMillis(2999).toNanos());
        assertEquals(1, queue.delayed(), "not before its 3 s");
        ticker.addAndGet(Duration.ofMillis(1).toNanos());
        queue.depth();
        awaitOutcomes(3);
    }

    @Test
    void aTerminalErrorIsCountedAndNotRetried() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            throw new TerminalException("replicas must be odd");
        });
        source.add(deployment("web", "1", 2));
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.TERMINAL, outcomes.get(0));
        ticker.addAndGet(Duration.ofHours(1).toNanos());
        assertTrue(queue.awaitIdle(WAIT), "nothing delayed");
        assertEquals(1, outcomes.size());
        assertEquals(0, queue.numRetries(new ObjectKey("ops", "web")));
        assertEquals(1, runner.status().terminalErrors());
    }

    /** The conditions a controller's stages manage are refused to its passes (the definition says which). */
    @Test
    void aPassMayNotSetAConditionItsControllersStagesManage() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> refused = new java.util.concurrent.atomic.AtomicReference<>();
        start(definition(null, false, null).toBuilder().managedConditions(java.util.Set.of("Ready")).build(), (deployment, context) -> {
            try {
                context.condition("Ready", "True", "Done", "");
            } catch (IllegalArgumentException e) {
                refused.set(e.getMessage());
            }
            return Result.done();
        });
        source.add(deployment("web", "1", 2));
        awaitOutcomes(1);
        assertEquals("Condition Ready is managed by the controller's stages", refused.get());
    }

    /** A staged bean whose one stage has cases, none of which matches, and no Otherwise. */
    static final class NoCaseMatches {
        @dev.mooring.api.Stage(value = "Configured", order = 1)
        @dev.mooring.api.Case(when = "never", priority = 1)
        void configure(V1Deployment deployment) {
        }

        boolean never(V1Deployment deployment) {
            return false;
        }
    }

    @Test
    void aStageWithoutAMatchingCaseNorOtherwiseFailsTerminallyWithReadyFalse() throws Exception {
        startPass(definition(null, false, null), new StagePipeline<>(dev.mooring.engine.model.StagePlan.of(NoCaseMatches.class,
                V1Deployment.class), new NoCaseMatches()));
        V1Deployment web = deployment("web", "1", 2);
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.TERMINAL, outcomes.get(0));
        String status = client.requests.stream().filter(request -> request.startsWith("PATCH status")).findFirst().orElseThrow();
        assertTrue(status.contains("\"type\":\"Ready\"") && status.contains("\"reason\":\"TerminalError\""), status);
        ticker.addAndGet(Duration.ofHours(1).toNanos());
        assertTrue(queue.awaitIdle(WAIT), "nothing delayed");
        assertEquals(1, outcomes.size(), "not retried");
    }

    @Test
    void aPassPastItsTimeoutIsInterruptedCountedAsCancelledAndRetried() throws Exception {
        List<String> interrupts = new CopyOnWriteArrayList<>();
        start(definition(Duration.ofMillis(50), false, null), (deployment, context) -> {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                interrupts.add("interrupted");
                throw e;
            }
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        assertEquals(List.of(Outcome.Kind.CANCELLED), outcomes);
        assertEquals(List.of("interrupted"), interrupts, "the pass was interrupted");
        await(() -> queue.delayed() == 1, "the cancelled pass is retried with backoff");
        assertEquals(1, runner.status().cancellations());
        assertEquals(ControllerState.READY, runner.state(), "the worker's own interrupt was cleared: it goes on");
    }

    // --- status ---

    @Test
    void theStatusStagedInAFailedPassIsWrittenAndThePassRetried() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            context.updateStatus(d -> d.setStatus(new V1DeploymentStatus().observedGeneration(1L).replicas(2)));
            throw new IllegalStateException("failed after staging");
        });
        V1Deployment web = deployment("web", "1", 2);
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.ERROR, outcomes.get(0));
        assertEquals(1, client.requests.size(), "one request while the cache is current: " + client.requests);
        assertTrue(client.requests.get(0).startsWith("PATCH status ops/web ") && client.requests.get(0).contains("\"replicas\":2")
                && client.requests.get(0).contains("{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"1\"}"),
                "guarded by the cached resourceVersion: " + client.requests.get(0));
        await(() -> queue.delayed() == 1, "retried");
    }

    /** Stages {@code status.replicas} from what failed; a Wait or a success stages nothing. */
    private static final class ShapingFailures implements Reconciler<V1Deployment> {
        final List<String> hooked = new CopyOnWriteArrayList<>();
        volatile Exception next;
        volatile boolean hookThrows;

        @Override
        public Result reconcile(V1Deployment deployment, dev.mooring.api.Context<V1Deployment> context) throws Exception {
            context.updateStatus(d -> d.setStatus(new V1DeploymentStatus().observedGeneration(1L)));
            if (next != null) {
                throw next;
            }
            return Result.done();
        }

        @Override
        public void failed(V1Deployment deployment, dev.mooring.api.Context<V1Deployment> context, Exception error) {
            hooked.add(deployment.getMetadata().getResourceVersion() + " " + error.getMessage());
            context.updateStatus(d -> d.getStatus().replicas(error.getMessage().length()));
            if (hookThrows) {
                throw new IllegalStateException("the hook's own failure");
            }
        }
    }

    @Test
    void aFailureHookShapesTheStatusWrittenAfterAnErrorOrATerminalErrorAndLeavesTheOutcome() throws Exception {
        ShapingFailures reconciler = new ShapingFailures();
        reconciler.next = new IllegalStateException("four");
        start(definition(null, false, null), reconciler);
        V1Deployment web = deployment("web", "1", 2);
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        assertEquals(List.of(Outcome.Kind.ERROR), outcomes, "still an error");
        assertEquals(List.of("1 four"), reconciler.hooked, "the hook saw the object and the failure");
        assertTrue(client.requests.get(0).contains("\"replicas\":4") && client.requests.get(0).contains("\"observedGeneration\":1"),
                "one status write: what the pass staged and what the hook added: " + client.requests);
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "retried with backoff as before");

        reconciler.next = new dev.mooring.api.TerminalException("terminal");
        reconciler.hookThrows = true;
        source.update(deployment("web", "2", 3)); // a change of the spec: an update that only moves the resourceVersion is dropped
        awaitOutcomes(2);
        assertEquals(Outcome.Kind.TERMINAL, outcomes.get(1), "a throwing hook leaves the outcome");
        assertEquals("2 terminal", reconciler.hooked.get(1));

        reconciler.next = new dev.mooring.api.Wait("Pending", "not yet", Duration.ofMinutes(1));
        source.update(deployment("web", "3", 4));
        awaitOutcomes(3);
        assertEquals(Outcome.Kind.SUCCESS, outcomes.get(2), "a Wait is no failure");
        assertEquals(2, reconciler.hooked.size(), "and calls no hook");
    }

    @Test
    void aStatusWriteFromAStaleCacheIsRefusedThenWrittenFromTheStoredObject() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            context.updateStatus(d -> d.setStatus(new V1DeploymentStatus().replicas(2)));
            return Result.done();
        });
        client.stored.add(deployment("web", "5", 2)); // the store is ahead of the cache
        source.add(deployment("web", "4", 2));
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.SUCCESS, outcomes.get(0));
        assertEquals(3, client.requests.size(), client.requests.toString());
        assertTrue(client.requests.get(0).startsWith("PATCH status ops/web ") && client.requests.get(0).contains("\"value\":\"4\""),
                "first from the cache: " + client.requests.get(0));
        assertEquals("GET ops/web", client.requests.get(1), "refused as stale, then read");
        assertTrue(client.requests.get(2).startsWith("PATCH status ops/web ") && client.requests.get(2).contains("\"value\":\"5\"")
                && client.requests.get(2).contains("\"replicas\":2"), "then from the stored object: " + client.requests.get(2));
    }

    @Test
    void aFailedPassWhoseStatusWriteFailsTooStaysItsOwnErrorAndBothAreLoggedWithTheObjectAndController() throws Exception {
        LogCapture log = new LogCapture(PassDispatcher.class);
        LogCapture runnerLog = new LogCapture(ControllerRunner.class);
        log.start();
        runnerLog.start();
        try {
            client.statusWriteFailure = new IllegalStateException("status refused");
            start(definition(null, false, null), (deployment, context) -> {
                context.updateStatus(d -> d.setStatus(new V1DeploymentStatus().replicas(2)));
                throw new IllegalStateException("the pass's own failure");
            });
            V1Deployment web = deployment("web", "1", 2);
            client.stored.add(web);
            source.add(web);
            awaitOutcomes(1);
            assertEquals(Outcome.Kind.ERROR, outcomes.get(0));
            assertTrue(log.lines().contains("WARNING Could not persist the status of V1Deployment ops/web (controller deployments): status refused"),
                    log.lines().toString());
            assertTrue(runnerLog.lines().stream().anyMatch(line -> line.startsWith("WARNING Reconcile of V1Deployment ops/web (controller"
                    + " deployments) failed; retry in 1.00 s: java.lang.IllegalStateException: the pass's own failure")),
                    runnerLog.lines().toString());
        } finally {
            log.stop();
            runnerLog.stop();
        }
    }

    @Test
    void aFailedStatusWriteMakesASucceededPassAnError() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            context.updateStatus(d -> d.setStatus(new V1DeploymentStatus().replicas(2)));
            return Result.done();
        });
        client.statusWriteFailure = new IllegalStateException("409 Conflict");
        V1Deployment web = deployment("web", "1", 2);
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.ERROR, outcomes.get(0));
        await(() -> queue.delayed() == 1, "retried with backoff");
        assertEquals(0, runner.status().successes());
    }

    @Test
    void aPassIsASpanWithItsObjectAndOutcomeAndTheRequestsItSendsAreItsChildren() throws Exception {
        dev.mooring.engine.trace.RecordingTracing tracing = new dev.mooring.engine.trace.RecordingTracing();
        io.kubernetes.client.openapi.ApiClient api = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        api.setHttpClient(new okhttp3.OkHttpClient.Builder()
                .addInterceptor(new dev.mooring.engine.kube.RequestTiming((method, host, code, latency) -> { }, tracing))
                .addInterceptor(chain -> new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1)
                        .code(201).message("Created").body(okhttp3.ResponseBody.create("{}", okhttp3.MediaType.get("application/json")))
                        .build()).build());
        EventRecorder events = new EventRecorder(new dev.mooring.engine.kube.KubeHttp(api), "mooring/deployments", "ops");
        PassObserver observer = new PassObserver() {
            @Override
            public void passed(String controller, Outcome.Kind outcome, Duration duration) {
                outcomes.add(outcome);
            }

            @Override
            public dev.mooring.engine.trace.Tracing tracing() {
                return tracing;
            }
        };
        runner = new ControllerRunner<>(definition(null, false, null), (deployment, context) -> {
            context.event(dev.mooring.api.EventType.NORMAL, "Scaled", "scaled to 2");
            throw new IllegalStateException("not yet");
        }, new PassEnvironment(client.forEveryNamespace(), RequestScope.NONE, events, java.time.Clock.systemUTC()), queue, observer,
                failed::add);
        runner.attachPrimary(source);
        runner.startWorkers(workers, timers);
        V1Deployment web = deployment("web", "1", 2);
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        List<dev.mooring.engine.trace.RecordingTracing.Recorded> passes = tracing.of("pass");
        assertEquals(1, passes.size(), tracing.spans.toString());
        dev.mooring.engine.trace.RecordingTracing.Recorded pass = passes.get(0);
        assertEquals("Deployment", pass.attributes.get("kind"));
        assertEquals("ops", pass.attributes.get("namespace"));
        assertEquals("web", pass.attributes.get("name"));
        assertEquals(runner.name(), pass.attributes.get("controller"));
        assertTrue(pass.attributes.get("reconcile_id").matches("[0-9a-f-]{36}"), pass.attributes.toString());
        for (long end = System.nanoTime() + WAIT.toNanos(); !pass.ended && System.nanoTime() < end; ) {
            Thread.sleep(10); // the span ends as the worker leaves the pass, just after the outcome is counted
        }
        assertTrue(pass.ended, "the pass span ended");
        assertEquals("error", pass.outcome);
        List<dev.mooring.engine.trace.RecordingTracing.Recorded> requests = tracing.of("request");
        assertEquals(1, requests.size(), "the Event's POST: " + tracing.spans);
        assertEquals(pass, requests.get(0).parent);
        assertEquals("POST", requests.get(0).attributes.get("method"));
        assertEquals("201", requests.get(0).outcome);
    }

    @Test
    void aPassesEventsAreSentAlsoWhenItsStatusWriteFailed() throws Exception {
        List<String> posted = new CopyOnWriteArrayList<>();
        io.kubernetes.client.openapi.ApiClient api = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        api.setHttpClient(new okhttp3.OkHttpClient.Builder().addInterceptor(chain -> {
            okio.Buffer body = new okio.Buffer();
            chain.request().body().writeTo(body);
            posted.add(body.readUtf8());
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(201)
                    .message("Created").body(okhttp3.ResponseBody.create("{}", okhttp3.MediaType.get("application/json"))).build();
        }).build());
        EventRecorder events = new EventRecorder(new dev.mooring.engine.kube.KubeHttp(api), "mooring/deployments", "ops");
        PassObserver observer = (controller, outcome, duration) -> outcomes.add(outcome);
        runner = new ControllerRunner<>(definition(null, false, null), (deployment, context) -> {
            context.event(dev.mooring.api.EventType.NORMAL, "Scaled", "scaled to 2");
            context.updateStatus(d -> d.setStatus(new V1DeploymentStatus().replicas(2)));
            return Result.done();
        }, new PassEnvironment(client.forEveryNamespace(), RequestScope.NONE, events, java.time.Clock.systemUTC()), queue, observer,
                failed::add);
        runner.attachPrimary(source);
        runner.startWorkers(workers, timers);
        client.statusWriteFailure = new IllegalStateException("409 Conflict");
        V1Deployment web = deployment("web", "1", 2);
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.ERROR, outcomes.get(0), "the failed status write fails the pass");
        assertEquals(1, posted.size(), "the Event was sent all the same: " + posted);
        assertTrue(posted.get(0).contains("\"reason\":\"Scaled\""), posted.get(0));
    }

    @Test
    void aTerminalErrorWhoseStatusWriteFailsIsRetriedSoThatTheStatusIsWritten() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            context.updateStatus(d -> d.setStatus(new V1DeploymentStatus().replicas(2)));
            throw new dev.mooring.api.TerminalException("the spec cannot work");
        });
        client.statusWriteFailure = new IllegalStateException("409 Conflict");
        V1Deployment web = deployment("web", "1", 2);
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        assertEquals(Outcome.Kind.ERROR, outcomes.get(0), "not terminal: the status that says why is not written yet");
        await(() -> queue.delayed() == 1, "retried with backoff");
    }

    @Test
    void aStatusEqualToTheCachedOneSendsNoRequest() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            context.updateStatus(d -> d.getStatus().setReplicas(2));
            return Result.done();
        });
        V1Deployment web = deployment("web", "1", 2).status(new V1DeploymentStatus().replicas(2));
        client.stored.add(web);
        source.add(web);
        awaitOutcomes(1);
        assertEquals(List.of(Outcome.Kind.SUCCESS), outcomes);
        assertEquals(List.of(), client.requests, "a pass over an unchanged object sends nothing");
    }

    @Test
    void aDesiredStateReconcilersChangesAreOneGuardedPatchItsStatusASubresourceWriteAndNoChangeNoRequest() throws Exception {
        DesiredStateReconciler<V1Deployment> desired = (deployment, context) -> {
            if (deployment.getMetadata().getName().equals("web")) {
                deployment.getMetadata().setLabels(new java.util.HashMap<>(java.util.Map.of("team", "blue")));
                deployment.setStatus(new V1DeploymentStatus().replicas(2));
            }
            return deployment;
        };
        startPass(definition(null, false, null), Pass.of(definition(null, false, null), desired, null));
        V1Deployment web = deployment("web", "7", 2);
        V1Deployment same = deployment("same", "1", 1);
        client.stored.add(web);
        client.stored.add(same);
        source.add(same);
        awaitOutcomes(1);
        assertEquals(List.of(), client.requests, "an object returned unchanged costs no request");

        source.add(web);
        awaitOutcomes(2);
        assertEquals(List.of(Outcome.Kind.SUCCESS, Outcome.Kind.SUCCESS), outcomes);
        assertEquals(2, client.requests.size(), client.requests.toString());
        String main = client.requests.get(0);
        assertTrue(main.startsWith("PATCH ops/web ") && main.contains("\"op\":\"test\",\"path\":\"/metadata/uid\"")
                && main.contains("\"path\":\"/metadata/resourceVersion\",\"value\":\"7\"") && main.contains("\"team\":\"blue\"")
                && !main.contains("/status"), "one patch of the labels, guarded by UID and resourceVersion: " + main);
        assertTrue(client.requests.get(1).startsWith("PATCH status ops/web ") && client.requests.get(1).contains("\"replicas\":2")
                && client.requests.get(1).contains("{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"8\"}"),
                "the status from the version the main patch made, with no read: " + client.requests.get(1));
    }

    // --- finalizers ---

    @Test
    void theFinalizerIsAddedBeforeReconcileAndReconcileSeesIt() throws Exception {
        Cleaning cleaning = new Cleaning();
        cleaning.result = Result.requeueAfter(Duration.ofSeconds(7));
        start(definition(null, false, FINALIZER), cleaning);
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        assertEquals(List.of("ADD FINALIZER ops/web " + FINALIZER, "reconcile [" + FINALIZER + "]"), client.requests);
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "the reconciler's requeue, through the finalizer's pass");
        cleaning.result = Result.requeueAfter(Duration.ofSeconds(9));

        client.requests.clear();
        V1Deployment marked = deployment("web", "2", 2);
        marked.getMetadata().addFinalizersItem(FINALIZER);
        source.update(marked);
        awaitOutcomes(2);
        assertEquals(List.of("reconcile [" + FINALIZER + "]"), client.requests, "a marked object: no request first");
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "a marked object's requeue too");
        ticker.addAndGet(Duration.ofSeconds(8).toNanos());
        assertEquals(1, queue.delayed(), "the 9 s requeue of the second pass, not the first's 7 s");
    }

    @Test
    void anObjectBeingDeletedIsCleanedUpThenReleasedAndNeverReconciled() throws Exception {
        Cleaning cleaning = new Cleaning();
        start(definition(null, false, FINALIZER), cleaning);
        V1Deployment deleting = deployment("web", "1", 1);
        deleting.getMetadata().deletionTimestamp(OffsetDateTime.now()).addFinalizersItem("other/finalizer")
                .addFinalizersItem(FINALIZER);
        source.add(deleting);
        awaitOutcomes(1);
        assertEquals(List.of("cleanup", "REMOVE FINALIZER ops/web " + FINALIZER), client.requests);

        client.requests.clear();
        V1Deployment released = deployment("web", "2", 1);
        released.getMetadata().deletionTimestamp(OffsetDateTime.now()).addFinalizersItem("other/finalizer");
        source.update(released);
        awaitOutcomes(2);
        assertEquals(List.of(), client.requests, "without our finalizer: no cleanup, no request");
    }

    @Test
    void aFailedCleanupKeepsTheFinalizerAndIsRetried() throws Exception {
        Cleaning cleaning = new Cleaning();
        cleaning.cleanupFailure = new IllegalStateException("the bucket is still in use");
        start(definition(null, false, FINALIZER), cleaning);
        V1Deployment deleting = deployment("web", "1", 1);
        deleting.getMetadata().deletionTimestamp(OffsetDateTime.now()).addFinalizersItem(FINALIZER);
        source.add(deleting);
        awaitOutcomes(1);
        assertEquals(List.of(Outcome.Kind.ERROR), outcomes);
        assertEquals(List.of("cleanup"), client.requests, "the finalizer stays");
        await(() -> queue.delayed() == 1, "retried");
    }

    // --- helpers ---

    /** A reconciler with cleanup that writes each call into the client's request log, in order. */
    private final class Cleaning implements Reconciler<V1Deployment>, Cleanup<V1Deployment> {
        volatile Exception cleanupFailure;
        volatile Result result = Result.done();

        @Override
        public Result reconcile(V1Deployment resource, Context<V1Deployment> context) {
            client.requests.add("reconcile " + resource.getMetadata().getFinalizers());
            return result;
        }

        @Override
        public void cleanup(V1Deployment resource, Context<V1Deployment> context) throws Exception {
            client.requests.add("cleanup");
            if (cleanupFailure != null) {
                throw cleanupFailure;
            }
        }
    }

    // --- forgetting failures, stopping, failing ---

    @Test
    void aTerminalErrorForgetsTheFailuresBeforeIt() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            seen.add(deployment);
            if (seen.size() == 1) {
                throw new IllegalStateException("the first pass fails");
            }
            throw new TerminalException("then it is hopeless");
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "the retry waits");
        ticker.addAndGet(Duration.ofSeconds(1).toNanos());
        queue.depth();
        awaitOutcomes(2);
        await(() -> queue.processing() == 0, "the pass is done");
        assertEquals(Outcome.Kind.TERMINAL, outcomes.get(1));
        assertEquals(0, queue.numRetries(new ObjectKey("ops", "web")), "a terminal error is not retried: its backoff is forgotten");
    }

    @Test
    void aKeyWhoseObjectLeftTheCacheForgetsItsFailuresWithoutAPass() throws Exception {
        start(definition(null, false, null), (deployment, context) -> {
            throw new IllegalStateException("fails");
        });
        V1Deployment web = deployment("web", "1", 1);
        source.add(web);
        awaitOutcomes(1);
        await(() -> queue.delayed() == 1 && queue.processing() == 0, "the retry waits");
        source.delete(web);
        await(() -> queue.depth() == 0 && queue.processing() == 0 && queue.delayed() == 0, "the deletion's pass found nothing");
        assertEquals(0, queue.numRetries(new ObjectKey("ops", "web")), "nothing left to retry");
        assertEquals(1, outcomes.size(), "no pass of an object that is gone");
    }

    @Test
    void theStatusCountsThePassesAndTimesTheUnfinishedWorkOnTheQueuesClock() throws Exception {
        CountDownLatch inPass = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(definition(null, false, null), (deployment, context) -> {
            inPass.countDown();
            release.await();
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        assertTrue(inPass.await(10, TimeUnit.SECONDS));
        ticker.addAndGet(Duration.ofMillis(2500).toNanos());
        assertEquals(2.5, runner.status().unfinishedWorkSeconds(), 1e-9);
        assertEquals(2.5, runner.status().longestRunningSeconds(), 1e-9);
        assertEquals(1, runner.status().processing());
        release.countDown();
        awaitOutcomes(1);
        await(() -> runner.status().successes() == 1, "counted");
        double took = runner.status().durationSeconds();
        assertTrue(took > 0 && took < 60, "the pass's real duration in seconds: " + took);
    }

    @Test
    void oneWorkerRunsOnePassAtATime() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> began = new CopyOnWriteArrayList<>();
        start(definition(null, false, null, 1), (deployment, context) -> {
            began.add(deployment.getMetadata().getName());
            release.await();
            return Result.done();
        });
        source.add(deployment("a", "1", 1));
        source.add(deployment("b", "1", 1));
        await(() -> began.size() == 1, "the first pass began");
        Thread.sleep(200); // a second worker would have taken b by now
        assertEquals(1, began.size(), "b waits for the one worker: " + began);
        release.countDown();
        awaitOutcomes(2);
    }

    @Test
    void aStopLetsTheRunningPassFinishWithinTheShutdownTimeout() throws Exception {
        CountDownLatch inPass = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> ends = new CopyOnWriteArrayList<>();
        start(ControllerDefinition.builder("deployments", V1Deployment.class).namespace("ops").workers(1)
                .resync(Duration.ofHours(10)).syncTimeout(Duration.ofSeconds(5)).shutdownTimeout(Duration.ofHours(1))
                .build(), (deployment, context) -> {
                    inPass.countDown();
                    try {
                        release.await();
                        ends.add("finished");
                    } catch (InterruptedException e) {
                        ends.add("interrupted");
                        throw e;
                    }
                    return Result.done();
                });
        source.add(deployment("web", "1", 1));
        assertTrue(inPass.await(10, TimeUnit.SECONDS));
        java.util.concurrent.Future<?> stopping = workers.submit(runner::stop);
        await(() -> runner.state() == ControllerState.STOPPED, "stopping");
        Thread.sleep(200);
        assertTrue(!stopping.isDone(), "the stop waits for the pass to drain");
        release.countDown();
        stopping.get(10, TimeUnit.SECONDS);
        assertEquals(List.of("finished"), ends, "the pass was not interrupted within the shutdown timeout");
        assertTrue(runner.awaitWorkersStopped(WAIT));
        assertTrue(!runner.beginStop(), "a second stop has nothing to stop");
    }

    @Test
    void aStopWithoutShutdownTimeoutInterruptsTheRunningPassAtOnce() throws Exception {
        CountDownLatch inPass = new CountDownLatch(1);
        List<String> ends = new CopyOnWriteArrayList<>();
        start(ControllerDefinition.builder("deployments", V1Deployment.class).namespace("ops").workers(1)
                .resync(Duration.ofHours(10)).syncTimeout(Duration.ofSeconds(5)).shutdownTimeout(Duration.ZERO)
                .build(), (deployment, context) -> {
                    inPass.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        ends.add("interrupted");
                        throw e;
                    }
                    return Result.done();
                });
        source.add(deployment("web", "1", 1));
        source.add(deployment("next", "1", 1));
        assertTrue(inPass.await(10, TimeUnit.SECONDS));
        runner.stop();
        assertTrue(runner.awaitWorkersStopped(WAIT), "the worker left");
        assertEquals(List.of("interrupted"), ends);
        assertEquals(ControllerState.STOPPED, runner.state());
        assertEquals(0, queue.depth(), "ready work is discarded too");
    }

    @Test
    void aPassThatIgnoresInterruptsKeepsItsWorkerAndAFailedControllerStaysFailedWhenStopped() throws Exception {
        CountDownLatch inPass = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean leave = new java.util.concurrent.atomic.AtomicBoolean();
        start(definition(null, false, null), (deployment, context) -> {
            inPass.countDown();
            while (!leave.get()) {
                Thread.onSpinWait(); // deaf to interrupts
            }
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        assertTrue(inPass.await(10, TimeUnit.SECONDS));
        runner.fail(new IllegalStateException("lost the lease"));
        assertTrue(!runner.awaitWorkersStopped(Duration.ofMillis(100)), "the worker still runs the pass");
        leave.set(true);
        assertTrue(runner.awaitWorkersStopped(WAIT));
        assertTrue(!runner.beginStop(), "a failed controller is not stopped again");
        runner.stop();
        assertEquals(ControllerState.FAILED, runner.state());
        assertEquals("lost the lease", runner.status().failure());
    }

    @Test
    void aPassWaitingForTheWorkersDoesNotWaitForItself() throws Exception {
        List<Boolean> answers = new CopyOnWriteArrayList<>();
        start(definition(null, false, null), (deployment, context) -> {
            answers.add(runner.awaitWorkersStopped(Duration.ofHours(1)));
            return Result.done();
        });
        source.add(deployment("web", "1", 1));
        awaitOutcomes(1);
        assertEquals(List.of(true), answers);
    }

    @Test
    void aFailedControllerNoLongerAsksTheAuthorsMapperNorFailsAgain() throws Exception {
        FakeSource<V1ConfigMap> dependency = new FakeSource<>(CONFIG_MAPS);
        List<String> mapped = new CopyOnWriteArrayList<>();
        runner = runner(definition(null, false, null), (deployment, context) -> Result.done());
        runner.attachPrimary(source);
        runner.attachWatch(dependency, new WatchMapper(V1ConfigMap.class, "the recording mapper", object -> {
            mapped.add(object.getMetadata().getName());
            return List.of(new ObjectKey("ops", "web"));
        }));
        runner.startWorkers(workers, timers);
        dependency.add(child("one", "uid-web", false));
        assertEquals(List.of("one"), mapped);

        source.failWith(new IllegalStateException("403 on the primary's watch"));
        assertEquals(ControllerState.FAILED, runner.state(), "the primary's source failing fails the controller");
        dependency.add(child("two", "uid-web", false));
        assertEquals(List.of("one"), mapped, "a failed controller does not run the author's mapper");
    }

    @Test
    void aMetadataOnlyWatchIsASourceOnceAndItsFailureFailsTheController() throws Exception {
        FakeSource<dev.mooring.api.PartialObjectMetadata> metadata = new FakeSource<>(new ResourceType<>("", "v1", "Secret", "secrets",
                true, dev.mooring.api.PartialObjectMetadata.class));
        runner = runner(definition(null, false, null), (deployment, context) -> Result.done());
        runner.attachPrimary(source);
        runner.attachWatch(metadata, new WatchMapper(io.kubernetes.client.openapi.models.V1Secret.class, "by name", object -> List.of(),
                true, dev.mooring.engine.kube.Selectors.NONE));
        runner.attachWatch(metadata, new WatchMapper(io.kubernetes.client.openapi.models.V1Secret.class, "again", object -> List.of(),
                true, dev.mooring.engine.kube.Selectors.NONE));
        assertEquals(List.of(source, metadata), runner.sources());
        runner.startWorkers(workers, timers);
        metadata.failWith(new IllegalStateException("403 on the metadata watch"));
        assertEquals(ControllerState.FAILED, runner.state());
    }

    @dev.mooring.api.CustomResource(group = "example.com", version = "v1")
    static class Tracked extends dev.mooring.api.CustomObject {
        Status status;

        static class Status {
            Long observedGeneration;
        }
    }

    @Test
    void aSucceededPassOfACustomResourceThatDeclaresObservedGenerationWritesItAndAFailedOneDoesNot() throws Exception {
        ResourceType<Tracked> type = new ResourceType<>("example.com", "v1", "Tracked", "trackeds", true, Tracked.class);
        FakeSource<Tracked> tracked = new FakeSource<>(type);
        List<Outcome.Kind> passes = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean();
        ControllerRunner<Tracked> runs = new ControllerRunner<>(ControllerDefinition.builder("trackeds", Tracked.class)
                .namespace("ops").workers(1).resync(Duration.ofHours(10)).syncTimeout(Duration.ofSeconds(5))
                .shutdownTimeout(Duration.ofSeconds(5)).build(),
                (object, context) -> {
                    if (failing.get()) {
                        throw new IllegalStateException("fails");
                    }
                    return Result.done();
                }, PassEnvironment.of(client.forEveryNamespace()), queue,
                (controller, outcome, duration) -> passes.add(outcome), failed::add);
        runs.attachPrimary(tracked);
        runs.startWorkers(workers, timers);
        try {
            Tracked object = new Tracked();
            object.setMetadata(new V1ObjectMeta().namespace("ops").name("t").uid("uid-t").resourceVersion("1").generation(5L));
            client.stored.add(object);
            tracked.add(object);
            await(() -> passes.size() == 1 && queue.processing() == 0, "the pass");
            assertTrue(client.requests.stream().anyMatch(request -> request.startsWith("PATCH status ops/t")
                    && request.contains("\"path\":\"/status\",\"value\":{\"observedGeneration\":5}")), client.requests.toString());

            client.requests.clear();
            failing.set(true);
            Tracked changed = new Tracked();
            changed.setMetadata(new V1ObjectMeta().namespace("ops").name("t").uid("uid-t").resourceVersion("2").generation(6L));
            tracked.update(changed);
            await(() -> passes.size() == 2 && queue.processing() == 0, "the failed pass");
            assertTrue(client.requests.stream().noneMatch(request -> request.startsWith("PATCH status")),
                    "a failed pass did not observe generation 6: " + client.requests);
        } finally {
            runs.stop();
        }
    }

    private void start(ControllerDefinition definition, Reconciler<V1Deployment> reconciler) {
        startPass(definition, Pass.of(definition, reconciler, null));
    }

    private void startPass(ControllerDefinition definition, Pass<V1Deployment> pass) {
        runner = new ControllerRunner<>(definition, pass, PassEnvironment.of(client.forEveryNamespace()), queue,
                (controller, outcome, duration) -> outcomes.add(outcome), failed::add);
        runner.attachPrimary(source);
        runner.startWorkers(workers, timers);
    }

    private ControllerRunner<V1Deployment> runner(ControllerDefinition definition, Reconciler<V1Deployment> reconciler) {
        return new ControllerRunner<>(definition, Pass.of(definition, reconciler, null), PassEnvironment.of(client.forEveryNamespace()),
                queue, (controller, outcome, duration) -> outcomes.add(outcome), failed::add);
    }

    private static ControllerDefinition definition(Duration reconcileTimeout, boolean statusEvents, String finalizer) {
        return definition(reconcileTimeout, statusEvents, finalizer, 1);
    }

    private static ControllerDefinition definition(Duration reconcileTimeout, boolean statusEvents, String finalizer, int workers) {
        return ControllerDefinition.builder("deployments", V1Deployment.class).namespace("ops").workers(workers)
                .resync(Duration.ofHours(10)).syncTimeout(Duration.ofSeconds(5)).shutdownTimeout(Duration.ofSeconds(5))
                .reconcileTimeout(reconcileTimeout).statusEvents(statusEvents).finalizer(finalizer).build();
    }

    private static V1Deployment deployment(String name, String resourceVersion, int replicas) {
        return new V1Deployment().apiVersion("apps/v1").kind("Deployment")
                .metadata(new V1ObjectMeta().namespace("ops").name(name).uid("uid-" + name)
                        .resourceVersion(resourceVersion).generation(1L))
                .spec(new V1DeploymentSpec().replicas(replicas).selector(new V1LabelSelector())
                        .template(new V1PodTemplateSpec()));
    }

    private static V1ConfigMap child(String name, String ownerUid, boolean controller) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().namespace("ops").name(name)
                .uid("uid-" + name).resourceVersion("1").ownerReferences(new ArrayList<>(List.of(new V1OwnerReference()
                        .apiVersion("apps/v1").kind("Deployment").name("web").uid(ownerUid).controller(controller)))));
    }

    private void awaitOutcomes(int count) throws InterruptedException {
        await(() -> outcomes.size() >= count, count + " pass(es)");
        assertEquals(count, outcomes.size(), "passes: " + outcomes);
    }

    /** Waits (bounded by real time) for what other threads do; the test's clock decides nothing here. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("Not within " + WAIT.toSeconds() + " s: " + what);
            }
            Thread.sleep(5);
        }
    }
}
