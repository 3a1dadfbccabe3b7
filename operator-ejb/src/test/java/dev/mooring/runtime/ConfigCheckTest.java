package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.Test;

/** Every mistake in Mooring's configuration is found at deployment, naming the property. */
class ConfigCheckTest {

    private static final List<String> CONTROLLERS = List.of("configmap-mirror", "widgets");

    @Test
    void aRightConfigurationHasNoProblem() {
        Map<String, String> environment = Map.of("MOORING_CONTROLLER_CONFIGMAP_MIRROR_RESYNC", "60s", "MOORING_CACHE", "/tmp/cache");
        assertEquals(List.of(), ConfigCheck.problems(config(Map.of("mooring.namespace", "team-a", "mooring.request.timeout", "10s",
                "mooring.controller.configmap-mirror.workers", "4", "MOORING_CONTROLLER_CONFIGMAP_MIRROR_RESYNC", "60s",
                "MOORING_CACHE", "/tmp/cache", "mooring.cache", "/tmp/cache", "http.port", "9080")), CONTROLLERS, environment::get));
    }

    @Test
    void eachMistakeIsNamed() {
        Map<String, String> mistakes = Map.of(
                "mooring.request.timeout", "abc",
                "mooring.watch.idle-timeout", "-5s",
                "mooring.namespace", "Team_A",
                "mooring.controller.configmap-mirrror.workers", "4",
                "mooring.controller.configmap-mirror.worker", "4",
                "mooring.requst.timeout", "10",
                "MOORING_CONTROLLER_CONFIGMAP_MIRRRROR_WORKERS", "4");
        for (Map.Entry<String, String> mistake : mistakes.entrySet()) {
            Map<String, String> environment = mistake.getKey().startsWith("MOORING_") ? Map.of(mistake.getKey(), mistake.getValue())
                    : Map.of();
            List<RuntimeException> problems = ConfigCheck.problems(config(Map.of(mistake.getKey(), mistake.getValue())), CONTROLLERS,
                    environment::get);
            assertEquals(1, problems.size(), mistake + ": " + problems);
            String message = problems.get(0).getMessage();
            assertTrue(message.contains(mistake.getKey().startsWith("MOORING_") ? mistake.getKey()
                    : mistake.getKey().equals("mooring.namespace") ? "mooring.namespace 'Team_A'" : mistake.getKey()), message);
        }
        String typo = ConfigCheck.problems(config(Map.of("mooring.controller.configmap-mirrror.workers", "4")), CONTROLLERS).get(0)
                .getMessage();
        assertTrue(typo.contains("no controller named 'configmap-mirrror'") && typo.contains("configmap-mirror"), typo);
        String option = ConfigCheck.problems(config(Map.of("mooring.controller.widgets.worker", "4")), CONTROLLERS).get(0).getMessage();
        assertTrue(option.contains("no option 'worker'") && option.contains("workers"), option);
    }

