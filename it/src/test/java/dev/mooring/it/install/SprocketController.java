package dev.mooring.it.install;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;

/** Only its annotations matter: InstallerIT installs the manifests generated from them. */
@Controller(name = "sprockets", owns = V1ConfigMap.class)
public class SprocketController implements Reconciler<Sprocket> {

    @Override
    public Result reconcile(Sprocket sprocket, Context<Sprocket> context) {
        return Result.done();
    }
}
