package dev.mooring.examples.patterns;

import dev.mooring.api.Cache;
import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Index;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.Watch;
import dev.mooring.api.patch.Patches;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArray;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The dependency-rollout pattern: watch objects without owning them. A Deployment labelled
 * {@value #OPT_IN}{@code =true} gets the digest of the ConfigMaps its pod template refers to (as
 * volumes, projected volumes, {@code envFrom} or {@code env.valueFrom}) in the pod template's
 * annotation {@value #DIGEST}; a change of one of those ConfigMaps changes the digest, which rolls
 * the Deployment's pods. The ConfigMaps are read from the cache; a ConfigMap's change is mapped back
 * to the Deployments that refer to it through an index of the Deployments' cache. Removing a reference
 * recomputes the digest from the others (and removes the annotation when none is left). The
 * Deployment is written with a guarded patch, and only when the digest changed.
 */
@ApplicationScoped
@Controller(name = "config-reloader", labelSelector = ConfigReloader.OPT_IN + "=true")
public class ConfigReloader implements Reconciler<V1Deployment> {

    /** The label that opts a Deployment in. */
    public static final String OPT_IN = "patterns.mooring.dev/reloader";
    /** The pod-template annotation with the digest of the referenced ConfigMaps. */
    public static final String DIGEST = "patterns.mooring.dev/config-digest";
    /** The name of the Deployments' index by referenced ConfigMap. */
    static final String CONFIG_MAPS = "configmaps";

    @Override
    public Result reconcile(V1Deployment deployment, Context<V1Deployment> context) {
        Cache<V1ConfigMap> configMaps = context.cached(V1ConfigMap.class);
        String namespace = deployment.getMetadata().getNamespace();
        Map<String, Map<String, String>> referenced = new TreeMap<>();
        for (String name : references(deployment)) {
            // a missing ConfigMap counts as empty: its creation changes the digest
            referenced.put(name, configMaps.get(namespace, name).map(ConfigReloader::content).orElse(Map.of()));
        }
        String digest = referenced.isEmpty() ? null : digest(referenced);
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata() == null ? null
                : deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        String current = annotations == null ? null : annotations.get(DIGEST);
        if (java.util.Objects.equals(digest, current)) {
            return Result.done();
        }
        V1Deployment desired = io.kubernetes.client.openapi.JSON.getGson().fromJson(
                io.kubernetes.client.openapi.JSON.getGson().toJson(deployment), V1Deployment.class);
        if (desired.getSpec().getTemplate().getMetadata() == null) {
            desired.getSpec().getTemplate().setMetadata(new io.kubernetes.client.openapi.models.V1ObjectMeta());
        }
        Map<String, String> updated = new HashMap<>(annotations == null ? Map.of() : annotations);
        if (digest == null) {
            updated.remove(DIGEST);
        } else {
            updated.put(DIGEST, digest);
        }
        desired.getSpec().getTemplate().getMetadata().setAnnotations(updated);
        JsonArray patch = Patches.diff(deployment, desired); // tests on UID and resourceVersion: a stale copy conflicts
        context.client().patch(deployment, patch);
        return Result.done();
    }

    /** The opted-in Deployments that refer to the ConfigMap (before and after its change): a lookup in the index below. */
    @Watch
    Set<ObjectKey> deploymentsReferring(V1ConfigMap configMap, Cache<V1Deployment> deployments) {
        return deployments.indexed(CONFIG_MAPS, ObjectKey.of(configMap).toString()).stream().map(ObjectKey::of)
                .collect(Collectors.toSet());
    }

    /** The index of the Deployments' cache by the ConfigMaps they refer to, as {@code namespace/name}. */
    @Index(CONFIG_MAPS)
    Set<String> configMapsReferred(V1Deployment deployment) {
        String namespace = deployment.getMetadata().getNamespace();
        return references(deployment).stream().map(name -> new ObjectKey(namespace, name).toString()).collect(Collectors.toSet());
    }

    /** The names of the ConfigMaps a Deployment's pod template refers to. */
    static Set<String> references(V1Deployment deployment) {
        Set<String> names = new TreeSet<>();
        V1PodSpec pod = deployment.getSpec() == null || deployment.getSpec().getTemplate() == null ? null
                : deployment.getSpec().getTemplate().getSpec();
        if (pod == null) {
            return names;
        }
        for (V1Volume volume : pod.getVolumes() == null ? List.<V1Volume>of() : pod.getVolumes()) {
            if (volume.getConfigMap() != null) {
                add(names, volume.getConfigMap().getName());
            }
            if (volume.getProjected() != null && volume.getProjected().getSources() != null) {
                volume.getProjected().getSources().stream().filter(source -> source.getConfigMap() != null)
                        .forEach(source -> add(names, source.getConfigMap().getName()));
            }
        }
        List<V1Container> containers = Stream.concat(pod.getContainers() == null ? Stream.of() : pod.getContainers().stream(),
                pod.getInitContainers() == null ? Stream.of() : pod.getInitContainers().stream()).toList();
        for (V1Container container : containers) {
            if (container.getEnvFrom() != null) {
                container.getEnvFrom().stream().filter(from -> from.getConfigMapRef() != null)
                        .forEach(from -> add(names, from.getConfigMapRef().getName()));
            }
            if (container.getEnv() != null) {
                container.getEnv().stream().filter(env -> env.getValueFrom() != null && env.getValueFrom().getConfigMapKeyRef() != null)
                        .forEach(env -> add(names, env.getValueFrom().getConfigMapKeyRef().getName()));
            }
        }
        return names;
    }

    /** A reference without a name (the API server refuses those, a cached copy may still carry one) names nothing. */
    private static void add(Set<String> names, String name) {
        if (name != null && !name.isEmpty()) {
            names.add(name);
        }
    }

    private static Map<String, String> content(V1ConfigMap configMap) {
        Map<String, String> content = new TreeMap<>(configMap.getData() == null ? Map.of() : configMap.getData());
        if (configMap.getBinaryData() != null) {
            configMap.getBinaryData().forEach((key, value) -> content.put("binary:" + key, HexFormat.of().formatHex(value)));
        }
        return content;
    }

    /** SHA-256 over each ConfigMap's name and sorted content, in name order. */
    static String digest(Map<String, Map<String, String>> referenced) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            referenced.forEach((name, content) -> {
                sha.update((name + "\u0000").getBytes(StandardCharsets.UTF_8));
                content.forEach((key, value) -> sha.update((key + "\u0000" + value + "\u0000").getBytes(StandardCharsets.UTF_8)));
                sha.update((byte) 1);
            });
            return HexFormat.of().formatHex(sha.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM lacks SHA-256", e);
        }
    }
}
