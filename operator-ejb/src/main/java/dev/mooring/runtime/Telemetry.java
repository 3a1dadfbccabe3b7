package dev.mooring.runtime;

import dev.mooring.engine.trace.Tracing;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.Type;
import java.util.logging.Logger;

/**
 * Whether Mooring traces: when the server has Liberty's MicroProfile Telemetry feature
 * ({@code mpTelemetry-2.0}), its {@code OpenTelemetry} bean is found by its type's name (the type
 * is not visible to Mooring, see {@link OpenTelemetryTracing}) and the engine's spans go to it;
 * OpenTelemetry itself then decides whether they are recorded and exported
 * ({@code otel.sdk.disabled=false}, {@code otel.exporter.otlp.endpoint}, ...). Without the feature
 * the engine gets {@link Tracing#NONE}.
 */
@ApplicationScoped
public class Telemetry {

    private static final Logger LOG = Logger.getLogger(Telemetry.class.getName());
    private static final String OPEN_TELEMETRY = "io.opentelemetry.api.OpenTelemetry";

    @Inject
    BeanManager beans;

    private Tracing tracing = Tracing.NONE;

    @PostConstruct
    void find() {
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            for (Type type : bean.getTypes()) {
                if (type instanceof Class<?> api && api.getName().equals(OPEN_TELEMETRY)) {
                    try {
                        Object instance = beans.getReference(bean, api, beans.createCreationalContext(bean));
                        tracing = new OpenTelemetryTracing(instance, api);
                        LOG.info("Mooring traces its passes, admission calls and their API requests through MicroProfile Telemetry");
                    } catch (RuntimeException e) {
                        LOG.warning("Tracing is off: " + e.getMessage());
                    }
                    return;
                }
            }
        }
    }

    /** Where the engine's spans go. */
    public Tracing tracing() {
        return tracing;
    }
}