    /**
     * Values that parse but cannot be used are named with the property and the value: a request
     * timeout beyond an int of milliseconds failed inside the HTTP client as "timeout &lt; 0"; a
     * wrong webhook port went unnoticed in an application without webhooks.
     */
    @Test
    void valuesOutOfRangeAreNamedWithTheirValue() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("mooring.request.timeout", "1000h");
        cases.put("mooring.watch.idle-timeout", "PT25H");
        cases.put("mooring.webhook.port", "70000");
        cases.put("mooring.admission.threads", "0");
        cases.put("mooring.admission.queue", "many");
        cases.put("mooring.read-your-writes.max-wait", "2m");
        cases.put("mooring.read-your-writes.enabled", "yes");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            List<RuntimeException> problems = ConfigCheck.problems(config(Map.of(bad.getKey(), bad.getValue())), CONTROLLERS, key -> null);
            assertEquals(1, problems.size(), bad + ": " + problems);
            String message = problems.get(0).getMessage();
            assertTrue(message.contains(bad.getKey()) && message.contains("'" + bad.getValue() + "'"), bad + ": " + message);
        }
        String timeout = ConfigCheck.problems(config(Map.of("mooring.request.timeout", "1000h")), CONTROLLERS, key -> null).get(0)
                .getMessage();
        assertEquals("mooring.request.timeout must be at most 1h, got '1000h'", timeout);
        String port = ConfigCheck.problems(config(Map.of("mooring.webhook.port", "x")), CONTROLLERS, key -> null).get(0).getMessage();
        assertEquals("mooring.webhook.port must be a port between 1 and 65535, not 'x'", port);
        assertEquals(List.of(), ConfigCheck.problems(config(Map.of("mooring.request.timeout", "1h", "mooring.watch.idle-timeout",
                "24h", "mooring.webhook.port", "8443")), CONTROLLERS, key -> null));
        assertEquals("mooring.read-your-writes.enabled must be true or false, not 'yes'", ConfigCheck.problems(
                config(Map.of("mooring.read-your-writes.enabled", "yes")), CONTROLLERS, key -> null).get(0).getMessage());
    }

    @Test
    void readYourWritesIsOnWithATwoSecondBoundUnlessConfigured() {
        assertEquals(new dev.mooring.engine.informer.ReadYourWrites.Settings(true, java.time.Duration.ofSeconds(2)),
                new MooringConfig(config(Map.of())).readYourWrites());
        assertEquals(new dev.mooring.engine.informer.ReadYourWrites.Settings(true, java.time.Duration.ofMillis(500)),
                new MooringConfig(config(Map.of("mooring.read-your-writes.max-wait", "500ms"))).readYourWrites());
        assertEquals(dev.mooring.engine.informer.ReadYourWrites.Settings.OFF,
                new MooringConfig(config(Map.of("mooring.read-your-writes.enabled", "FALSE"))).readYourWrites());
    }

    /** Servers list environment variables under derived names: those are judged as variables. */
    @Test
    void environmentVariablesAreJudgedByTheirEnvironmentForm() {
        Map<String, String> environment = Map.of("MOORING_CACHE", "/tmp/cache", "MOORING_CONTROLLER_CONFIGMAP_MIRROR_WORKERS", "4",
                "MOORING_CONTROLLER_CONFIGMAP_MIRRRROR_WORKERS", "4");
        // as Liberty lists them: the variables themselves and dotted lower-case forms
        Config config = config(Map.of("MOORING_CACHE", "/tmp/cache", "mooring.cache", "/tmp/cache",
                "mooring.controller.configmap.mirror.workers", "4", "MOORING_CONTROLLER_CONFIGMAP_MIRRRROR_WORKERS", "4"));
        List<RuntimeException> problems = ConfigCheck.problems(config, CONTROLLERS, environment::get);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).getMessage().startsWith("Environment variable MOORING_CONTROLLER_CONFIGMAP_MIRRRROR_WORKERS"),
                problems.get(0).getMessage());
    }

    @Test
    void theShardCountIsCheckedAndExcludesLeaderElection() {
        assertEquals(List.of(), ConfigCheck.problems(config(Map.of("mooring.sharding.shards", "8")), CONTROLLERS));
        String message = ConfigCheck.problems(config(Map.of("mooring.sharding.shards", "many")), CONTROLLERS).get(0).getMessage();
        assertTrue(message.contains("mooring.sharding.shards") && message.contains("'many'"), message);
        message = ConfigCheck.problems(config(Map.of("mooring.sharding.shards", "300")), CONTROLLERS).get(0).getMessage();
        assertTrue(message.contains("from 0 to 256"), message);
        message = ConfigCheck.problems(config(Map.of("mooring.sharding.shards", "4", "mooring.leader-election.enabled", "true")),
                CONTROLLERS).get(0).getMessage();
        assertTrue(message.contains("exclude each other"), message);
        message = ConfigCheck.problems(config(Map.of("mooring.sharding.shards", "4", "mooring.leader-election.retry-period", "30s")),
                CONTROLLERS).get(0).getMessage();
        assertTrue(message.contains("mooring.leader-election.retry-period"), "the Leases' timing is checked too: " + message);
    }

    @Test
    void theLeaderElectionSettingsAreCheckedWhenItIsOn() {
        Map<String, String> settings = Map.of("mooring.leader-election.enabled", "true", "mooring.leader-election.renew-deadline", "20s");
        String message = ConfigCheck.problems(config(settings), CONTROLLERS).get(0).getMessage();
        assertTrue(message.contains("mooring.leader-election.renew-deadline"), message);
        assertTrue(ConfigCheck.problems(config(Map.of("mooring.leader-election.enabled", "maybe")), CONTROLLERS).get(0).getMessage()
                .contains("mooring.leader-election.enabled"));
        assertTrue(ConfigCheck.problems(config(Map.of("mooring.leader-election.warm-standby", "yes")), CONTROLLERS).get(0).getMessage()
                .contains("mooring.leader-election.warm-standby"));
    }

    /** The self-managed certificate settings: each mistake named; the defaults follow the generated manifests' names. */
    @Test
    void secureMetricsAreTrueOrFalseAndNotWithClientCertificates() {
        assertEquals(List.of(), ConfigCheck.problems(config(Map.of("mooring.metrics.secure", "TRUE")), CONTROLLERS, key -> null));
        assertEquals("mooring.metrics.secure must be true or false, not 'yes'", ConfigCheck.problems(config(Map.of(
                "mooring.metrics.secure", "yes")), CONTROLLERS, key -> null).get(0).getMessage());
        String message = ConfigCheck.problems(config(Map.of("mooring.metrics.secure", "true", "mooring.webhook.tls.client-auth", "true",
                "mooring.webhook.tls.client-ca-file", "/ca.pem")), CONTROLLERS, key -> null).get(0).getMessage();
        assertTrue(message.startsWith("mooring.metrics.secure=true serves metrics on the HTTPS port, but "
                + "mooring.webhook.tls.client-auth=true makes that port accept only"), message);
    }

    @Test
    void theSelfManagedCertificateSettingsAreChecked() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("mooring.webhook.certificates", "cert-manager");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            String message = ConfigCheck.problems(config(Map.of(bad.getKey(), bad.getValue())), CONTROLLERS, key -> null).get(0)
                    .getMessage();
            assertEquals("mooring.webhook.certificates must be files or self-managed, not 'cert-manager'", message);
        }
        String missing = ConfigCheck.problems(config(Map.of("mooring.webhook.certificates", "self-managed")), CONTROLLERS, key -> null)
                .get(0).getMessage();
        assertTrue(missing.contains("needs mooring.webhook.certificates.service"), missing);
        String validity = ConfigCheck.problems(config(Map.of("mooring.webhook.certificates", "self-managed",
                "mooring.webhook.certificates.service", "ops", "mooring.webhook.certificates.validity", "P400D",
                "mooring.webhook.certificates.ca-validity", "P365D")), CONTROLLERS, key -> null).get(0).getMessage();
        assertTrue(validity.contains("mooring.webhook.certificates.ca-validity") && validity.contains("PT9600H"), validity);
        String typo = ConfigCheck.problems(config(Map.of("mooring.webhook.certificates.servic", "ops")), CONTROLLERS, key -> null)
                .get(0).getMessage();
        assertTrue(typo.startsWith("mooring.webhook.certificates.servic is not a Mooring property"), typo);

        var settings = MooringConfig.selfManagedCertificates(config(Map.of("mooring.webhook.certificates", "self-managed",
                "mooring.webhook.certificates.service", "ops")), "team-a").orElseThrow();
        assertEquals("ops-tls", settings.secretName());
        assertEquals("ops.team-a.svc", settings.configurationName());
        assertEquals(List.of("ops.team-a.svc", "ops.team-a.svc.cluster.local"), settings.dnsNames());
        assertEquals(java.time.Duration.ofDays(90), settings.servingValidity());
        assertEquals(null, settings.serviceAccount());
        assertTrue(MooringConfig.selfManagedCertificates(config(Map.of()), "team-a").isEmpty());
    }

    /** MicroProfile Config over a map, with the environment-variable lookup rule of the specification. */
    @Test
    void theOperatorsNamespaceIsTheConfiguredOneElseTheServiceAccountsElseDefault(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path mounted = java.nio.file.Files.writeString(dir.resolve("namespace"), "shop\n");
        java.nio.file.Path absent = dir.resolve("not-in-a-pod");
        assertEquals("team-a", new MooringConfig(config(Map.of("mooring.namespace", " team-a ")), mounted).namespace(),
                "the configured namespace first, also in a pod");
        assertEquals("team-a", new MooringConfig(config(Map.of("MOORING_NAMESPACE", "team-a")), mounted).namespace(), "or its environment form");
        assertEquals("shop", new MooringConfig(config(Map.of()), mounted).namespace(), "in a pod: its service account's namespace");
        assertEquals("shop", new MooringConfig(config(Map.of("mooring.namespace", "  ")), mounted).namespace(), "blank is unset");
        assertEquals("default", new MooringConfig(config(Map.of()), absent).namespace(), "outside a pod: default");
        assertEquals("default", new MooringConfig(config(Map.of()), java.nio.file.Files.writeString(dir.resolve("empty"), " \n")).namespace(),
                "an empty mounted file is no namespace");
    }

    private static Config config(Map<String, String> values) {
        return new Config() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
                String value = values.get(name);
                if (value == null) {
                    value = values.get(ConfigCheck.environmentForm(name));
                }
                return Optional.ofNullable((T) value);
            }

            @Override
            public <T> T getValue(String name, Class<T> type) {
                return getOptionalValue(name, type).orElseThrow();
            }

            @Override
            public ConfigValue getConfigValue(String name) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Iterable<String> getPropertyNames() {
                return values.keySet();
            }

            @Override
            public Iterable<ConfigSource> getConfigSources() {
                return List.of();
            }

            @Override
            public <T> Optional<Converter<T>> getConverter(Class<T> type) {
                return Optional.empty();
            }

            @Override
            public <T> T unwrap(Class<T> type) {
                throw new UnsupportedOperationException();
            }
        };
    }
}
