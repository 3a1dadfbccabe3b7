package dev.mooring.it.threads;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Ten controllers for ThreadsIT, each with an informer of its own (its own label selector) and
 * three workers: 40 long-lived loops that wait most of the time, as on an operator's small pod.
 */
public final class Shards {

    private Shards() {
    }

    /** Shard 0. */
    @ApplicationScoped
    @Controller(name = "shard-0", labelSelector = "shard=0", workers = 3)
    public static class Shard0 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 1. */
    @ApplicationScoped
    @Controller(name = "shard-1", labelSelector = "shard=1", workers = 3)
    public static class Shard1 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 2. */
    @ApplicationScoped
    @Controller(name = "shard-2", labelSelector = "shard=2", workers = 3)
    public static class Shard2 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 3. */
    @ApplicationScoped
    @Controller(name = "shard-3", labelSelector = "shard=3", workers = 3)
    public static class Shard3 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 4. */
    @ApplicationScoped
    @Controller(name = "shard-4", labelSelector = "shard=4", workers = 3)
    public static class Shard4 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 5. */
    @ApplicationScoped
    @Controller(name = "shard-5", labelSelector = "shard=5", workers = 3)
    public static class Shard5 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 6. */
    @ApplicationScoped
    @Controller(name = "shard-6", labelSelector = "shard=6", workers = 3)
    public static class Shard6 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 7. */
    @ApplicationScoped
    @Controller(name = "shard-7", labelSelector = "shard=7", workers = 3)
    public static class Shard7 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 8. */
    @ApplicationScoped
    @Controller(name = "shard-8", labelSelector = "shard=8", workers = 3)
    public static class Shard8 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }

    /** Shard 9. */
    @ApplicationScoped
    @Controller(name = "shard-9", labelSelector = "shard=9", workers = 3)
    public static class Shard9 implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            return Result.done();
        }
    }
}
