package dev.mooring.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HeapHistogramTest {

    private static final String WITHOUT = """
            12345:
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         10000        1048576  [B (java.base@17.0.15)
               2:          5000         120000  java.lang.String (java.base@17.0.15)
               3:          2000          64000  java.util.HashMap$Node (java.base@17.0.15)
               4:           100           4000  com.ibm.ws.kernel.feature.internal.FeatureManager
            Total         17100        1236576
            """;

    private static final String WITH = """
            12345:
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         20000        3145728  [B (java.base@17.0.15)
               2:          9000         216000  java.lang.String (java.base@17.0.15)
               3:          4000         128000  java.util.HashMap$Node (java.base@17.0.15)
               4:          3000        1048576  org.jboss.weld.bean.ManagedBean
               5:           100           4000  com.ibm.ws.kernel.feature.internal.FeatureManager
               6:            50           2000  com.ibm.ws.ejbcontainer.osgi.internal.EJBRuntimeImpl
               7:            10           1600  [Ljava.lang.Object; (java.base@17.0.15)
               8:             4             96  dev.mooring.engine.Engine
            Total         36164        4546000
            """;

    @Test
    void classesAreGroupedByTheirOwnersPackage() {
        assertEquals("org.jboss.weld", HeapHistogram.group("org.jboss.weld.bean.ManagedBean"));
        assertEquals("com.ibm.ws.ejbcontainer", HeapHistogram.group("com.ibm.ws.ejbcontainer.osgi.internal.EJBRuntimeImpl"));
        assertEquals("io.openliberty.microprofile.health40", HeapHistogram.group("io.openliberty.microprofile.health40.internal.X"));
        assertEquals("strings and byte[]", HeapHistogram.group("[B"));
        assertEquals("object arrays", HeapHistogram.group("[Ljava.lang.Object;"));
        assertEquals("java.util (collections)", HeapHistogram.group("java.util.concurrent.ConcurrentHashMap$Node"));
        assertEquals("dev.mooring", HeapHistogram.group("dev.mooring.Top"));
    }

    @Test
    void theDiffListsTheLargestAdditionsFirstAndAddsUpToTheTotals() {
        HeapHistogram without = HeapHistogram.parse(WITHOUT);
        HeapHistogram with = HeapHistogram.parse(WITH);
        assertEquals(1236576, without.total());
        assertEquals(4546000, with.total());
        String table = without.diffTable(with, "no application", "the EAR", 2);
        String[] rows = table.split("\n");
        assertTrue(rows[2].startsWith("| strings and byte[] | 1.11 | 3.21 | +2.09 |"), table);
        assertTrue(rows[3].startsWith("| org.jboss.weld | 0.00 | 1.00 | +1.00 |"), table);
        // the other groups: HashMap nodes, EJB, Mooring, the arrays
        assertTrue(rows[4].startsWith("| the other groups | | | +0.06 |"), table);
        assertTrue(rows[5].startsWith("| total | 1.18 | 4.34 | +3.16 |"), table);
    }

    @Test
    void somethingElseThanAHistogramIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> HeapHistogram.parse("12345:\nCould not attach\n"));
    }
}
