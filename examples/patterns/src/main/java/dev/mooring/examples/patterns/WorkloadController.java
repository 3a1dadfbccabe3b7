package dev.mooring.examples.patterns;

import dev.mooring.api.Cache;
import dev.mooring.api.CacheTransform;
import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.Watch;
import io.kubernetes.client.openapi.models.V1Pod;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The workload-summary pattern: aggregate objects the operator does not own. A Workload's status
 * counts the Pods its selector selects, read from the cache; a Pod's change reconciles the
 * Workloads whose selectors select it (found in the Workloads' cache by the {@link Watch}
 * method). No Pod is ever written, and a pass over an unchanged summary sends no request.
 */
@ApplicationScoped
@Controller(name = "workloads")
public class WorkloadController implements Reconciler<Workload> {

    @Override
    public Result reconcile(Workload workload, Context<Workload> context) {
        Map<String, String> selector = workload.getSpec().selector;
        List<V1Pod> pods = context.cached(V1Pod.class).list(workload.getMetadata().getNamespace(), selector);
        int ready = (int) pods.stream().filter(WorkloadController::ready).count();
        Map<String, Integer> phases = pods.stream().collect(Collectors.groupingBy(WorkloadController::phase, TreeMap::new,
                Collectors.summingInt(pod -> 1)));
        context.updateStatus(w -> {
            Workload.Status status = new Workload.Status();
            status.pods = pods.size();
            status.ready = ready;
            status.phases = phases;
            w.setStatus(status);
        });
        return Result.done();
    }

    /**
     * What the cache keeps of a Pod: what this controller reads, its labels and its status. The
     * spec, most of a Pod, and the annotations are dropped: with many Pods, most of the memory.
     */
    @CacheTransform
    V1Pod labelsAndStatus(V1Pod pod) {
        pod.setSpec(null);
        pod.getMetadata().setAnnotations(null);
        return pod;
    }

    /** The Workloads of the Pod's namespace whose selector the Pod's labels satisfy (before and after a change). */
    @Watch
    Set<ObjectKey> workloadsSelecting(V1Pod pod, Cache<Workload> workloads) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        return workloads.list(pod.getMetadata().getNamespace()).stream()
                .filter(workload -> workload.getSpec() != null && workload.getSpec().selector != null
                        && labels.entrySet().containsAll(workload.getSpec().selector.entrySet()))
                .map(ObjectKey::of).collect(Collectors.toSet());
    }

    private static boolean ready(V1Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
    }

    private static String phase(V1Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Unknown" : pod.getStatus().getPhase();
    }
}
