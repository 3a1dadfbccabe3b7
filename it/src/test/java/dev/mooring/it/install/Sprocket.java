package dev.mooring.it.install;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;

/** A kind of InstallerIT's own, so that installing and uninstalling its CRD touches no other test. */
@CustomResource(group = "install.mooring.dev", version = "v1")
public class Sprocket extends CustomObject {

    private Spec spec;

    /** What the user asks for. */
    public static class Spec {
        public Integer teeth;
    }
}
