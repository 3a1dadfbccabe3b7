package dev.mooring.engine.certificates;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.informer.Informer;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The webhook certificate without cert-manager: the operator keeps its own CA and serving
 * certificate in a Secret, writes the CA bundle into its webhook configurations, and serves the
 * certificate from files that {@link ServingCertificate} installs into Liberty's key store.
 *
 * <p>The Secret and the configurations are watched by name (RBAC {@code resourceNames} limit the
 * operator to them), so a check that finds nothing to do sends no request. A check runs when one
 * of them changes and when a certificate is due ({@link CertificateRotation}); every replica runs
 * the same checks on the same Secret and the API server's optimistic concurrency picks one writer
 * (a conflict is read again on the next check). A replica serves a certificate only once every
 * configuration's bundle, as the watch shows it, holds its CA: the API server has it before the
 * port presents a certificate it must trust; the CA a certificate replaced stays in the bundle, so
 * replicas still serving under it keep being trusted.
 *
 * <p>The Secret is owned by the operator's ServiceAccount when one is named: deleting the install
 * deletes it too. Deleting the Secret forces a rotation (a new CA, the previous one kept in the
 * bundle). {@link #check()} is called on a schedule; {@link #detail()} only reads its outcome.
 */
public final class SelfManagedCertificates {

    private static final Logger LOG = Logger.getLogger(SelfManagedCertificates.class.getName());
    private static final String JSON = "application/json";

    /** The Secret of the certificates. */
    public static final ResourceType<V1Secret> SECRETS = new ResourceType<>("", "v1", "Secret", "secrets", true, V1Secret.class);
    /** The validating webhook configurations. */
    public static final ResourceType<V1ValidatingWebhookConfiguration> VALIDATING = new ResourceType<>(
            "admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", false,
            V1ValidatingWebhookConfiguration.class);
    /** The mutating webhook configurations. */
    public static final ResourceType<V1MutatingWebhookConfiguration> MUTATING = new ResourceType<>(
            "admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations", false,
            V1MutatingWebhookConfiguration.class);

    private final KubeHttp http;
    private final CertificateSettings settings;
    private final CertificateRotation rotation;
    private final Path certificateFile;
    private final Path keyFile;
    private final Supplier<Instant> clock;
    private final Informer<V1Secret> secrets;
    private final Informer<V1ValidatingWebhookConfiguration> validating;
    private final Informer<V1MutatingWebhookConfiguration> mutating;
    /**
     * Per informer, the resourceVersion of this replica's last write of what it caches: a check
     * converges only on caches that show their writes (one that has not yet would read the Secret as
     * missing and make another CA, or give a configuration its bundle again).
     */
    private final Map<Informer<?>, Long> awaited = new java.util.HashMap<>();

    private volatile boolean changed = true;
    private volatile String detail = "self-managed webhook certificate: waiting for the first check";
    private Instant nextChange = Instant.MIN;
    private WebhookSecret served;
    private List<X509Certificate> trusted = List.of();
    private String ownerUid;
    private String lastProblem;

    /**
     * @param requests the operator's API connection for reads and writes
     * @param watches its connection for watches
     * @param certificateFile where the serving certificate is written for {@link WebhookTls}
     * @param keyFile where its key is written
     * @param clock the time
     */
    public SelfManagedCertificates(KubeHttp requests, KubeHttp watches, CertificateSettings settings, Path certificateFile, Path keyFile,
            Supplier<Instant> clock, Duration backoffCap) {
        this.http = requests;
        this.settings = settings;
        this.rotation = new CertificateRotation(settings.dnsNames(), settings.servingValidity(), settings.caValidity());
        this.certificateFile = certificateFile;
        this.keyFile = keyFile;
        this.clock = clock;
        this.secrets = new Informer<>(requests, watches, SECRETS, settings.namespace(), null,
                "metadata.name=" + settings.secretName(), backoffCap);
        this.validating = new Informer<>(requests, watches, VALIDATING, null, null,
                "metadata.name=" + settings.configurationName(), backoffCap);
        this.mutating = new Informer<>(requests, watches, MUTATING, null, null,
                "metadata.name=" + settings.configurationName(), backoffCap);
        for (Informer<?> informer : informers()) {
            informer.addListener(new Changes<>());
        }
    }

    /** The informers (the Secret, and the configurations there are), for the caller to run and stop. */
    public List<Informer<?>> informers() {
        List<Informer<?>> all = new ArrayList<>(List.of(secrets));
        if (settings.validating()) {
            all.add(validating);
        }
        if (settings.mutating()) {
            all.add(mutating);
        }
        return all;
    }

    /** What is served, or what is missing. */
    public String detail() {
        return detail;
    }

    /** True once the serving certificate's files have been written: before, there is nothing to install. */
    public synchronized boolean written() {
        return served != null;
    }

    /**
     * Bring the Secret, the configurations' CA bundle and the served files in line, when something
     * changed or a certificate is due; else nothing is sent. Failures are reported in
     * {@link #detail()} (and logged once) and retried on the next call.
     */
    public synchronized void check() {
        Instant now = clock.get();
        if (!changed && now.isBefore(nextChange)) {
            return;
        }
        for (Informer<?> informer : informers()) {
            if (informer.failure().isPresent()) {
                report("the watch of " + informer.describe() + " failed: " + informer.failure().get().getMessage());
                return;
            }
            if (!informer.hasSynced()) {
                detail = "self-managed webhook certificate: waiting for the watch of " + informer.describe();
                return;
            }
        }
        for (Map.Entry<Informer<?>, Long> write : awaited.entrySet()) {
            if (write.getKey().seenVersion() < write.getValue()) {
                detail = "self-managed webhook certificate: waiting for the watch of " + write.getKey().describe() + " to show its write";
                return;
            }
        }
        awaited.clear();
        changed = false;
        try {
            converge(now);
            lastProblem = null;
        } catch (KubernetesException e) {
            changed = true; // read again on the next call
            if (e.isConflict() || e.code() == 409) {
                detail = "self-managed webhook certificate: another replica wrote first, reading again (" + e.getMessage() + ")";
                LOG.fine(detail);
            } else {
                report(e.getMessage());
            }
        } catch (IOException | RuntimeException e) {
            changed = true;
            report(e.getMessage());
        }
    }

    private void converge(Instant now) throws IOException {
        Optional<V1Secret> found = secrets.get(new ObjectKey(settings.namespace(), settings.secretName())).map(Models::copy);
        WebhookSecret stored = found.map(this::parse).orElse(null);
        Optional<WebhookSecret> next = rotation.next(stored, trusted, now);
        if (found.isEmpty()) {
            // a new Secret gets the ServiceAccount as it is now: one recreated since (a reinstall) has another uid, and
            // a Secret owned by a uid that no longer exists is deleted by the garbage collector
            ownerUid = null;
        }
        V1OwnerReference owner = owner().orElse(null);
        WebhookSecret current = next.orElse(stored);
        if (next.isPresent() || (found.isPresent() && owner != null && !ownedBy(found.get(), owner))) {
            write(found.orElse(null), current, owner);
            if (next.isPresent()) {
                LOG.info(describeChange(stored, current));
            }
        }
        List<String> patched = new ArrayList<>();
        byte[] bundle = CertificateAuthority.pem(current.bundle());
        if (settings.validating()) {
            giveBundle(VALIDATING, validating, configuration -> configuration.getWebhooks() == null ? List.of()
                    : configuration.getWebhooks().stream().map(webhook -> webhook.getClientConfig()).toList(), bundle, patched);
        }
        if (settings.mutating()) {
            giveBundle(MUTATING, mutating, configuration -> configuration.getWebhooks() == null ? List.of()
                    : configuration.getWebhooks().stream().map(webhook -> webhook.getClientConfig()).toList(), bundle, patched);
        }
        if (!patched.isEmpty()) {
            // served once the watch shows the bundle: the API server has stored it by then
            changed = true;
            detail = "self-managed webhook certificate: CA bundle written to " + String.join(" and ", patched) + " "
                    + settings.configurationName() + ", serving once it is seen stored";
            LOG.info(detail);
            return;
        }
        if (served == null || !Arrays.equals(served.serving().certificatePem(), current.serving().certificatePem())) {
            writeFile(keyFile, current.serving().keyPem());
            writeFile(certificateFile, current.serving().certificatePem());
        }
        served = current;
        trusted = current.bundle();
        nextChange = rotation.nextChange(current);
        X509Certificate certificate = current.serving().certificate();
        detail = "self-managed: " + certificate.getSubjectX500Principal().getName() + " until " + certificate.getNotAfter().toInstant()
                + " (renewed from " + CertificateRotation.renewal(certificate) + "), from Secret " + settings.namespace() + "/"
                + settings.secretName();
    }

    /** The Secret's content, or null (a new one is made) when it cannot be read, said once. */
    private WebhookSecret parse(V1Secret secret) {
        try {
            return WebhookSecret.parse(secret.getData(), "Secret " + settings.namespace() + "/" + settings.secretName());
        } catch (IllegalArgumentException e) {
            LOG.warning("The webhook certificates are made anew: " + e.getMessage());
            return null;
        }
    }

    /** Writes {@code bundle} into the configuration of this kind, if it exists and some webhook of it lacks it. */
    private <T extends KubernetesObject> void giveBundle(ResourceType<T> type, Informer<T> informer,
            java.util.function.Function<T, List<AdmissionregistrationV1WebhookClientConfig>> clients, byte[] bundle,
            List<String> patched) {
        // cached objects are shared: changes go to a copy
        Optional<T> configuration = informer.get(new ObjectKey(null, settings.configurationName())).map(Models::copy);
        if (configuration.isPresent() && withBundle(clients.apply(configuration.get()), bundle)) {
            replace(type, informer, configuration.get());
            patched.add(type.kind());
        }
    }

    /** True when some webhook of this operator's Service does not carry {@code bundle}; those are set to it. */
    private boolean withBundle(List<AdmissionregistrationV1WebhookClientConfig> clients, byte[] bundle) {
        boolean changes = false;
        for (AdmissionregistrationV1WebhookClientConfig client : clients) {
            if (settings.calls(client) && !Arrays.equals(bundle, client.getCaBundle())) {
                client.setCaBundle(bundle);
                changes = true;
            }
        }
        return changes;
    }

    private void write(V1Secret existing, WebhookSecret content, V1OwnerReference owner) {
        V1ObjectMeta metadata = existing == null ? new V1ObjectMeta().name(settings.secretName()).namespace(settings.namespace())
                : existing.getMetadata();
        metadata.putLabelsItem("app.kubernetes.io/managed-by", "mooring");
        metadata.putLabelsItem("app.kubernetes.io/component", "webhook-certificate");
        if (owner != null) {
            metadata.setOwnerReferences(List.of(owner));
        }
        V1Secret secret = new V1Secret().apiVersion("v1").kind("Secret").metadata(metadata).type("kubernetes.io/tls")
                .data(content.data());
        if (existing == null) {
            awaitShown(secrets, http.send("POST", SECRETS.collectionPath(settings.namespace()), Map.of(), Models.toJson(secret), JSON));
        } else {
            // the resourceVersion read: a replica that wrote meanwhile makes this a conflict
            awaitShown(secrets, http.send("PUT", SECRETS.itemPath(settings.namespace(), settings.secretName()), Map.of(),
                    Models.toJson(secret), JSON));
        }
    }

    private void replace(ResourceType<?> type, Informer<?> informer, KubernetesObject configuration) {
        awaitShown(informer, http.send("PUT", type.itemPath(null, settings.configurationName()), Map.of(), Models.toJson(configuration), JSON));
    }

    /** The next check waits until {@code informer} shows the version {@code answer} has (a version that is no number: not). */
    private void awaitShown(Informer<?> informer, com.google.gson.JsonObject answer) {
        com.google.gson.JsonElement metadata = answer == null ? null : answer.get("metadata");
        com.google.gson.JsonElement version = metadata instanceof com.google.gson.JsonObject object ? object.get("resourceVersion") : null;
        long written = dev.mooring.engine.informer.SeenVersion.parse(version == null || !version.isJsonPrimitive() ? null : version.getAsString());
        if (written > 0) {
            awaited.merge(informer, written, Math::max);
        }
    }

    /** The ServiceAccount as the Secret's owner, read once per Secret this replica creates. */
    private Optional<V1OwnerReference> owner() {
        if (settings.serviceAccount() == null) {
            return Optional.empty();
        }
        if (ownerUid == null) {
            ResourceType<V1ServiceAccount> accounts = new ResourceType<>("", "v1", "ServiceAccount", "serviceaccounts", true,
                    V1ServiceAccount.class);
            ownerUid = http.getOptional(accounts.itemPath(settings.namespace(), settings.serviceAccount()), Map.of())
                    .map(account -> account.getAsJsonObject("metadata").get("uid").getAsString()).orElse(null);
            if (ownerUid == null) {
                return Optional.empty();
            }
        }
        return Optional.of(new V1OwnerReference().apiVersion("v1").kind("ServiceAccount").name(settings.serviceAccount())
                .uid(ownerUid));
    }

    private static boolean ownedBy(V1Secret secret, V1OwnerReference owner) {
        List<V1OwnerReference> owners = secret.getMetadata().getOwnerReferences();
        return owners != null && owners.stream().anyMatch(reference -> owner.getUid().equals(reference.getUid()));
    }

    private String describeChange(WebhookSecret before, WebhookSecret after) {
        String where = " in Secret " + settings.namespace() + "/" + settings.secretName();
        X509Certificate serving = after.serving().certificate();
        String servingText = "serving certificate for " + settings.dnsNames() + " valid until " + serving.getNotAfter().toInstant();
        if (before == null) {
            return "Webhook certificates made: a new CA and a " + servingText + where
                    + (after.bundle().size() > 1 ? " (the previous CA stays trusted)" : "");
        }
        if (!before.ca().certificate().equals(after.ca().certificate())) {
            return "Webhook CA renewed, with a " + servingText + where + " (the previous CA stays trusted)";
        }
        return before.serving().equals(after.serving()) ? "Expired CAs removed from the webhook CA bundle" + where
                : "Webhook " + servingText + " renewed" + where;
    }

    private void report(String problem) {
        detail = "self-managed webhook certificate: " + problem;
        if (!problem.equals(lastProblem)) {
            LOG.log(Level.WARNING, "The self-managed webhook certificate cannot be brought up to date: " + problem
                    + " (retried on the next check)");
            lastProblem = problem;
        }
    }

    private static void writeFile(Path file, byte[] content) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, ".mooring-webhook", ".pem");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            out.write(content);
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Any change of a watched object calls for a check. */
    private final class Changes<T> implements InformerListener<T> {
        @Override
        public void onAdd(T object, boolean inInitialList) {
            changed = true;
        }

        @Override
        public void onUpdate(T oldObject, T newObject) {
            changed = true;
        }

        @Override
        public void onDelete(T object) {
            changed = true;
        }
    }
}
