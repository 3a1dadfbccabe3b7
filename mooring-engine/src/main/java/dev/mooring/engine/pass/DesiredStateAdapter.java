package dev.mooring.engine.pass;

import dev.mooring.api.DesiredStateReconciler;
import dev.mooring.api.Result;
import dev.mooring.api.patch.Patches;
import dev.mooring.engine.kube.Models;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonValue;

/**
 * The pass of a {@link DesiredStateReconciler}: the returned object is compared
 * with the one the pass began with; changes outside {@code status} are one guarded JSON Patch
 * (the {@code test} operations of {@link Patches#diff}), the status is staged for the pass's status
 * write, and nothing is sent when nothing changed.
 */
final class DesiredStateAdapter<T extends KubernetesObject> implements Pass<T> {

    private final DesiredStateReconciler<T> author;

    DesiredStateAdapter(DesiredStateReconciler<T> author) {
        this.author = author;
    }

    @Override
    public Result run(T resource, ReconcileContext<T> context) throws Exception {
        T original = Models.copy(resource);
        T desired = author.desired(resource, context);
        if (desired == null) {
            return Result.done();
        }
        context.stageStatusOf(desired);
        JsonArray operations = Patches.diff(original, desired);
        JsonArrayBuilder main = Json.createArrayBuilder();
        boolean changes = false;
        for (JsonValue operation : operations) {
            String path = operation.asJsonObject().getString("path");
            if (path.equals("/status") || path.startsWith("/status/")) {
                continue;
            }
            changes |= !"test".equals(operation.asJsonObject().getString("op"));
            main.add(operation);
        }
        if (changes) {
            context.primaryWritten(context.client().patch(original, main.build()));
        }
        return Result.done();
    }

    /** The author's reconciler, for messages. */
    @Override
    public String toString() {
        return author.getClass().getName();
    }
}
