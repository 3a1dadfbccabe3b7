package dev.mooring.engine.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

/** What a Lease written by Mooring says: a new holder's, and a freed one's. */
class LeasesTest {

    @Test
    void aNewLeaseNamesItsHolderDurationAndTimesWithNoTransition() {
        JsonObject lease = Leases.held("ops", "work", "pod-a", 15);
        assertEquals("coordination.k8s.io/v1", lease.get("apiVersion").getAsString());
        assertEquals("Lease", lease.get("kind").getAsString());
        assertEquals("{\"name\":\"work\",\"namespace\":\"ops\"}", lease.getAsJsonObject("metadata").toString());
        JsonObject spec = lease.getAsJsonObject("spec");
        assertEquals("pod-a", spec.get("holderIdentity").getAsString());
        assertEquals(15, spec.get("leaseDurationSeconds").getAsLong());
        assertEquals(0, spec.get("leaseTransitions").getAsLong());
        assertEquals(spec.get("acquireTime").getAsString(), spec.get("renewTime").getAsString());
        assertTrue(spec.get("renewTime").getAsString().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"), spec.toString());
    }

    @Test
    void aFreedLeaseHasNoHolderAndAdvertisesOneSecond() {
        JsonObject lease = Leases.held("ops", "work", "pod-a", 15);
        lease.getAsJsonObject("spec").addProperty("renewTime", "2020-01-01T00:00:00.000000Z");
        JsonObject freed = Leases.freed(lease);
        JsonObject spec = freed.getAsJsonObject("spec");
        assertEquals("", spec.get("holderIdentity").getAsString());
        assertEquals(1, spec.get("leaseDurationSeconds").getAsLong());
        assertTrue(spec.get("renewTime").getAsString().compareTo("2020-01-01T00:00:00.000000Z") > 0, "renewed now");
        assertEquals(0, spec.get("leaseTransitions").getAsLong(), "the rest kept");
    }

    @Test
    void theRecordChangesWithEachFieldAHolderRenewsAndALeaseWithoutSpecHasNoHolder() {
        com.google.gson.JsonObject lease = Leases.held("ops", "election", "a", 15);
        lease.getAsJsonObject("metadata").addProperty("uid", "u1");
        String record = Leases.record(lease);
        for (String field : new String[] {"holderIdentity", "acquireTime", "renewTime"}) {
            com.google.gson.JsonObject changed = lease.deepCopy();
            changed.getAsJsonObject("spec").addProperty(field, "other");
            assertNotEquals(record, Leases.record(changed), field);
        }
        for (String field : new String[] {"leaseDurationSeconds", "leaseTransitions"}) {
            com.google.gson.JsonObject changed = lease.deepCopy();
            changed.getAsJsonObject("spec").addProperty(field, 99);
            assertNotEquals(record, Leases.record(changed), field);
        }
        com.google.gson.JsonObject recreated = lease.deepCopy();
        recreated.getAsJsonObject("metadata").addProperty("uid", "u2");
        assertNotEquals(record, Leases.record(recreated), "a Lease made again");
        com.google.gson.JsonObject bare = com.google.gson.JsonParser.parseString("{\"metadata\":{\"name\":\"x\"},\"spec\":null}")
                .getAsJsonObject();
        assertEquals("", Leases.holder(bare));
        assertEquals(null, Leases.text(null, "uid"));
        assertEquals("/apis/coordination.k8s.io/v1/namespaces/ops/leases/election", Leases.path("ops", "election"));
    }
}
