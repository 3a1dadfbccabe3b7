package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.spi.JsonProvider;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bounded parser's limits at their exact boundaries: the largest document each allows parses, one more is refused, named. */
class BoundedJsonTest {

    /** Depth 3, 4 members, 10 values, strings of 5, numbers of 4 characters. */
    private final BoundedJson json = new BoundedJson(new BoundedJson.Limits(3, 4, 10, 5, 4), JsonProvider.provider());

    private String parsed(String document) throws BoundedJson.Rejected {
        return json.parse(document.getBytes(StandardCharsets.UTF_8)).toString();
    }

    private String refused(String document) {
        return assertThrows(BoundedJson.Rejected.class, () -> json.parse(document.getBytes(StandardCharsets.UTF_8)), document).getMessage();
    }

    @Test
    void eachLimitAllowsItsValueAndRefusesOneMore() throws Exception {
        assertEquals("[[[1]]]", parsed("[[[1]]]"), "three levels");
        assertEquals("nesting deeper than 3 levels", refused("[[[[1]]]]"));
        assertEquals("[1,2,3,4]", parsed("[1,2,3,4]"), "four members");
        assertEquals("more than 4 members in one object or array", refused("[1,2,3,4,5]"));
        assertEquals("{\"a\":1,\"b\":2,\"c\":3,\"d\":4}", parsed("{\"a\":1,\"b\":2,\"c\":3,\"d\":4}"));
        assertEquals("more than 4 members in one object or array", refused("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5}"));
        assertEquals("[[1,2,3],[4,5,6],7]", parsed("[[1,2,3],[4,5,6],7]"), "ten values, the arrays counted");
        assertEquals("more than 10 values in the document", refused("[[1,2,3],[4,5,6],7,8]"));
        assertEquals("[\"abcde\"]", parsed("[\"abcde\"]"));
        assertEquals("a string of more than 5 characters", refused("[\"abcdef\"]"));
        assertEquals("{\"abcde\":1}", parsed("{\"abcde\":1}"));
        assertEquals("a member name of more than 5 characters", refused("{\"abcdef\":1}"));
        assertEquals("[1234]", parsed("[1234]"));
        assertEquals("a number of more than 4 characters", refused("[12345]"));
        assertEquals("\"top\"", parsed("\"top\""), "a scalar document");
    }

    @Test
    void whatIsNotOneJsonDocumentIsRefusedSayingWhere() {
        assertEquals("not JSON: the document ends early", refused("[1,"));
        String misplaced = refused("[1 2]");
        assertTrue(misplaced.startsWith("not JSON (at line 1, column "), misplaced);
        assertEquals("not JSON: content after the end of the document", refused("[1] [2]"));
        assertEquals("not JSON (at line 1, column 3)", refused("{}x"));
        assertTrue(refused("").contains("not JSON") || refused("").contains("empty"), refused(""));
    }

    @Test
    void theBudgetIsAskedEvery4096ValuesAndNamesAndEndsTheParseWhenSpent() throws Exception {
        BoundedJson roomy = new BoundedJson(new BoundedJson.Limits(10, 20_000, 20_000, 10, 10), JsonProvider.provider());
        StringBuilder document = new StringBuilder("[");
        for (int i = 0; i < BoundedJson.CHECK_EVERY * 2 - 2; i++) {
            document.append(i == 0 ? "" : ",").append('1');
        }
        document.append(']'); // 8192 events: the start, 8190 numbers, the end
        AtomicInteger asked = new AtomicInteger();
        roomy.parse(document.toString().getBytes(StandardCharsets.UTF_8), () -> {
            asked.incrementAndGet();
            return false;
        });
        assertEquals(2, asked.get(), "asked at the 4096th and the 8192nd event");
        BoundedJson.Rejected late = assertThrows(BoundedJson.Rejected.class,
                () -> roomy.parse(document.toString().getBytes(StandardCharsets.UTF_8), () -> true));
        assertTrue(late.overDeadline());
        assertEquals("the document was not read within its time budget", late.getMessage());
        assertFalse(assertThrows(BoundedJson.Rejected.class, () -> json.parse("[1,".getBytes(StandardCharsets.UTF_8))).overDeadline());
    }
}
