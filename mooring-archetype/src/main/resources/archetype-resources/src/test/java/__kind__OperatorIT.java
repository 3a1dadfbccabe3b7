package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.test.MooringCluster;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator as it ships: its EAR deployed by Arquillian on the Liberty server that
 * mooring:start prepared, against the local API server (mvn verify).
 */
@ExtendWith(ArquillianExtension.class)
class ${kind}OperatorIT {

    private static final String NAMESPACE = System.getProperty("mooring.test.namespace");
    private static final MooringCluster CLUSTER = MooringCluster.fromKubeconfig(Path.of(System.getProperty("mooring.test.kubeconfig")));

    @Deployment(testable = false)
    static EnterpriseArchive operator() {
        return ShrinkWrap.createFromZipFile(EnterpriseArchive.class, new File(System.getProperty("mooring.test.ear")));
    }

    @Test
    void theDeployedOperatorIsReadyAndKeepsAConfigMapPer${kind}() throws Exception {
        MooringCluster.await("the operator ready", Duration.ofSeconds(60), () -> status("/health/ready") == 200);

        CLUSTER.client(NAMESPACE).create(new ${kind}(NAMESPACE, "deployed", "Hello from Liberty", "en"));
        V1ConfigMap configMap = CLUSTER.awaitObject(V1ConfigMap.class, NAMESPACE, "deployed", map -> map.getData() != null,
                Duration.ofSeconds(30));
        assertEquals("Hello from Liberty", configMap.getData().get("message"));
    }

    private static int status(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:"
                    + System.getProperty("mooring.test.http-port") + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }
}
