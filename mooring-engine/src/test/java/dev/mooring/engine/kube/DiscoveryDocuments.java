package dev.mooring.engine.kube;

/** Aggregated discovery documents ({@code apidiscovery.k8s.io/v2}) as a server sends them, for tests. */
public final class DiscoveryDocuments {

    /** {@code /apis}: apps/v1 Deployments (with subresources) beside two incomplete entries, and a cluster-scoped Widget. */
    public static final String AGGREGATED_APIS = """
            {"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","items":[
              {"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[
                {"resource":"deployments","responseKind":{"group":"","version":"","kind":"Deployment"},"scope":"Namespaced",
                 "subresources":[{"subresource":"status"},{"subresource":"scale"}]},
                {"resource":"broken","scope":"Namespaced"},
                {"resource":"nokind","responseKind":{"kind":""},"scope":"Cluster"}]}]},
              {"metadata":{"name":"example.com"},"versions":[{"version":"v2","resources":[
                {"resource":"widgets","responseKind":{"kind":"Widget"},"scope":"Cluster"}]}]}]}""";

    /** {@code /api}: the core group's ConfigMaps. */
    public static final String AGGREGATED_CORE = """
            {"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","items":[
              {"metadata":{"name":""},"versions":[{"version":"v1","resources":[
                {"resource":"configmaps","responseKind":{"kind":"ConfigMap"},"scope":"Namespaced"}]}]}]}""";

    private DiscoveryDocuments() {
    }
}
