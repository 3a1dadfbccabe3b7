package dev.mooring.runtime;

import dev.mooring.engine.admission.AdmissionCaches;
import dev.mooring.engine.admission.AdmissionDispatcher;
import dev.mooring.engine.admission.AdmissionRoute;
import dev.mooring.engine.certificates.CertificateSettings;
import dev.mooring.engine.certificates.ClientTrust;
import dev.mooring.engine.certificates.SelfManagedCertificates;
import dev.mooring.engine.certificates.ServingCertificate;
import dev.mooring.engine.client.LiveResourceClient;
import dev.mooring.engine.informer.Informer;
import dev.mooring.engine.informer.InformerPool;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Serves the application's admission webhooks on every replica, leader or not: holds the
 * routes and their beans, the per-replica caches they read, and the serving certificate.
 * Admission is serving when Liberty's HTTPS port presents the configured certificate and every
 * declared cache has synced.
 */
@Singleton
@Startup
@DependsOn("MooringThreads")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
// no container transaction around its lifecycle: Mooring uses none, and InstantOn refuses a checkpoint after one began
@jakarta.ejb.TransactionManagement(jakarta.ejb.TransactionManagementType.BEAN)
public class AdmissionService {

    private static final Logger LOG = Logger.getLogger(AdmissionService.class.getName());
    private static final Duration CERTIFICATE_CHECK = Duration.ofSeconds(2);
    private static final Duration CACHE_RESYNC = Duration.ofMinutes(10);

    /**
     * Admission's state, for readiness.
     *
     * @param registered true when the application has admission webhooks
     * @param serving true when they can be called: certificate served, caches synced
     * @param details what is missing, or what serves
     */
    public record Status(boolean registered, boolean serving, Map<String, String> details) {
    }

    @Inject
    AdmissionExtension extension;

    @Inject
    ReconcilerExtension controllers;

    @Inject
    BeanManager beanManager;

    @Inject
    MooringConfig config;

    @Inject
    Instance<KubernetesConnection> connection;

    @Inject
    RequestScopes requestScopes;

    @Inject
    RuntimeMetrics metrics;

    @Inject
    MooringThreads threads;

    @Inject
    CheckpointRestore checkpoint;

    private final List<CreationalContext<?>> contexts = new ArrayList<>();
    private final Map<Class<?>, Object> beans = new HashMap<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    /** The caches each bean declared, and live clients on the operator's connection: what requests read. */
    private final AdmissionCaches reads = new AdmissionCaches(namespace -> {
        KubernetesConnection kubernetes = connection.get();
        return new LiveResourceClient(kubernetes.requests(), types(kubernetes), namespace);
    });
    private volatile java.util.concurrent.Future<?> cacheStartup;
    private volatile boolean stopped;
    private volatile AdmissionDispatcher dispatcher;
    private volatile InformerPool pool;
    private volatile DiscoveredKinds types;
    private volatile ServingCertificate certificate;
    private volatile SelfManagedCertificates selfManaged;
    private volatile String tlsProblem;
    /** The configuration problems that failed the start; empty when it went on. */
    private volatile List<String> startProblems = List.of();
    /** Until the TLS settings are read, and when they cannot be: no request is admitted. */
    private volatile ClientTrust clients = ClientTrust.refusing("the webhook TLS settings could not be read");

    @PostConstruct
    void start() {
        List<AdmissionExtension.Policy> policies = extension.policies();
        if (policies.isEmpty()) {
            return;
        }
        List<RuntimeException> problems = OperatorManager.deploymentProblems(controllers, extension);
        if (!problems.isEmpty()) {
            // the start failed (OperatorManager logs each problem and fails liveness): admit nothing
            startProblems = problems.stream().map(RuntimeException::getMessage).toList();
            return;
        }
        List<AdmissionRoute> routes = new ArrayList<>();
        for (AdmissionExtension.Policy policy : policies) {
            CreationalContext<?> context = beanManager.createCreationalContext(policy.bean());
            contexts.add(context);
            Class<?> beanClass = policy.bean().getBeanClass();
            beans.put(beanClass, beanManager.getReference(policy.bean(), beanClass, context));
            routes.addAll(policy.routes());
        }
        checkpoint.startNowOrOnRestore("the admission webhooks", () -> serve(policies, routes));
    }

