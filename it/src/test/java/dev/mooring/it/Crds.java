package dev.mooring.it;

import dev.mooring.engine.kube.KubeHttp;
import java.time.Duration;
import java.util.Map;

/** Installs CustomResourceDefinitions for the tests (raw JSON: client-java's CRD models send fields the server rejects). */
public final class Crds {

    private Crds() {
    }

    /** Create the CRD {@code plural.group} from {@code json} unless it exists, then wait until the group version serves it. */
    public static void install(KubeHttp http, String group, String version, String plural, String json) throws InterruptedException {
        if (http.getOptional("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + plural + "." + group, Map.of()).isEmpty()) {
            http.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", Map.of(), json, "application/json");
        }
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < end) {
            var served = http.getOptional("/apis/" + group + "/" + version, Map.of());
            if (served.isPresent() && served.get().toString().contains("\"" + plural + "\"")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the CRD " + plural + "." + group + " was not served within 30 s");
    }
}
