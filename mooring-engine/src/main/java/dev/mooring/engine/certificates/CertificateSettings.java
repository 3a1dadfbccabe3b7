package dev.mooring.engine.certificates;

import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link SelfManagedCertificates} manages: the Secret of the certificates, the webhook
 * Service they are for, the webhook configurations that carry the CA, and the validity periods.
 * Built with {@link #builder}; immutable.
 */
public final class CertificateSettings {

    private final String namespace;
    private final String secretName;
    private final String serviceName;
    private final String configurationName;
    private final String serviceAccount;
    private final Duration servingValidity;
    private final Duration caValidity;
    private final boolean validating;
    private final boolean mutating;

    private CertificateSettings(Builder builder) {
        this.namespace = builder.namespace;
        this.secretName = builder.secretName;
        this.serviceName = builder.serviceName;
        this.configurationName = builder.configurationName;
        this.serviceAccount = builder.serviceAccount;
        this.servingValidity = builder.servingValidity;
        this.caValidity = builder.caValidity;
        this.validating = builder.validating;
        this.mutating = builder.mutating;
    }

    /**
     * Settings for the certificates of webhook Service {@code serviceName} in {@code namespace},
     * kept in Secret {@code secretName}, whose CA goes into the webhook configurations named
     * {@code configurationName}. Defaults: no owning ServiceAccount, a serving certificate valid
     * 90 days, a CA valid 3650 days, both a validating and a mutating configuration.
     */
    public static Builder builder(String namespace, String secretName, String serviceName, String configurationName) {
        return new Builder(namespace, secretName, serviceName, configurationName);
    }

    /** The operator's namespace: the Secret's and the Service's. */
    public String namespace() {
        return namespace;
    }

    /** The Secret that holds the certificates. */
    public String secretName() {
        return secretName;
    }

    /** The webhook Service: the serving certificate is for its DNS names. */
    public String serviceName() {
        return serviceName;
    }

    /** The validating and mutating webhook configurations' name. */
    public String configurationName() {
        return configurationName;
    }

    /** The ServiceAccount that owns the Secret, or null for none. */
    public String serviceAccount() {
        return serviceAccount;
    }

    /** How long a serving certificate is valid (renewed after two thirds). */
    public Duration servingValidity() {
        return servingValidity;
    }

    /** How long a CA is valid. */
    public Duration caValidity() {
        return caValidity;
    }

    /** Whether there is a validating configuration (validating webhooks). */
    public boolean validating() {
        return validating;
    }

    /** Whether there is a mutating configuration (mutating webhooks). */
    public boolean mutating() {
        return mutating;
    }

    /** These settings for an application whose webhooks are of these kinds. */
    public CertificateSettings withWebhooks(boolean hasValidating, boolean hasMutating) {
        return builder(namespace, secretName, serviceName, configurationName).serviceAccount(serviceAccount)
                .servingValidity(servingValidity).caValidity(caValidity).validating(hasValidating).mutating(hasMutating).build();
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

    /** The parts of {@link CertificateSettings} beyond the four names. */
    public static final class Builder {
        private final String namespace;
        private final String secretName;
        private final String serviceName;
        private final String configurationName;
        private String serviceAccount;
        private Duration servingValidity = Duration.ofDays(90);
        private Duration caValidity = Duration.ofDays(3650);
        private boolean validating = true;
        private boolean mutating = true;

        private Builder(String namespace, String secretName, String serviceName, String configurationName) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            this.secretName = Objects.requireNonNull(secretName, "secretName");
            this.serviceName = Objects.requireNonNull(serviceName, "serviceName");
            this.configurationName = Objects.requireNonNull(configurationName, "configurationName");
        }

        /** The ServiceAccount that owns the Secret, or null for none. */
        public Builder serviceAccount(String serviceAccount) {
            this.serviceAccount = serviceAccount;
            return this;
        }

        public Builder servingValidity(Duration servingValidity) {
            this.servingValidity = Objects.requireNonNull(servingValidity, "servingValidity");
            return this;
        }

        public Builder caValidity(Duration caValidity) {
            this.caValidity = Objects.requireNonNull(caValidity, "caValidity");
            return this;
        }

        public Builder validating(boolean validating) {
            this.validating = validating;
            return this;
        }

        public Builder mutating(boolean mutating) {
            this.mutating = mutating;
            return this;
        }

        public CertificateSettings build() {
            return new CertificateSettings(this);
        }
    }
}
