package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** The decode budget on fake clocks: slots and CPU time for large bodies, the webhook's timeout for all, and the answers they give. */
class DecodeBudgetTest {

    private final AtomicLong now = new AtomicLong(java.util.concurrent.TimeUnit.HOURS.toNanos(5)); // far from zero, as nanoTime may be
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private static final Duration WEBHOOK = Duration.ofSeconds(5);

    /** The thread CPU clock of the fake budgets. */
    private final AtomicLong cpu = new AtomicLong();

    private DecodeBudget budget(int slots, Duration largeCpu) {
        return new DecodeBudget(slots, largeCpu, now::get, cpu::get);
    }

    @Test
    void smallBodiesNeedNoSlotLargeOnesTakeOneUntilClosed() {
        DecodeBudget budget = budget(2, Duration.ofSeconds(1));
        DecodeBudget.Ticket first = budget.enter(DecodeBudget.LARGE_BODY, WEBHOOK).orElseThrow();
        DecodeBudget.Ticket second = budget.enter(DecodeBudget.LARGE_BODY + 1, WEBHOOK).orElseThrow();
        assertTrue(budget.enter(DecodeBudget.LARGE_BODY, WEBHOOK).isEmpty(), "both slots are taken");
        for (int i = 0; i < 100; i++) {
            assertTrue(budget.enter(DecodeBudget.LARGE_BODY - 1, WEBHOOK).isPresent(), "a small body needs no slot");
        }
        first.close();
        first.close();
        Optional<DecodeBudget.Ticket> third = budget.enter(DecodeBudget.LARGE_BODY, WEBHOOK);
        assertTrue(third.isPresent(), "a closed ticket frees its slot");
        assertTrue(budget.enter(DecodeBudget.LARGE_BODY, WEBHOOK).isEmpty(), "closing twice freed one slot, not two");
        second.close();
        third.get().close();
    }

    @Test
    void aLargeBodyIsChargedItsCpuTimeNotTheClocks() {
        DecodeBudget budget = budget(1, Duration.ofMillis(500));
        DecodeBudget.Ticket ticket = budget.enter(DecodeBudget.LARGE_BODY, WEBHOOK).orElseThrow();
        now.addAndGet(Duration.ofSeconds(4).toNanos());
        assertFalse(ticket.expired(), "4 s by the clock on a busy machine, no CPU time spent: not over budget");
        cpu.addAndGet(Duration.ofMillis(500).toNanos());
        assertFalse(ticket.expired());
        cpu.incrementAndGet();
        assertTrue(ticket.expired());
        assertEquals("within 500 ms of CPU time", ticket.overrun());
    }

    @Test
    void aSmallBodyHasNoCpuBudgetAndEndsOnlyAtTheWebhooksTimeoutLessTheMargin() {
        DecodeBudget.Ticket ticket = budget(1, Duration.ofMillis(500)).enter(DecodeBudget.LARGE_BODY - 1, WEBHOOK).orElseThrow();
        cpu.addAndGet(Duration.ofSeconds(3).toNanos());
        now.addAndGet(WEBHOOK.minus(DecodeBudget.TIMEOUT_MARGIN).toNanos());
        assertFalse(ticket.expired(), "a small body is never refused before the webhook's timeout less the margin");
        now.incrementAndGet();
        assertTrue(ticket.expired());
        assertEquals("before the webhook's timeout", ticket.overrun());
    }

    @Test
    void aLargeBodyEndsAtTheWebhooksTimeoutLessTheMarginToo() {
        DecodeBudget.Ticket ticket = budget(1, Duration.ofSeconds(30)).enter(DecodeBudget.LARGE_BODY, WEBHOOK).orElseThrow();
        now.addAndGet(WEBHOOK.minus(DecodeBudget.TIMEOUT_MARGIN).toNanos() + 1);
        assertEquals("before the webhook's timeout", ticket.overrun());
    }

    @Test
    void theMarginIsHalfOfAShortTimeLeft() {
        DecodeBudget.Ticket ticket = budget(1, Duration.ofSeconds(1)).enter(10, Duration.ofMillis(600)).orElseThrow();
        now.addAndGet(Duration.ofMillis(300).toNanos());
        assertFalse(ticket.expired());
        now.incrementAndGet();
        assertTrue(ticket.expired());
    }

