package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.admission.AdmissionRoutes;
import dev.mooring.engine.admission.WebhookConfigurations;
import dev.mooring.engine.certificates.WebhookTls;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.test.Eventually;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook certificate without cert-manager, on a Liberty server and the API server that calls
 * it: the operator makes its CA and certificate at start (no Secret, no file given), the
 * configurations get their CA bundle from it once registered, and the API server's calls succeed
 * from then on, through a renewal by time (same CA) and a forced rotation (the Secret deleted: a
 * new CA), without one failed call.
 */
class SelfManagedCertificatesIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String SERVICE = "certified";
    private final KubeHttp http = new KubeHttp(Testbed.client());
    private LibertyProcess server;
    private String configuration;

    @AfterEach
    void stop() throws Exception {
        if (configuration != null) {
            for (String plural : List.of("mutatingwebhookconfigurations", "validatingwebhookconfigurations")) {
                String path = "/apis/admissionregistration.k8s.io/v1/" + plural + "/" + configuration;
                http.getOptional(path, Map.of()).ifPresent(found -> http.send("DELETE", path, Map.of(), null, null));
            }
        }
        if (server != null) {
            server.command("stop");
        }
    }

    @Test
    void theApiServersCallsSucceedFromRegistrationThroughRenewalAndForcedRotation() throws Exception {
        String namespace = Testbed.createNamespace(new io.kubernetes.client.openapi.apis.CoreV1Api(Testbed.client()), "certified");
        http.send("POST", "/api/v1/namespaces/" + namespace + "/serviceaccounts", Map.of(),
                "{\"metadata\":{\"name\":\"" + SERVICE + "\"}}", "application/json");
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir"), "certified");
        Path ear = Ears.exportWithPackage(dir, "certified.ear", DeploymentPolicy.class, namespace);
        // a serving certificate valid 45 s (backdated by a minute) is renewed after 70 s of its 105: within the test
        server = LibertyProcess.start("certified", dir.resolve("usr"), ear, Map.of(), "mooring.webhook.certificates=self-managed",
                "mooring.webhook.certificates.service=" + SERVICE, "mooring.webhook.certificates.service-account=" + SERVICE,
                "mooring.webhook.certificates.validity=45s", "mooring.webhook.certificates.ca-validity=1h");
        Http.Answer ready = Eventually.await("admission ready", TIMEOUT, () -> server.get("/health/ready"),
                answer -> answer.status() == 200);
        assertTrue(ready.body().contains("self-managed"), ready.body());
        String secret = "/api/v1/namespaces/" + namespace + "/secrets/" + SERVICE + "-tls";
        var owner = http.get(secret, Map.of()).getAsJsonObject("metadata").getAsJsonArray("ownerReferences").get(0).getAsJsonObject();
        assertEquals("ServiceAccount", owner.get("kind").getAsString());
        assertEquals(SERVICE, owner.get("name").getAsString());
        X509Certificate first = served();
        X509Certificate firstCa = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(
                new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(http.get(secret, Map.of())
                        .getAsJsonObject("data").get("ca.crt").getAsString())));
        assertTrue(issuedBy(first, firstCa), "the port serves the Secret's certificate");

        configuration = SERVICE + "." + namespace + ".svc";
        register(namespace);
        Eventually.await("the CA bundle written into both configurations", TIMEOUT, () -> bundled(configuration));

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger admitted = new AtomicInteger();
        List<String> failures = new CopyOnWriteArrayList<>();
        Thread calls = new Thread(() -> {
            for (int i = 0; running.get(); i++) {
                try {
                    var created = http.send("POST", "/apis/apps/v1/namespaces/" + namespace + "/deployments", Map.of(),
                            deployment("d-" + i), "application/json");
                    var labels = created.getAsJsonObject("metadata").getAsJsonObject("labels");
                    if (labels == null || !labels.has(DeploymentPolicy.TEAM)) {
                        failures.add("d-" + i + " was created without the mutating webhook's label: " + labels);
                    } else {
                        admitted.incrementAndGet();
                    }
                    Thread.sleep(200);
                } catch (KubernetesException e) {
                    failures.add("d-" + i + ": " + e.getMessage());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "admission-calls");
        calls.start();
        try {
            X509Certificate renewed = Eventually.await("the serving certificate renewed by time", TIMEOUT, this::served,
                    now -> now != null && !now.equals(first));
            assertTrue(issuedBy(renewed, firstCa), "a renewal keeps the CA");
            int beforeRotation = admitted.get();
            http.send("DELETE", secret, Map.of(), null, null);
            X509Certificate rotated = Eventually.await("a certificate of a new CA after the Secret was deleted", TIMEOUT, this::served,
                    now -> now != null && !issuedBy(now, firstCa));
            assertNotEquals(renewed, rotated);
            int atRotation = admitted.get();
            Eventually.await("calls admitted after the rotation", TIMEOUT, () -> admitted.get() >= atRotation + 10);
            assertTrue(atRotation > beforeRotation, "calls were made while the CA changed");
        } finally {
            running.set(false);
            calls.join(10_000);
        }
        assertEquals(List.of(), failures, "admission calls that failed (" + admitted.get() + " admitted)");
        List<String> bundle = List.of(new String(java.util.Base64.getDecoder().decode(http.get(secret, Map.of())
                .getAsJsonObject("data").get("ca.crt").getAsString())).split("(?<=-----END CERTIFICATE-----\n)"));
        assertEquals(2, bundle.size(), "the new CA and the one it replaced: " + bundle);
    }

    /** The generated configurations of DeploymentPolicy, self-managed (no bundle), limited to the test's namespace. */
    private void register(String namespace) {
        int port = server.httpsPort; // the testbed resolves every service reference to 127.0.0.1 and this port
        V1LabelSelector only = new V1LabelSelector().putMatchLabelsItem("kubernetes.io/metadata.name", namespace);
        for (KubernetesObject object : WebhookConfigurations.of(AdmissionRoutes.of(DeploymentPolicy.class), List.of(), namespace,
                new WebhookConfigurations.Target(configuration, SERVICE, namespace, port, null, null))) {
            String plural;
            if (object instanceof V1MutatingWebhookConfiguration mutating) {
                mutating.getWebhooks().forEach(webhook -> webhook.namespaceSelector(only));
                plural = "mutatingwebhookconfigurations";
            } else {
                ((V1ValidatingWebhookConfiguration) object).getWebhooks().forEach(webhook -> webhook.namespaceSelector(only));
                plural = "validatingwebhookconfigurations";
            }
            http.send("POST", "/apis/admissionregistration.k8s.io/v1/" + plural, Map.of(), Models.toJson(object), "application/json");
        }
    }

    /** True when every webhook of both configurations carries a CA bundle. */
    private boolean bundled(String name) {
        for (String plural : List.of("mutatingwebhookconfigurations", "validatingwebhookconfigurations")) {
            for (var webhook : http.get("/apis/admissionregistration.k8s.io/v1/" + plural + "/" + name, Map.of())
                    .getAsJsonArray("webhooks")) {
                if (!webhook.getAsJsonObject().getAsJsonObject("clientConfig").has("caBundle")) {
                    return false;
                }
            }
        }
        return true;
    }

    private X509Certificate served() {
        WebhookTls.Served served = WebhookTls.served("127.0.0.1", server.httpsPort, Duration.ofSeconds(2));
        return served == null ? null : served.certificate();
    }

    private static boolean issuedBy(X509Certificate certificate, X509Certificate ca) {
        try {
            certificate.verify(ca.getPublicKey());
            return true;
        } catch (java.security.GeneralSecurityException e) {
            return false;
        }
    }

    private static String deployment(String name) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"" + name
                + "\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"" + name + "\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
                + "\"image\":\"busybox\"}]}}}}";
    }
}
