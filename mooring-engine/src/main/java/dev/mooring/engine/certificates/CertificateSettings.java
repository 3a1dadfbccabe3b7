package dev.mooring.engine.certificates;

import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link SelfManagedCertificates} manages: the Secret of the certificates, the webhook
 * Service they are for, the webhook configurations that carry the CA, and the validity periods.
 *
 * @param namespace the operator's namespace: the Secret's and the Service's
 * @param secretName the Secret that holds the certificates
 * @param serviceName the webhook Service: the serving certificate is for its DNS names
 * @param configurationName the validating and mutating webhook configurations' name
 * @param serviceAccount the ServiceAccount that owns the Secret, or null for none
 * @param servingValidity how long a serving certificate is valid (renewed after two thirds)
 * @param caValidity how long a CA is valid
 * @param validating whether there is a validating configuration (validating webhooks)
 * @param mutating whether there is a mutating configuration (mutating webhooks)
 */
public record CertificateSettings(String namespace, String secretName, String serviceName, String configurationName,
        String serviceAccount, Duration servingValidity, Duration caValidity, boolean validating, boolean mutating) {

    public CertificateSettings {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(secretName, "secretName");
        Objects.requireNonNull(serviceName, "serviceName");
        Objects.requireNonNull(configurationName, "configurationName");
    }

    /** These settings for an application whose webhooks are of these kinds. */
    public CertificateSettings withWebhooks(boolean hasValidating, boolean hasMutating) {
        return new CertificateSettings(namespace, secretName, serviceName, configurationName, serviceAccount, servingValidity, caValidity,
                hasValidating, hasMutating);
    }

    /** The Service's DNS names, as the API server calls it: {@code <service>.<namespace>.svc} and its cluster-local form. */
    public List<String> dnsNames() {
        String svc = serviceName + "." + namespace + ".svc";
        return List.of(svc, svc + ".cluster.local");
    }

    /** Whether a webhook's client configuration calls this operator's Service (and so should carry this CA). */
    boolean calls(AdmissionregistrationV1WebhookClientConfig client) {
        return client != null && client.getService() != null && serviceName.equals(client.getService().getName())
                && namespace.equals(client.getService().getNamespace());
    }
}