    @Test
    void nonsensicalBudgetsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> budget(0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> budget(1, Duration.ZERO));
    }

    @Test
    void aParseStopsWhenItsBudgetIsSpent() {
        // the budget is asked every CHECK_EVERY values: spent at the third asking
        AtomicLong asked = new AtomicLong();
        BoundedJson json = new BoundedJson(AdmissionDispatcher.LIMITS, JsonProvider.provider());
        byte[] document = ("[" + "\"\",".repeat(BoundedJson.CHECK_EVERY * 20) + "\"\"]").getBytes(StandardCharsets.UTF_8);
        BoundedJson.Rejected late = assertThrows(BoundedJson.Rejected.class, () -> json.parse(document, () -> asked.incrementAndGet() >= 3));
        assertTrue(late.overDeadline(), late.getMessage());
        assertTrue(late.getMessage().contains("time budget"), late.getMessage());
        assertEquals(3, asked.get(), "the parse ended at the asking that found the budget spent");
        BoundedJson.Rejected notJson = assertThrows(BoundedJson.Rejected.class, () -> json.parse("[".getBytes(StandardCharsets.UTF_8)));
        assertFalse(notJson.overDeadline(), notJson.getMessage());
    }

    @Test
    void aLargeReviewWhileEverySlotIsBusyIs429AndASmallOneIsAnswered() throws Exception {
        DecodeBudget budget = budget(1, Duration.ofSeconds(30));
        AdmissionDispatcher dispatcher = dispatcher(budget);
        byte[] large = WorstCaseReviews.widget("default", "\"" + "x".repeat(DecodeBudget.LARGE_BODY) + "\"")
                .getBytes(StandardCharsets.UTF_8);
        try (DecodeBudget.Ticket busy = budget.enter(DecodeBudget.LARGE_BODY, WEBHOOK).orElseThrow()) {
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
        assertTrue(budget.enter(DecodeBudget.LARGE_BODY, WEBHOOK).isPresent(), "the answered review gave its slot back");
    }

    @Test
    void aLargeReviewOverItsCpuTimeIs429() {
        // the thread's CPU clock runs a millisecond per reading: the 5 ms budget is spent while the values are read
        DecodeBudget budget = new DecodeBudget(1, Duration.ofMillis(5), now::get, () -> cpu.addAndGet(1_000_000));
        AdmissionDispatcher.Answer late = dispatcher(budget).handle("POST", DecodeCostTest.ACCEPT, "application/json",
                new ByteArrayInputStream(largeNumbers()), true);
        assertEquals(429, late.status(), late.body());
        assertTrue(late.body().contains("was not decoded within 5 ms of CPU time"), late.body());
    }

    @Test
    void aSmallReviewOnABusyMachineIsAnsweredHoweverLongTheClockRuns() {
        // every reading of either clock moves it on by 100 ms, as if the thread were descheduled between readings
        DecodeBudget budget = new DecodeBudget(1, Duration.ofMillis(5), () -> now.addAndGet(100_000_000), () -> cpu.addAndGet(100_000_000));
        AdmissionDispatcher.Answer answer = dispatcher(budget).handle("POST", DecodeCostTest.ACCEPT, "application/json",
                new ByteArrayInputStream(WorstCaseReviews.widget("default", "[" + "0,".repeat(BoundedJson.CHECK_EVERY * 20) + "0]")
                        .getBytes(StandardCharsets.UTF_8)), true);
        assertEquals(200, answer.status(), answer.body());
    }

    /** A review just over {@link DecodeBudget#LARGE_BODY} bytes of numbers. */
    private static byte[] largeNumbers() {
        return WorstCaseReviews.widget("default", "[" + "0,".repeat(DecodeBudget.LARGE_BODY / 2) + "0]").getBytes(StandardCharsets.UTF_8);
    }

    private AdmissionDispatcher dispatcher(DecodeBudget budget) {
        return AdmissionDispatcher.builder(AdmissionRoutes.of(DecodeCostTest.Accepting.class),
                bean -> new DecodeCostTest.Accepting(), executor, new AdmissionDispatcherTest.NoReads()).budget(budget).build();
    }
}
