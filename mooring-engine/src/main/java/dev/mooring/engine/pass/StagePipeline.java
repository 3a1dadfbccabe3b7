package dev.mooring.engine.pass;

import dev.mooring.api.Context;
import dev.mooring.api.EventType;
import dev.mooring.api.Result;
import dev.mooring.api.TerminalException;
import dev.mooring.api.Wait;
import dev.mooring.engine.model.StagePlan;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The pass of a {@code Staged} bean: the stages of its {@link StagePlan} in order, stopping at the
 * first that waits or fails, reporting each stage's condition and the summary {@code Ready} (see
 * {@code Staged} for the rules).
 */
public final class StagePipeline<T extends KubernetesObject> implements Pass<T> {

    private final StagePlan plan;
    private final Object bean;

    public StagePipeline(StagePlan plan, Object bean) {
        this.plan = plan;
        this.bean = bean;
    }

    /** The conditions this pipeline manages. */
    public Set<String> managedConditions() {
        return plan.managedConditions();
    }

    @Override
    public Result run(T resource, ReconcileContext<T> pass) throws Exception {
        List<StagePlan.StageSpec> stages = plan.stages();
        Optional<Duration> requeue = Optional.empty();
        for (int i = 0; i < stages.size(); i++) {
            StagePlan.StageSpec stage = stages.get(i);
            try {
                Result result = run(stage, resource, pass);
                pass.managedCondition(stage.name(), "True", "Succeeded", "");
                if (result != null && result.requeueAfter().isPresent()) {
                    Duration delay = result.requeueAfter().get();
                    requeue = Optional.of(requeue.map(current -> current.compareTo(delay) <= 0 ? current : delay).orElse(delay));
                }
            } catch (Wait wait) {
                pass.managedCondition(stage.name(), "False", wait.reason(), wait.getMessage());
                blockLater(pass, stages, i);
                pass.managedCondition(StagePlan.READY, "False", wait.reason(), wait.getMessage());
                throw wait;
            } catch (Exception e) {
                String reason = e instanceof TerminalException ? "TerminalError" : "ReconcileFailed";
                String message = stage.name() + " failed: " + FailureSummary.of(e);
                pass.managedCondition(stage.name(), "False", reason, message);
                blockLater(pass, stages, i);
                boolean givenUp = !(e instanceof TerminalException) && pass.attempt().last();
                pass.managedCondition(StagePlan.READY, "False", givenUp ? "RetriesExhausted" : reason, givenUp
                        ? message + " (attempt " + pass.attempt().number() + ", the last: given up until the object changes)" : message);
                pass.queueEvent(EventType.WARNING, reason, stage.name(), message);
                throw e;
            }
        }
        pass.managedCondition(StagePlan.READY, "True", "Reconciled", "all stages succeeded");
        return requeue.map(Result::requeueAfter).orElse(Result.done());
    }

    private static <T extends KubernetesObject> void blockLater(ReconcileContext<T> pass, List<StagePlan.StageSpec> stages,
            int failed) {
        for (int later = failed + 1; later < stages.size(); later++) {
            pass.managedCondition(stages.get(later).name(), "Unknown", "DependencyNotReady",
                    stages.get(failed).name() + " is not ready");
        }
    }

    private Result run(StagePlan.StageSpec stage, T resource, Context<T> context) throws Exception {
        if (stage.handler() != null) {
            return invoke(stage.handler(), resource, context);
        }
        for (StagePlan.Branch branch : stage.cases()) {
            Object matches = call(branch.predicate(), resource);
            if (Boolean.TRUE.equals(matches)) {
                return invoke(branch.handler(), resource, context);
            }
        }
        if (stage.otherwise() != null) {
            return invoke(stage.otherwise(), resource, context);
        }
        throw new TerminalException("No case of stage " + stage.name() + " matched; add an @Otherwise method if this is expected");
    }

    private Result invoke(Method method, T resource, Context<T> context) throws Exception {
        Object result = method.getParameterCount() == 1 ? call(method, resource) : call(method, resource, context);
        return result instanceof Result value ? value : null;
    }

    private Object call(Method method, Object... arguments) throws Exception {
        try {
            return method.invoke(bean, arguments);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
