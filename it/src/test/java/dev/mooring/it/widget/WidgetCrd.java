package dev.mooring.it.widget;

import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;

/** Installs the CRD of the user guide's Widget (examples/snippets); raw JSON: client-java's CRD models send fields the server rejects. */
public final class WidgetCrd {

    private WidgetCrd() {
    }

    public static void install(ApiClient client) throws InterruptedException {
        KubeHttp http = new KubeHttp(client);
        dev.mooring.it.Crds.install(http, "example.com", "v1", "widgets", """
                    {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                     "metadata":{"name":"widgets.example.com"},
                     "spec":{"group":"example.com","scope":"Namespaced",
                       "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
                       "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                         "schema":{"openAPIV3Schema":{"type":"object","properties":{
                           "spec":{"type":"object","properties":{"message":{"type":"string"},"replicas":{"type":"integer"},"exposed":{"type":"boolean"}}},
                           "status":{"type":"object","properties":{"observedMessage":{"type":"string"},
                             "conditions":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
                               "items":{"type":"object","required":["type","status","lastTransitionTime","reason","message"],
                                 "properties":{"type":{"type":"string"},"status":{"type":"string"},
                                   "observedGeneration":{"type":"integer"},"lastTransitionTime":{"type":"string","format":"date-time"},
                                   "reason":{"type":"string"},"message":{"type":"string"}}}}}}}}}}]}}
                    """);
    }
}
