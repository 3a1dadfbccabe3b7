package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * A replica whose ServiceAccount may watch its kinds but not use Leases fails at once when
 * leader election is on, with the authorization error in /health/live and in the log, instead of
 * retrying forever.
 */
class LeaseDeniedIT {

    @Test
    void aReplicaThatMayNotUseLeasesFailsVisibly() throws Exception {
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir")).resolveSibling("lease-denied");
        Path runDir = dir.resolve("testbed");
        Properties env = Testbed.up(runDir, "--authorization-mode=RBAC");
        LibertyProcess server = null;
        try {
            ApiClient admin = Config.fromConfig(runDir.resolve("admin.kubeconfig").toString());
            RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(admin);
            rbac.createClusterRole(new V1ClusterRole().metadata(new V1ObjectMeta().name("no-leases")).rules(List.of(
                    new V1PolicyRule().apiGroups(List.of("")).resources(List.of("configmaps")).verbs(List.of("get", "list", "watch",
                            "create", "patch")),
                    new V1PolicyRule().apiGroups(List.of("events.k8s.io")).resources(List.of("events")).verbs(List.of("create")))))
                    .execute();
            rbac.createClusterRoleBinding(new V1ClusterRoleBinding().metadata(new V1ObjectMeta().name("no-leases"))
                    .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole").name("no-leases"))
                    .subjects(List.of(new RbacV1Subject().kind("ServiceAccount").name("operator").namespace("operators")))).execute();
            String token = Testbed.token(runDir, "operators", "operator");
            Path kubeconfig = dir.resolve("operator.kubeconfig");
            Testbed.tokenKubeconfig(kubeconfig, env, token);

            server = LibertyProcess.start("lease-denied", dir.resolve("usr"), Path.of(System.getProperty("mooring.it.ear")),
                    Map.of("KUBECONFIG", kubeconfig.toString()), "mooring.leader-election.enabled=true");
            LibertyProcess started = server;
            Http.Answer live = Eventually.await("liveness DOWN", Duration.ofSeconds(60), () -> started.get("/health/live"),
                    answer -> answer.status() == 503);
            assertTrue(live.body().contains("leader election") && live.body().contains("403"), live.body());
            assertEquals(503, started.get("/health/ready").status());
            assertTrue(Files.readString(started.log()).contains("Leader election failed"), "the failure is not in the log");
        } finally {
            if (server != null) {
                server.command("stop");
            }
            Testbed.down(runDir);
        }
    }
}
