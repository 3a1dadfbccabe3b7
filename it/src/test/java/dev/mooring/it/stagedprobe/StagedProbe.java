package dev.mooring.it.stagedprobe;

import dev.mooring.api.Case;
import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Otherwise;
import dev.mooring.api.Stage;
import dev.mooring.api.Staged;
import dev.mooring.api.Wait;
import dev.mooring.examples.snippets.Widget;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/** A staged controller deployed by ContainerFeaturesIT: stages found and run through CDI. */
@ApplicationScoped
@Controller(name = "staged", namespace = "set-by-config")
public class StagedProbe implements Staged<Widget> {

    @Stage(value = "Prepared", order = 1)
    void prepare(Widget widget, Context<Widget> context) {
        context.updateStatus(w -> {
            if (w.getStatus() == null) {
                w.setStatus(new Widget.Status());
            }
            w.getStatus().observedMessage = widget.getSpec().message;
        });
    }

    @Stage(value = "Checked", order = 2)
    @Case(when = "positive", priority = 1)
    void positiveReplicas(Widget widget) {
    }

    @Stage(value = "Checked", order = 2)
    @Otherwise
    void otherReplicas(Widget widget) {
        throw new Wait("NotPositive", "replicas must be positive", Duration.ofSeconds(30));
    }

    boolean positive(Widget widget) {
        return widget.getSpec().replicas != null && widget.getSpec().replicas > 0;
    }
}
