package dev.mooring.test;

import dev.mooring.api.client.ResourceClient;
import dev.mooring.engine.client.LiveResourceClient;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A test's view of the cluster its operator runs against: live clients and waiting with a
 * timeout. {@link MooringExtension} hands one out; an integration test of the deployed EAR gets
 * one with {@link #fromKubeconfig} (the {@code mooring.test.kubeconfig} that {@code mooring:start}
 * sets).
 */
public final class MooringCluster {

    private final KubeHttp http;
    private final DiscoveredKinds types;

    MooringCluster(KubeHttp http) {
        this.http = http;
        this.types = new DiscoveredKinds(http);
    }

    /**
     * The cluster of a kubeconfig file.
     *
     * @throws UncheckedIOException when the file cannot be read
     */
    public static MooringCluster fromKubeconfig(Path kubeconfig) {
        try {
            return new MooringCluster(new KubeHttp(Config.fromConfig(kubeconfig.toString())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kubeconfig " + kubeconfig, e);
        }
    }

    /** A live client whose default namespace is {@code namespace}, with the kubeconfig's identity. */
    public ResourceClient client(String namespace) {
        return new LiveResourceClient(http, types, namespace);
    }

    /**
     * Waits until the object exists and satisfies {@code condition}, reading it live every 100 ms.
     *
     * @return the object as it satisfied the condition
     * @throws AssertionError naming the object and its last state when the timeout passes first
     */
    public <T extends KubernetesObject> T awaitObject(Class<T> kind, String namespace, String name, Predicate<T> condition,
            Duration timeout) {
        ResourceClient client = client(namespace);
        return Eventually.await(kind.getSimpleName() + " " + namespace + "/" + name + " to satisfy the condition", timeout,
                () -> client.get(kind, namespace, name), found -> found.isPresent() && condition.test(found.get())).get();
    }

    /**
     * Waits until {@code condition} holds, checking every 100 ms ({@link Eventually} also waits
     * on a value and retries a check that throws).
     *
     * @throws AssertionError naming {@code what} when the timeout passes first
     */
    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        Eventually.await(what, timeout, condition::getAsBoolean);
    }
}
