package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.RequestScope;
import jakarta.json.spi.JsonProvider;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The decode budget on a fake clock: slots for large bodies, the deadline, and the answers they give. */
class DecodeBudgetTest {

    private final AtomicLong now = new AtomicLong();
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void smallBodiesNeedNoSlotLargeOnesTakeOneUntilClosed() {
        DecodeBudget budget = new DecodeBudget(2, Duration.ofSeconds(1), now::get);
        DecodeBudget.Ticket first = budget.enter(DecodeBudget.LARGE_BODY).orElseThrow();
        DecodeBudget.Ticket second = budget.enter(DecodeBudget.LARGE_BODY + 1).orElseThrow();
        assertTrue(budget.enter(DecodeBudget.LARGE_BODY).isEmpty(), "both slots are taken");
        for (int i = 0; i < 100; i++) {
            assertTrue(budget.enter(DecodeBudget.LARGE_BODY - 1).isPresent(), "a small body needs no slot");
        }
        first.close();
        first.close();
        Optional<DecodeBudget.Ticket> third = budget.enter(DecodeBudget.LARGE_BODY);
        assertTrue(third.isPresent(), "a closed ticket frees its slot");
        assertTrue(budget.enter(DecodeBudget.LARGE_BODY).isEmpty(), "closing twice freed one slot, not two");
        second.close();
        third.get().close();
    }

    @Test
    void aTicketExpiresAtItsDeadline() {
        DecodeBudget budget = new DecodeBudget(1, Duration.ofMillis(500), now::get);
        DecodeBudget.Ticket ticket = budget.enter(10).orElseThrow();
        now.addAndGet(Duration.ofMillis(500).toNanos());
        assertFalse(ticket.expired());
        now.incrementAndGet();
        assertTrue(ticket.expired());
    }

    @Test
    void nonsensicalBudgetsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DecodeBudget(0, Duration.ofSeconds(1), now::get));
        assertThrows(IllegalArgumentException.class, () -> new DecodeBudget(1, Duration.ZERO, now::get));
    }

    @Test
    void aParseStopsAtItsDeadline() {
        // every reading of the clock moves it on by a millisecond: a deadline 10 ms ahead passes during the parse
        BoundedJson json = new BoundedJson(AdmissionDispatcher.LIMITS, JsonProvider.provider(), () -> now.addAndGet(1_000_000));
        byte[] document = ("[" + "\"\",".repeat(BoundedJson.CHECK_EVERY * 20) + "\"\"]").getBytes(StandardCharsets.UTF_8);
        BoundedJson.Rejected late = assertThrows(BoundedJson.Rejected.class,
                () -> json.parse(document, now.get() + Duration.ofMillis(10).toNanos()));
        assertTrue(late.overDeadline(), late.getMessage());
        assertTrue(late.getMessage().contains("time budget"), late.getMessage());
        BoundedJson.Rejected notJson = assertThrows(BoundedJson.Rejected.class, () -> json.parse("[".getBytes(StandardCharsets.UTF_8)));
        assertFalse(notJson.overDeadline(), notJson.getMessage());
    }

    @Test
    void aLargeReviewWhileEverySlotIsBusyIs429AndASmallOneIsAnswered() throws Exception {
        DecodeBudget budget = new DecodeBudget(1, Duration.ofSeconds(30), now::get);
        AdmissionDispatcher dispatcher = dispatcher(budget);
        byte[] large = WorstCaseReviews.widget("default", "\"" + "x".repeat(DecodeBudget.LARGE_BODY) + "\"")
                .getBytes(StandardCharsets.UTF_8);
        try (DecodeBudget.Ticket busy = budget.enter(DecodeBudget.LARGE_BODY).orElseThrow()) {
            AdmissionDispatcher.Answer refused = dispatcher.handle("POST", DecodeCostTest.ACCEPT, "application/json",
                    new ByteArrayInputStream(large), true);
            assertEquals(429, refused.status(), refused.body());
            assertTrue(refused.body().contains("Too many large AdmissionReviews are being decoded at once (1)"), refused.body());
            AdmissionDispatcher.Answer small = dispatcher.handle("POST", DecodeCostTest.ACCEPT, "application/json",
                    new ByteArrayInputStream(WorstCaseReviews.widget("default", "1").getBytes(StandardCharsets.UTF_8)), true);
            assertEquals(200, small.status(), small.body());
        }
        AdmissionDispatcher.Answer admitted = dispatcher.handle("POST", DecodeCostTest.ACCEPT, "application/json",
                new ByteArrayInputStream(large), true);
        assertEquals(200, admitted.status(), "the slot is free again: " + admitted.body());
        assertTrue(budget.enter(DecodeBudget.LARGE_BODY).isPresent(), "the answered review gave its slot back");
    }

    @Test
    void aReviewNotDecodedByItsDeadlineIs429() {
        // the clock runs a millisecond per reading: the 5 ms budget passes while the values are read
        AtomicLong clock = new AtomicLong();
        DecodeBudget budget = new DecodeBudget(1, Duration.ofMillis(5), () -> clock.addAndGet(1_000_000));
        AdmissionDispatcher.Answer late = dispatcher(budget).handle("POST", DecodeCostTest.ACCEPT, "application/json",
                new ByteArrayInputStream(WorstCaseReviews.widget("default", "[" + "0,".repeat(BoundedJson.CHECK_EVERY * 20) + "0]")
                        .getBytes(StandardCharsets.UTF_8)), true);
        assertEquals(429, late.status(), late.body());
        assertTrue(late.body().contains("was not decoded within 5 ms"), late.body());
    }

    private AdmissionDispatcher dispatcher(DecodeBudget budget) {
        return new AdmissionDispatcher(BoundRoute.bind(AdmissionRoutes.of(DecodeCostTest.Accepting.class),
                bean -> new DecodeCostTest.Accepting()), executor, new AdmissionDispatcherTest.NoReads(), RequestScope.NONE, AdmissionDispatcher.Observer.NONE, budget, ClientTrust.ANY);
    }
}