    /** Reads the TLS settings, starts the certificate checks and the caches, and binds the routes. */
    private void serve(List<AdmissionExtension.Policy> policies, List<AdmissionRoute> routes) {
        try {
            dev.mooring.engine.certificates.WebhookTls tls = config.webhookTls();
            clients = config.webhookClientAuth() ? new ClientTrust(tls.clientCa()) : ClientTrust.ANY;
            certificate = new ServingCertificate(tls, clients.required(), config.webhookHost(), config.webhookPort());
            metrics.certificate(certificate::notAfter);
            boolean validating = routes.stream().anyMatch(route -> !route.mutating());
            boolean mutating = routes.stream().anyMatch(AdmissionRoute::mutating);
            selfManaged = config.selfManagedCertificates()
                    .map(settings -> selfManaged(settings.withWebhooks(validating, mutating), tls)).orElse(null);
            ClientTrust trust = clients;
            SelfManagedCertificates issuing = selfManaged;
            // one task, so that the files the self-managed certificates write are never read half-written
            threads.timers().scheduleWithFixedDelay(() -> {
                trust.refresh();
                if (issuing != null) {
                    issuing.check();
                }
                if (issuing == null || issuing.written()) {
                    certificate.check();
                }
            }, 0, CERTIFICATE_CHECK.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            tlsProblem = e.getMessage();
            LOG.severe("Admission webhooks cannot serve: " + e.getMessage());
        }
        dispatcher = AdmissionDispatcher.builder(routes, beans::get, threads.admission(), reads).scope(requestScopes)
                .observer(metrics.admission(routes)).clients(clients).build();
        startCaches(policies);
    }

    /** The self-managed certificates on the operator's connection, their watches running on managed threads. */
    private SelfManagedCertificates selfManaged(CertificateSettings settings,
            dev.mooring.engine.certificates.WebhookTls tls) {
        KubernetesConnection kubernetes = connection.get();
        SelfManagedCertificates issuing = new SelfManagedCertificates(kubernetes.requests(), kubernetes.watches(), settings,
                tls.certificate(), tls.key(), java.time.Instant::now, config.retry().maxDelay());
        for (Informer<?> informer : issuing.informers()) {
            threads.loops().submit(informer::run);
        }
        return issuing;
    }

    /**
     * Starts the declared caches on a managed thread: discovery of each kind is retried with
     * backoff while the API server cannot answer (admission is not ready meanwhile); a kind the
     * server refuses or does not serve is a lasting problem, shown in readiness.
     */
    private void startCaches(List<AdmissionExtension.Policy> policies) {
        if (policies.stream().allMatch(policy -> policy.cached().isEmpty())) {
            return;
        }
        KubernetesConnection kubernetes;
        try {
            kubernetes = connection.get();
            types(kubernetes);
            pool = new InformerPool(kubernetes.requests(), kubernetes.watches(), config.retry().maxDelay());
        } catch (RuntimeException e) {
            problems.add("admission caches: " + e.getMessage());
            LOG.log(Level.SEVERE, "Admission caches cannot start: " + e.getMessage(), e);
            return;
        }
        for (AdmissionExtension.Policy policy : policies) {
            policy.cached().forEach(kind -> reads.declare(policy.bean().getBeanClass(), kind));
        }
        cacheStartup = threads.loops().submit(() -> {
            for (AdmissionExtension.Policy policy : policies) {
                for (Class<? extends KubernetesObject> kind : policy.cached()) {
                    startCache(policy.bean().getBeanClass(), kind);
                }
            }
        });
    }

    private void startCache(Class<?> beanClass, Class<? extends KubernetesObject> kind) {
        try {
            ResourceType<?> type = types.resolveRetrying(kind, () -> !stopped, null, config.retry().maxDelay(),
                    (e, backoff) -> reads.waiting(kind, "waiting for discovery: " + e.getMessage()));
            if (type == null) {
                reads.abandoned(kind);
                return;
            }
            Informer<?> informer = pool.acquire(type, null, null, CACHE_RESYNC);
            reads.started(beanClass, kind, informer);
            pool.start(informer, threads.loops(), threads.timers());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            reads.abandoned(kind);
            problems.add("admission cache of " + kind.getSimpleName() + ": " + e.getMessage());
            LOG.log(Level.SEVERE, "The admission cache of " + kind.getSimpleName() + " cannot start: " + e.getMessage(), e);
        }
    }

    /**
     * Why a request over the HTTPS port with this client certificate chain is refused on a path
     * other than a webhook's, or null when it may go on: with client certificates required
     * ({@code mooring.webhook.tls.client-auth}), the same check as the webhooks' (so the serving
     * certificate, which Liberty's handshake accepts, is refused here too); null without webhooks
     * or without the requirement.
     */
    public String clientRefusal(java.security.cert.X509Certificate[] chain) {
        ClientTrust trust = clients;
        return dispatcher == null || !trust.required() ? null : trust.refusal(chain);
    }

    /** True when the application has admission webhooks. */
    public boolean registered() {
        return dispatcher != null;
    }

    /** See {@link AdmissionDispatcher#handle}; a 404 when the application has no webhooks. */
    public AdmissionDispatcher.Answer handle(String method, String path, String contentType, InputStream body, boolean secure,
            java.security.cert.X509Certificate[] clientChain) {
        AdmissionDispatcher serving = dispatcher;
        if (serving == null) {
            return new AdmissionDispatcher.Answer(404, "{\"message\":\"Unknown webhook path\"}");
        }
        return serving.handle(method, path, contentType, body, secure, clientChain);
    }

    /**
     * Why admission can never serve as configured, for liveness: the webhook port has answered
     * no TLS for {@link ServingCertificate#UNANSWERED_LIMIT} (no endpoint on
     * {@code mooring.webhook.port}); empty otherwise.
     */
    public java.util.Optional<String> misconfigured() {
        ServingCertificate served = certificate;
        return served == null ? java.util.Optional.empty() : served.misconfigured();
    }

    /** Whether admission serves, with what is missing. */
    public Status status() {
        if (!startProblems.isEmpty()) {
            Map<String, String> details = new LinkedHashMap<>();
            for (int i = 0; i < startProblems.size(); i++) {
                details.put("problem-" + i, startProblems.get(i));
            }
            return new Status(true, false, details);
        }
        if (dispatcher == null) {
            return new Status(false, true, Map.of("webhooks", "none"));
        }
        Map<String, String> details = new LinkedHashMap<>();
        details.put("webhooks", String.valueOf(dispatcher.routes().size()));
        boolean serving = problems.isEmpty();
        for (int i = 0; i < problems.size(); i++) {
            details.put("problem-" + i, problems.get(i));
        }
        ServingCertificate served = certificate;
        if (served == null || !served.serving()) {
            serving = false;
        }
        details.put("tls", served == null ? "webhook TLS: " + tlsProblem : served.detail());
        SelfManagedCertificates issuing = selfManaged;
        if (issuing != null) {
            details.put("certificates", issuing.detail());
        }
        serving &= reads.serving(details);
        return new Status(true, serving, details);
    }

    @PreDestroy
    void stop() {
        stopped = true;
        java.util.concurrent.Future<?> starting = cacheStartup;
        if (starting != null) {
            starting.cancel(true);
        }
        InformerPool running = pool;
        if (running != null) {
            running.stopAll();
        }
        SelfManagedCertificates issuing = selfManaged;
        if (issuing != null) {
            issuing.informers().forEach(Informer::stop);
        }
        contexts.forEach(CreationalContext::release);
    }

    /** The discovery results shared by caches and live clients, created on first use. */
    private synchronized DiscoveredKinds types(KubernetesConnection kubernetes) {
        if (types == null) {
            types = new DiscoveredKinds(kubernetes.requests());
        }
        return types;
    }
}
