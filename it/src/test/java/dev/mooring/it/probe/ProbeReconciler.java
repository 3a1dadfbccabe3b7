package dev.mooring.it.probe;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Controllers;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.Watch;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test controller deployed by ContainerFeaturesIT. Its namespace comes from MicroProfile
 * Config; it reports what it observed in a ConfigMap "report-<name>" that the test reads.
 */
@ApplicationScoped
@Controller(name = "probe", namespace = "set-by-config")
public class ProbeReconciler implements Reconciler<V1ConfigMap> {

    @Inject
    PassScope first;

    @Inject
    PassScope second;

    @Inject
    Controllers controllers;

    private final Map<String, AtomicInteger> passes = new ConcurrentHashMap<>();
    private final Set<String> passIds = ConcurrentHashMap.newKeySet();

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
        String name = resource.getMetadata().getName();
        if (name.startsWith("report-")) {
            return Result.done();
        }
        int count = passes.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        String id = first.id();
        boolean sameWithinPass = id.equals(second.id());
        boolean newPerPass = passIds.add(id);
        String enqueue = resource.getData() == null ? null : resource.getData().get("enqueue");
        if (enqueue != null) {
            controllers.enqueue("probe", new ObjectKey(context.key().namespace(), enqueue));
        }
        java.util.List<V1Secret> secrets = context.cached(V1Secret.class).list(context.key().namespace());
        long withData = secrets.stream().filter(secret -> secret.getData() != null).count();
        java.util.List<dev.mooring.api.PartialObjectMetadata> accounts = context.cachedMetadata(
                io.kubernetes.client.openapi.models.V1ServiceAccount.class).list(context.key().namespace());
        V1ConfigMap report = new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().name("report-" + name))
                .data(Map.of("passes", Integer.toString(count), "sameWithinPass", Boolean.toString(sameWithinPass),
                        "newPerPass", Boolean.toString(newPerPass), "namespace", context.key().namespace(),
                        "cachedSecrets", Integer.toString(secrets.size()), "cachedSecretsWithData", Long.toString(withData),
                        "cachedAccounts", Integer.toString(accounts.size()),
                        "accountKinds", accounts.stream().map(account -> account.getApiVersion() + "/" + account.getKind())
                                .distinct().sorted().collect(java.util.stream.Collectors.joining(","))));
        var existing = context.client().get(V1ConfigMap.class, null, "report-" + name);
        if (existing.isEmpty()) {
            context.client().create(report);
        } else {
            V1ConfigMap desired = io.kubernetes.client.openapi.JSON.getGson().fromJson(
                    io.kubernetes.client.openapi.JSON.getGson().toJsonTree(existing.get()), V1ConfigMap.class);
            desired.setData(report.getData());
            var patch = dev.mooring.api.patch.Patches.diff(existing.get(), desired);
            if (!patch.isEmpty()) {
                context.client().patch(existing.get(), patch);
            }
        }
        return Result.done();
    }

    /** Secrets are cached without their values: the mapper reads labels only. */
    @dev.mooring.api.CacheTransform
    V1Secret withoutValues(V1Secret secret) {
        secret.setData(null);
        secret.setStringData(null);
        return secret;
    }

    /** A ServiceAccount labelled target=<name> reconciles that ConfigMap; only the accounts' metadata is listed, watched and cached. */
    @Watch(metadataOf = io.kubernetes.client.openapi.models.V1ServiceAccount.class)
    Set<ObjectKey> accountTargets(dev.mooring.api.PartialObjectMetadata account) {
        Map<String, String> labels = account.getMetadata().getLabels();
        return labels == null || !labels.containsKey("target") ? Set.of()
                : Set.of(new ObjectKey(account.getMetadata().getNamespace(), labels.get("target")));
    }

    /** A Secret labelled target=<name> reconciles that ConfigMap. */
    @Watch
    Set<ObjectKey> secretTargets(V1Secret secret) {
        Map<String, String> labels = secret.getMetadata().getLabels();
        return labels == null || !labels.containsKey("target") ? Set.of()
                : Set.of(new ObjectKey(secret.getMetadata().getNamespace(), labels.get("target")));
    }
}
