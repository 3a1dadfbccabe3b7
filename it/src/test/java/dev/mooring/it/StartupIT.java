package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.test.Eventually;
import jakarta.json.JsonObject;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readiness is DOWN until the initial sync: the EAR is deployed while the API server is down,
 * and becomes ready only once the server is back and the controller has listed its kind.
 */
@ExtendWith(ArquillianExtension.class)
class StartupIT {

    private static final String DEPLOYMENT = "startup";
    private static final String ADMISSION = "startup-admission";

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static EnterpriseArchive deployment() {
        return Ears.mooring();
    }

    @Deployment(name = ADMISSION, managed = false, testable = false)
    static EnterpriseArchive admission() {
        return Ears.withLibrary("startup-admission.ear", org.jboss.shrinkwrap.api.ShrinkWrap.create(
                org.jboss.shrinkwrap.api.spec.JavaArchive.class, "pod-policy.jar")
                .addClasses(dev.mooring.examples.admission.PodPolicy.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml"));
    }

    /** Admission with a declared cache is not ready while the API server is down, and becomes ready when it is back. */
    @Test
    void admissionWaitsForItsCachesWhileTheApiServerIsDown() throws Exception {
        String port = Testbed.env().getProperty("TESTBED_PORT");
        Testbed.stop();
        try {
            deployer.deploy(ADMISSION);
            Http.Answer ready = Eventually.await("the certificate served, the cache waiting", Duration.ofSeconds(30),
                    () -> Http.get("/health/ready"), answer -> answer.body().contains("waiting for discovery"));
            assertEquals(503, ready.status(), ready.body());
            JsonObject admission = ready.check("mooring-admission");
            assertEquals("DOWN", admission.getString("status"));
            assertTrue(admission.getJsonObject("data").getString("cache Namespace").startsWith("waiting for discovery"),
                    ready.body());
            assertEquals(200, Http.get("/health/live").status(), "an API server that is down is not a fatal failure");
        } finally {
            Testbed.restart(port);
        }
        try {
            Http.Answer ready = Eventually.await("admission ready after the API server is back", Duration.ofSeconds(90),
                    () -> Http.get("/health/ready"), answer -> answer.status() == 200);
            assertEquals("UP", ready.check("mooring-admission").getString("status"));
        } finally {
            deployer.undeploy(ADMISSION);
        }
    }

    @Test
    void readinessWaitsForTheInitialSync() throws Exception {
        String port = Testbed.env().getProperty("TESTBED_PORT");
        Testbed.stop();
        try {
            deployer.deploy(DEPLOYMENT);

            Http.Answer ready = Http.get("/health/ready");
            assertEquals(503, ready.status(), "ready before the initial sync: " + ready.body());
            JsonObject check = ready.check("mooring-controllers");
            assertEquals("starting", check.getJsonObject("data").getString("configmap-mirror"));
            assertEquals(503, Http.get("/health/started").status());
            assertEquals(200, Http.get("/health/live").status(), "an API server that is down is not a fatal failure");
        } finally {
            Testbed.restart(port);
        }
        Eventually.await("readiness UP after the API server is back", Duration.ofSeconds(60),
                () -> Http.get("/health/ready"), answer -> answer.status() == 200);
        assertEquals(200, Http.get("/health/started").status());
        deployer.undeploy(DEPLOYMENT);
    }
}
