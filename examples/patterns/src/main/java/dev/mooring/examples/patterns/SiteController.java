package dev.mooring.examples.patterns;

import dev.mooring.api.Case;
import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Otherwise;
import dev.mooring.api.Stage;
import dev.mooring.api.Staged;
import dev.mooring.api.Wait;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The conditional-configuration pattern: first-match cases within a stage, then a stage that
 * depends on the first. Stage {@code SettingsReady} writes the settings of the first case that
 * holds (production, then staging, otherwise development) into the ConfigMap
 * {@code <site>-settings}; stage {@code ChecksumRecorded}, which runs only once the first has
 * succeeded, records the digest of that ConfigMap's data as the cache holds it, and waits while
 * the cache has not seen the write yet (the child's change reconciles the Site again).
 */
@ApplicationScoped
@Controller(name = "sites", owns = V1ConfigMap.class)
public class SiteController implements Staged<Site> {

    @Stage(value = "SettingsReady", order = 1)
    @Case(when = "production", priority = 2)
    void productionSettings(Site site, Context<Site> context) {
        settings(site, context, Map.of("replicas", "3", "logLevel", "warning", "cache", "on"));
    }

    @Stage(value = "SettingsReady", order = 1)
    @Case(when = "staging", priority = 1)
    void stagingSettings(Site site, Context<Site> context) {
        settings(site, context, Map.of("replicas", "2", "logLevel", "info", "cache", "on"));
    }

    @Stage(value = "SettingsReady", order = 1)
    @Otherwise
    void developmentSettings(Site site, Context<Site> context) {
        settings(site, context, Map.of("replicas", "1", "logLevel", "debug", "cache", "off"));
    }

    @Stage(value = "ChecksumRecorded", order = 2)
    void checksum(Site site, Context<Site> context) {
        Optional<V1ConfigMap> settings = context.cached(V1ConfigMap.class).get(site.getMetadata().getNamespace(), settingsName(site));
        if (settings.isEmpty()) {
            throw new Wait("SettingsNotCached", "the settings ConfigMap is not in the cache yet", Duration.ofSeconds(5));
        }
        String checksum = ConfigReloader.digest(Map.of(settingsName(site), new TreeMap<>(settings.get().getData())));
        context.updateStatus(s -> {
            if (s.getStatus() == null) {
                s.setStatus(new Site.Status());
            }
            s.getStatus().settingsChecksum = checksum;
        });
    }

    boolean production(Site site) {
        return "production".equals(site.getSpec().environment);
    }

    boolean staging(Site site) {
        return "staging".equals(site.getSpec().environment);
    }

    private static void settings(Site site, Context<Site> context, Map<String, String> data) {
        context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().name(settingsName(site)))
                .data(data));
    }

    static String settingsName(Site site) {
        return site.getMetadata().getName() + "-settings";
    }
}
