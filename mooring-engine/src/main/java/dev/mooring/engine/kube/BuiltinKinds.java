package dev.mooring.engine.kube;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The API group, plural and scope of Kubernetes' built-in kinds, for what Mooring must know
 * without asking an API server (webhook configurations and manifests are generated offline).
 * client-java's model class names give only the version and kind. At run time, discovery stays
 * the authority ({@link DiscoveredKinds}).
 */
final class BuiltinKinds {

    /** One built-in kind. {@code plural} is null for kinds that are only carried, never served (Scale). */
    record Entry(String group, String plural, boolean namespaced) {
    }

    private static final Map<String, Entry> KINDS = new HashMap<>();

    static {
        core("Binding", "bindings", true);
        core("ComponentStatus", "componentstatuses", false);
        core("ConfigMap", "configmaps", true);
        core("Endpoints", "endpoints", true);
        core("Event", "events", true);
        core("LimitRange", "limitranges", true);
        core("Namespace", "namespaces", false);
        core("Node", "nodes", false);
        core("PersistentVolume", "persistentvolumes", false);
        core("PersistentVolumeClaim", "persistentvolumeclaims", true);
        core("Pod", "pods", true);
        core("PodTemplate", "podtemplates", true);
        core("ReplicationController", "replicationcontrollers", true);
        core("ResourceQuota", "resourcequotas", true);
        core("Secret", "secrets", true);
        core("Service", "services", true);
        core("ServiceAccount", "serviceaccounts", true);
        add("apps", "ControllerRevision", "controllerrevisions", true);
        add("apps", "DaemonSet", "daemonsets", true);
        add("apps", "Deployment", "deployments", true);
        add("apps", "ReplicaSet", "replicasets", true);
        add("apps", "StatefulSet", "statefulsets", true);
        add("autoscaling", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true);
        add("autoscaling", "Scale", null, true);
        add("batch", "CronJob", "cronjobs", true);
        add("batch", "Job", "jobs", true);
        add("certificates.k8s.io", "CertificateSigningRequest", "certificatesigningrequests", false);
        add("coordination.k8s.io", "Lease", "leases", true);
        add("discovery.k8s.io", "EndpointSlice", "endpointslices", true);
        add("networking.k8s.io", "Ingress", "ingresses", true);
        add("networking.k8s.io", "IngressClass", "ingressclasses", false);
        add("networking.k8s.io", "NetworkPolicy", "networkpolicies", true);
        add("node.k8s.io", "RuntimeClass", "runtimeclasses", false);
        add("policy", "PodDisruptionBudget", "poddisruptionbudgets", true);
        add("rbac.authorization.k8s.io", "ClusterRole", "clusterroles", false);
        add("rbac.authorization.k8s.io", "ClusterRoleBinding", "clusterrolebindings", false);
        add("rbac.authorization.k8s.io", "Role", "roles", true);
        add("rbac.authorization.k8s.io", "RoleBinding", "rolebindings", true);
        add("scheduling.k8s.io", "PriorityClass", "priorityclasses", false);
        add("storage.k8s.io", "CSIDriver", "csidrivers", false);
        add("storage.k8s.io", "CSINode", "csinodes", false);
        add("storage.k8s.io", "CSIStorageCapacity", "csistoragecapacities", true);
        add("storage.k8s.io", "StorageClass", "storageclasses", false);
        add("storage.k8s.io", "VolumeAttachment", "volumeattachments", false);
        add("admissionregistration.k8s.io", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations", false);
        add("admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", false);
        add("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "validatingadmissionpolicies", false);
        add("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings", false);
        add("apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions", false);
        add("apiregistration.k8s.io", "APIService", "apiservices", false);
        add("events.k8s.io", "Event", "events", true);
    }

    private BuiltinKinds() {
    }

    /**
     * The built-in kind, in {@code groupHint} when the model name gave one (null: any group, the
     * core group first).
     */
    static Optional<Entry> find(String groupHint, String kind) {
        if (groupHint != null) {
            return Optional.ofNullable(KINDS.get(groupHint + "/" + kind));
        }
        Entry core = KINDS.get("/" + kind);
        if (core != null) {
            return Optional.of(core);
        }
        return KINDS.entrySet().stream().filter(entry -> entry.getKey().endsWith("/" + kind))
                .map(Map.Entry::getValue).findFirst();
    }

    private static void core(String kind, String plural, boolean namespaced) {
        add("", kind, plural, namespaced);
    }

    private static void add(String group, String kind, String plural, boolean namespaced) {
        KINDS.put(group + "/" + kind, new Entry(group, plural, namespaced));
    }
}
