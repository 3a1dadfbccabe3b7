package dev.mooring.engine.replica;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.engine.kube.Models;
import java.time.Instant;
import java.util.Objects;

/**
 * The coordination.k8s.io/v1 Lease documents that the leader elector and the shard coordinator
 * read and write: their paths, a new Lease, and the record whose change proves its holder alive.
 */
public final class Leases {

    private Leases() {
    }

    /** The Leases of {@code namespace}. */
    public static String path(String namespace) {
        return "/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases";
    }

    /** The Lease {@code name} of {@code namespace}. */
    public static String path(String namespace, String name) {
        return path(namespace) + "/" + name;
    }

    /** A Lease held by {@code identity} from now on, with no transition yet. */
    public static JsonObject held(String namespace, String name, String identity, long durationSeconds) {
        String now = Models.microTime(Instant.now());
        JsonObject lease = new JsonObject();
        lease.addProperty("apiVersion", "coordination.k8s.io/v1");
        lease.addProperty("kind", "Lease");
        JsonObject metadata = new JsonObject();
        metadata.addProperty("name", name);
        metadata.addProperty("namespace", namespace);
        lease.add("metadata", metadata);
        JsonObject spec = new JsonObject();
        spec.addProperty("holderIdentity", identity);
        spec.addProperty("leaseDurationSeconds", durationSeconds);
        spec.addProperty("acquireTime", now);
        spec.addProperty("renewTime", now);
        spec.addProperty("leaseTransitions", 0);
        lease.add("spec", spec);
        return lease;
    }

    /** {@code lease} with no holder, for anyone to take at once: its holder gives it up (advertising 1 s). */
    public static JsonObject freed(JsonObject lease) {
        JsonObject spec = spec(lease);
        spec.addProperty("holderIdentity", "");
        spec.addProperty("leaseDurationSeconds", 1);
        spec.addProperty("renewTime", Models.microTime(Instant.now()));
        lease.add("spec", spec);
        return lease;
    }

    /**
     * Everything a holder changes when it renews (uid, holder, duration, acquire and renew times,
     * transitions): while this stays the same for the advertised duration, measured on the
     * reader's own clock, the holder is gone.
     */
    public static String record(JsonObject lease) {
        JsonObject spec = spec(lease);
        return text(lease.getAsJsonObject("metadata"), "uid") + "|" + holder(lease) + "|" + spec.get("leaseDurationSeconds") + "|"
                + spec.get("acquireTime") + "|" + spec.get("renewTime") + "|" + spec.get("leaseTransitions");
    }

    /** The holder, empty when none. */
    public static String holder(JsonObject lease) {
        return Objects.requireNonNullElse(text(spec(lease), "holderIdentity"), "");
    }

    /** The spec, an empty one when absent. */
    public static JsonObject spec(JsonObject lease) {
        return lease.has("spec") && lease.get("spec").isJsonObject() ? lease.getAsJsonObject("spec") : new JsonObject();
    }

    /** The member's text, null when absent or null. */
    public static String text(JsonObject object, String member) {
        JsonElement value = object == null ? null : object.get(member);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }
}
