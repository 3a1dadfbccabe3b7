package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.mooring.api.Cleanup;
import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.Stage;
import dev.mooring.api.Staged;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.it.widget.WidgetCrd;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pass over an unchanged object sends no request, reads included, for each controller style:
 * plain (a child ensured, a condition and a status field staged), with a finalizer and cleanup,
 * staged, and applying its children (a change then applies only the child it changes). Adding the finalizer to a new object is one request; so is a status write from a
 * current cache.
 */
class RequestEconomyIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String FINALIZER = "example.com/cleanup";

    /** Stages the widget's message as its observed message. */
    static void observe(Widget widget, Context<Widget> context) {
        context.updateStatus(w -> {
            if (w.getStatus() == null) {
                w.setStatus(new Widget.Status());
            }
            w.getStatus().observedMessage = widget.getSpec().message;
        });
    }

    /** Ensures a child, stages a condition and a status field. */
    static class Plain implements Reconciler<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                    .metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-config"))
                    .data(Map.of("message", widget.getSpec().message)));
            observe(widget, context);
            context.condition("ConfigReady", "True", "Configured", "configured with " + widget.getSpec().message);
            return Result.done();
        }
    }

    /** The same with a finalizer and a cleanup. */
    static final class Finalizing extends Plain implements Cleanup<Widget> {
        @Override
        public void cleanup(Widget widget, Context<Widget> context) {
        }
    }

    /** Only the finalizer: its first pass adds it, and nothing else. */
    static final class FinalizerOnly implements Reconciler<Widget>, Cleanup<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            return Result.done();
        }

        @Override
        public void cleanup(Widget widget, Context<Widget> context) {
        }
    }

    /** Two stages that stage conditions and a status field. */
    public static final class Stages implements Staged<Widget> {
        @Stage(value = "ConfigReady", order = 1)
        void config(Widget widget, Context<Widget> context) {
            observe(widget, context);
        }

        @Stage(value = "MessageChecked", order = 2)
        void check(Widget widget, Context<Widget> context) {
        }
    }

    /** Applies two children (a ConfigMap with the message, a Deployment) and writes the status. */
    static final class Applying implements Reconciler<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            String name = widget.getMetadata().getName();
            context.apply(new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                    .metadata(new V1ObjectMeta().name(name + "-config").labels(Map.of("app", name)))
                    .data(Map.of("message", widget.getSpec().message)));
            context.apply(new V1Deployment().apiVersion("apps/v1").kind("Deployment").metadata(new V1ObjectMeta().name(name + "-web"))
                    .spec(new V1DeploymentSpec().replicas(1).selector(new V1LabelSelector().matchLabels(Map.of("app", name)))
                            .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", name)))
                                    .spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("web:1")
                                            .ports(List.of(new V1ContainerPort().containerPort(8080)))))))));
            observe(widget, context);
            return Result.done();
        }
    }

    @Test
    void anApplyingPassOverAnUnchangedObjectSendsNoRequestAndAChangeAppliesOnlyTheChildItChanges() throws Exception {
        List<Class<? extends io.kubernetes.client.common.KubernetesObject>> owns = List.of(V1ConfigMap.class, V1Deployment.class);
        String namespace = steadyState("applying", new Applying(), null, null, owns);
        assertEquals(List.of("PATCH /api/v1/namespaces/" + namespace + "/configmaps/w-config",
                "PATCH " + widgetPath(namespace) + "/w/status"), messageChanged("applying", new Applying(), owns, namespace),
                "one apply of the child that changed, one status write; the Deployment untouched");
        assertEquals("changed", new CoreV1Api(Testbed.client()).readNamespacedConfigMap("w-config", namespace).execute()
                .getData().get("message"));
    }

    @Test
    void anEnsuringPassThatChangesOneFieldSendsOnePatchOfTheChildAndOneStatusWrite() throws Exception {
        List<Class<? extends io.kubernetes.client.common.KubernetesObject>> owns = List.of(V1ConfigMap.class);
        String namespace = steadyState("ensuring", new Plain(), null, null, owns);
        assertEquals(List.of("PATCH /api/v1/namespaces/" + namespace + "/configmaps/w-config",
                "PATCH " + widgetPath(namespace) + "/w/status"), messageChanged("ensuring", new Plain(), owns, namespace));
    }

    /** Creates its ConfigMap once and writes the status. */
    static final class CreatingOnce implements Reconciler<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            context.createOnce(new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                    .metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-config"))
                    .data(Map.of("message", widget.getSpec().message)));
            observe(widget, context);
            return Result.done();
        }
    }

    @Test
    void aCreatingOncePassSendsNoRequestUnchangedAndOnlyTheStatusWriteWhenChanged() throws Exception {
        List<Class<? extends io.kubernetes.client.common.KubernetesObject>> owns = List.of(V1ConfigMap.class);
        String namespace = steadyState("creating-once", new CreatingOnce(), null, null, owns);
        assertEquals(List.of("PATCH " + widgetPath(namespace) + "/w/status"),
                messageChanged("creating-once", new CreatingOnce(), owns, namespace), "the child is never written again");
    }

    /** A desired state: a label from the message and the observed message in the status. */
    static final class Desired implements dev.mooring.api.DesiredStateReconciler<Widget> {
        @Override
        public Widget desired(Widget widget, Context<Widget> context) {
            widget.getMetadata().putLabelsItem("message", widget.getSpec().message);
            if (widget.getStatus() == null) {
                widget.setStatus(new Widget.Status());
            }
            widget.getStatus().observedMessage = widget.getSpec().message;
            return widget;
        }
    }

    @Test
    void aDesiredStatePassSendsNoRequestUnchangedAndOnePatchAndOneStatusWriteWhenChanged() throws Exception {
        String namespace = steadyState("desired", new Desired(), null, null, List.of());
        assertEquals(List.of("PATCH " + widgetPath(namespace) + "/w", "PATCH " + widgetPath(namespace) + "/w/status"),
                messageChanged("desired", new Desired(), List.of(), namespace),
                "the label's patch, then the status from the version it made: no read");
    }

    /**
     * A fresh engine of {@code bean} over the objects {@code steadyState} left in {@code namespace}:
     * once quiet, the widget's message changes; the requests its passes sent for that change.
     */
    private List<String> messageChanged(String name, Object bean, List<Class<? extends io.kubernetes.client.common.KubernetesObject>> owns,
            String namespace) throws Exception {
        KubeHttp raw = new KubeHttp(Testbed.client());
        RequestCounter counter = new RequestCounter();
        try (Engine engine = new Engine(counter.client(), watches(), List.of(new OperatorRuntime.Entry(Engine.definition(
                name, Widget.class, namespace, null, 1, owns, List.of()), bean, null)))) {
            engine.awaitReady();
            Eventually.await("quiet", TIMEOUT, () -> status(engine, name), s -> s.successes() >= 1 && s.queued() == 0
                    && s.processing() == 0 && s.delayed() == 0);
            assertTrue(counter.requests.stream().allMatch(request -> request.startsWith("GET ")),
                    "a fresh start over its children sends discovery and lists, no write: " + counter.requests);
            counter.requests.clear();
            raw.send("PATCH", widgetPath(namespace) + "/w", Map.of(), "{\"spec\":{\"message\":\"changed\"}}",
                    "application/merge-patch+json");
            Eventually.await("the changed status", TIMEOUT, () -> raw.get(widgetPath(namespace) + "/w", Map.of()),
                    w -> "changed".equals(w.getAsJsonObject("status").get("observedMessage").getAsString()));
            Eventually.await("quiet again", TIMEOUT, () -> status(engine, name), s -> s.queued() == 0 && s.processing() == 0
                    && s.delayed() == 0);
            Thread.sleep(1000); // the passes its own writes cause
            Eventually.await("quiet at last", TIMEOUT, () -> status(engine, name), s -> s.queued() == 0 && s.processing() == 0
                    && s.delayed() == 0);
            return List.copyOf(counter.requests);
        }
    }

    @Test
    void aPlainPassOverAnUnchangedObjectSendsNoRequest() throws Exception {
        steadyState("plain", new Plain(), null, null, List.of(V1ConfigMap.class));
    }

    @Test
    void aPassWithAFinalizerOverAnUnchangedObjectSendsNoRequest() throws Exception {
        steadyState("finalizing", new Finalizing(), null, FINALIZER, List.of(V1ConfigMap.class));
    }

    @Test
    void aStagedPassOverAnUnchangedObjectSendsNoRequest() throws Exception {
        steadyState("staged", new Stages(), StagePlan.of(Stages.class, Widget.class), null, List.of(V1ConfigMap.class));
    }

    @Test
    void addingTheFinalizerIsOneRequest() throws Exception {
        WidgetCrd.install(Testbed.client());
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "economy");
        RequestCounter counter = new RequestCounter();
        KubeHttp raw = new KubeHttp(Testbed.client());
        try (Engine engine = new Engine(counter.client(), watches(), List.of(new OperatorRuntime.Entry(Engine.definition(
                "finalizer-only", Widget.class, namespace, null, 1, List.of(), List.of(), FINALIZER), new FinalizerOnly())))) {
            engine.awaitReady();
            counter.requests.clear();
            raw.send("POST", "/apis/example.com/v1/namespaces/" + namespace + "/widgets", Map.of(), widget("w"), "application/json");
            Eventually.await("the finalizer added", TIMEOUT, () -> raw.get(widgetPath(namespace) + "/w", Map.of()),
                    w -> w.getAsJsonObject("metadata").has("finalizers"));
            Eventually.await("the passes done", TIMEOUT, () -> status(engine, "finalizer-only"),
                    s -> s.successes() >= 2 && s.queued() == 0 && s.processing() == 0 && s.delayed() == 0);
            assertEquals(List.of("PATCH " + widgetPath(namespace) + "/w"), counter.requests,
                    "the first pass adds the finalizer with one guarded PATCH of the cached object, the next pass sends nothing");
        }
    }

    /** Copies the spec's message into the status. */
    static final class StatusOnly implements Reconciler<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            observe(widget, context);
            return Result.done();
        }
    }

    @Test
    void aStatusWriteFromACurrentCacheIsOneRequest() throws Exception {
        WidgetCrd.install(Testbed.client());
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "economy");
        RequestCounter counter = new RequestCounter();
        KubeHttp raw = new KubeHttp(Testbed.client());
        try (Engine engine = new Engine(counter.client(), watches(), List.of(new OperatorRuntime.Entry(Engine.definition(
                "status-only", Widget.class, namespace, null, 1, List.of(), List.of()), new StatusOnly())))) {
            engine.awaitReady();
            raw.send("POST", "/apis/example.com/v1/namespaces/" + namespace + "/widgets", Map.of(), widget("w"), "application/json");
            Eventually.await("the first status", TIMEOUT, () -> raw.get(widgetPath(namespace) + "/w", Map.of()),
                    w -> w.has("status") && "hello".equals(w.getAsJsonObject("status").get("observedMessage").getAsString()));
            Eventually.await("quiet", TIMEOUT, () -> status(engine, "status-only"), s -> s.queued() == 0 && s.processing() == 0
                    && s.delayed() == 0);
            counter.requests.clear();
            raw.send("PATCH", widgetPath(namespace) + "/w", Map.of(), "{\"spec\":{\"message\":\"changed\"}}",
                    "application/merge-patch+json");
            Eventually.await("the changed status", TIMEOUT, () -> raw.get(widgetPath(namespace) + "/w", Map.of()),
                    w -> "changed".equals(w.getAsJsonObject("status").get("observedMessage").getAsString()));
            Eventually.await("quiet again", TIMEOUT, () -> status(engine, "status-only"), s -> s.queued() == 0
                    && s.processing() == 0 && s.delayed() == 0);
            assertEquals(List.of("PATCH " + widgetPath(namespace) + "/w/status"), counter.requests,
                    "one guarded PATCH from the cached object, no read before it");
        }
    }

    /** Three passes over an unchanged object send nothing; returns the namespace (its objects stay). */
    private String steadyState(String name, Object bean, StagePlan stages, String finalizer,
            List<Class<? extends io.kubernetes.client.common.KubernetesObject>> owns) throws Exception {
        WidgetCrd.install(Testbed.client());
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "economy");
        RequestCounter counter = new RequestCounter();
        KubeHttp raw = new KubeHttp(Testbed.client());
        try (Engine engine = new Engine(counter.client(), watches(), List.of(new OperatorRuntime.Entry(Engine.definition(
                name, Widget.class, namespace, null, 1, owns, List.of(), finalizer), bean, stages)))) {
            engine.awaitReady();
            raw.send("POST", "/apis/example.com/v1/namespaces/" + namespace + "/widgets", Map.of(), widget("w"), "application/json");
            Eventually.await("the status written", TIMEOUT, () -> raw.get(widgetPath(namespace) + "/w", Map.of()),
                    w -> w.has("status") && w.getAsJsonObject("status").has("observedMessage"));
            // the passes caused by its own writes settle
            Eventually.await("quiet", TIMEOUT, () -> status(engine, name), s -> s.queued() == 0 && s.processing() == 0
                    && s.delayed() == 0);
            Thread.sleep(1000);
            long before = status(engine, name).successes();
            counter.requests.clear();
            for (int pass = 1; pass <= 3; pass++) {
                engine.runtime.enqueue(name, new ObjectKey(namespace, "w"));
                long expected = before + pass;
                Eventually.await("pass " + pass, TIMEOUT, () -> status(engine, name), s -> s.successes() >= expected
                        && s.processing() == 0);
            }
            assertEquals(List.of(), counter.requests, name + ": passes over an unchanged object sent requests");
            JsonObject stored = raw.get(widgetPath(namespace) + "/w", Map.of());
            assertTrue(finalizer == null || stored.getAsJsonObject("metadata").getAsJsonArray("finalizers").toString()
                    .contains(finalizer), stored.toString());
        }
        return namespace;
    }

    /**
     * The watch client with the server's default idle timeout (120 s): a watch silent for the
     * client's default 10 s would be checked with a list through the counted request client.
     */
    private static io.kubernetes.client.openapi.ApiClient watches() {
        return Testbed.client().setReadTimeout(120_000);
    }

    private static ControllerStatus status(Engine engine, String name) {
        return engine.runtime.statuses().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static String widget(String name) {
        return "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"spec\":{\"message\":\"hello\"}}";
    }

    private static String widgetPath(String namespace) {
        return "/apis/example.com/v1/namespaces/" + namespace + "/widgets";
    }
}
