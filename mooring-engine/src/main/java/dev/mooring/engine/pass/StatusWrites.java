package dev.mooring.engine.pass;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The status writes of one controller that its cache has not delivered yet, per object. A pass
 * that starts before the informer delivered the controller's own last status write (the event of a
 * child it wrote can come first) writes its status from that write, not from the stale cached copy:
 * an unchanged status then costs no request, and a changed one is not refused as stale. An entry
 * lives until the informer delivers any other version of the object (the written one, or a later
 * one), or the object's deletion: as long as a watch event takes.
 *
 * <p>It is the controller's own status writes only; the stale reads of other writes are the
 * subject of read-your-writes.
 */
public final class StatusWrites implements InformerListener<KubernetesObject> {

    /**
     * A status write: the object's uid, the versions known to be older than it (what the pass began
     * from and what its own earlier writes made), the version it made, and the status document it wrote.
     */
    record Written(String uid, Set<String> before, String version, JsonValue status) {
    }

    private final Map<ObjectKey, Written> pending = new ConcurrentHashMap<>();

    /** The controller wrote {@code status} to the object of {@code key}, making {@code version}. */
    void wrote(ObjectKey key, String uid, Set<String> before, String version, JsonValue status) {
        if (uid != null && version != null) {
            pending.put(key, new Written(uid, Set.copyOf(before), version, status));
        }
    }

    /**
     * The controller's last status write of {@code cached}'s object when {@code cached} is older than
     * it (the cache has not delivered it yet); else null.
     */
    Written newerThan(ObjectKey key, KubernetesObject cached) {
        Written written = pending.get(key);
        if (written == null || cached.getMetadata() == null) {
            return null;
        }
        return Objects.equals(written.uid(), cached.getMetadata().getUid())
                && written.before().contains(cached.getMetadata().getResourceVersion()) ? written : null;
    }

    /** How many writes the cache has not delivered yet (for tests and metrics). */
    int pending() {
        return pending.size();
    }

    @Override
    public void onAdd(KubernetesObject object, boolean inInitialList) {
        delivered(object);
    }

    @Override
    public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
        delivered(newObject);
    }

    @Override
    public void onDelete(KubernetesObject object) {
        pending.remove(ObjectKey.of(object));
    }

    /** A version the entry does not know as older: the write itself or a later one. */
    private void delivered(KubernetesObject object) {
        ObjectKey key = ObjectKey.of(object);
        Written written = pending.get(key);
        if (written != null && (!Objects.equals(written.uid(), object.getMetadata().getUid())
                || !written.before().contains(object.getMetadata().getResourceVersion()))) {
            pending.remove(key, written);
        }
    }
}
