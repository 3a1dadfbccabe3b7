package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.examples.patterns.LeaderSession;
import dev.mooring.examples.patterns.PublisherSession;
import dev.mooring.examples.patterns.PublishingController;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lifespan pattern of examples/patterns in a real server with leader election: the leader's
 * publisher session opens when the term begins, before any worker uses it, and closes when the
 * application stops, after the workers have left (no publication in flight) and before the Lease
 * is released.
 */
@ExtendWith(ArquillianExtension.class)
class LifespanIT {

    private static final String APP = "lifespan";
    private static String namespace;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APP, managed = false, testable = false)
    static EnterpriseArchive lifespan() throws Exception {
        namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "lifespan");
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "lifespan.jar")
                .addClasses(LeaderSession.class, PublisherSession.class, PublishingController.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml")
                .addAsManifestResource(new StringAsset("mooring.leader-election.enabled=true\n"
                        + "mooring.namespace=" + namespace + "\n"
                        + "mooring.leader-election.identity=publisher-one\n"), "microprofile-config.properties");
        return Ears.withLibrary("lifespan.ear", module);
    }

    @Test
    void theSessionLivesExactlyAsLongAsTheLeadersWorkers() throws Exception {
        Path log = Path.of(System.getProperty("mooring.it.liberty.log"));
        long offset = Files.exists(log) ? Files.size(log) : 0;
        KubeHttp raw = new KubeHttp(Testbed.client());
        deployer.deploy(APP);
        try {
            for (int i = 0; i < 5; i++) {
                raw.send("POST", "/api/v1/namespaces/" + namespace + "/configmaps", Map.of(), "{\"metadata\":{\"name\":\"record-" + i
                        + "\",\"labels\":{\"" + PublishingController.LABEL + "\":\"true\"}}}", "application/json");
            }
            Eventually.await("the first publication", Duration.ofSeconds(60), () -> Files.readString(log).substring((int) offset),
                    text -> text.contains("Published " + namespace + "/record-"));
        } finally {
            deployer.undeploy(APP); // while publications may still be running
        }
        String text = Files.readString(log).substring((int) offset);
        int acquired = text.indexOf("Acquired Lease");
        int opened = text.indexOf("Publisher session opened for publisher-one");
        int published = text.indexOf("Published " + namespace + "/record-");
        int closed = text.indexOf("Publisher session of publisher-one closed (SHUTDOWN) with 0 publication(s) in flight");
        int released = text.lastIndexOf("Released Lease");
        assertTrue(acquired >= 0 && acquired < opened && opened < published && published < closed && closed < released,
                "order: Lease acquired, session opened, publications, session closed with none in flight, Lease released: "
                        + text.lines().filter(line -> line.contains("Lease") || line.contains("Publish")).toList());
    }
}
