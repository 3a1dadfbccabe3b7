package dev.mooring.engine.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.ibm.websphere.logging.hpel.LogRecordContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fields a pass, a review and a span put on the thread's log records, over a stand-in for Liberty's LogRecordContext. */
class LogFieldsTest {

    @Test
    void aPassPutsItsFieldsOnTheThreadUntilItsScopeClosesLeavingOutEmptyOnes() {
        assertTrue(LogFields.available(), "the stand-in LogRecordContext is on the test class path");
        try (LogFields.Scope scope = LogFields.pass("maps", "ConfigMap", "", "a", "r-1")) {
            assertEquals(Map.of("controller", "maps", "kind", "ConfigMap", "name", "a", "reconcile_id", "r-1"),
                    LogRecordContext.extensions(), "a cluster-scoped object has no namespace field");
        }
        assertEquals(Map.of(), LogRecordContext.extensions());
    }

    @Test
    void aReviewPutsItsWebhookOperationObjectAndUid() {
        try (LogFields.Scope scope = LogFields.admission("/validate/widgets", "CREATE", "Widget", "ops", null, "u-1")) {
            assertEquals(Map.of("webhook", "/validate/widgets", "operation", "CREATE", "kind", "Widget", "namespace", "ops",
                    "uid", "u-1"), LogRecordContext.extensions(), "a name not yet given (generateName) is left out");
        }
        assertEquals(Map.of(), LogRecordContext.extensions());
    }

    @Test
    void aSpanPutsItsIdsAndASpanThatRecordsNothingPutsNone() {
        Tracing.Span span = new Tracing.Span() {
            @Override
            public void outcome(String outcome) {
            }

            @Override
            public String traceId() {
                return "0af7651916cd43dd8448eb211c80319c";
            }

            @Override
            public String spanId() {
                return "b7ad6b7169203331";
            }

            @Override
            public void close() {
            }
        };
        try (LogFields.Scope scope = LogFields.trace(span)) {
            assertEquals(Map.of("trace_id", "0af7651916cd43dd8448eb211c80319c", "span_id", "b7ad6b7169203331"),
                    LogRecordContext.extensions());
        }
        assertEquals(Map.of(), LogRecordContext.extensions());
        try (LogFields.Scope scope = LogFields.trace(Tracing.Span.NONE)) {
            assertEquals(Map.of(), LogRecordContext.extensions());
        }
    }

    @Test
    void closingOneScopeLeavesAnotherScopesFields() {
        try (LogFields.Scope pass = LogFields.pass("maps", "ConfigMap", "ops", "a", "r-1")) {
            try (LogFields.Scope review = LogFields.admission("/validate", "UPDATE", null, null, null, "u-2")) {
                assertEquals("u-2", LogRecordContext.extensions().get("uid"));
            }
            assertEquals(Map.of("controller", "maps", "kind", "ConfigMap", "namespace", "ops", "name", "a", "reconcile_id", "r-1"),
                    LogRecordContext.extensions());
        }
    }
}
