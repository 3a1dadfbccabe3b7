/**
 * An in-memory work queue of keys, written for reconcile loops.
 *
 * <p>{@link WorkQueue} keeps these invariants:
 * <ul>
 *   <li><b>Fair:</b> keys of one priority are handed out in the order they became ready; fresh
 *       changes ({@link dev.mooring.engine.queue.Priority#NORMAL}) overtake backlog
 *       ({@link dev.mooring.engine.queue.Priority#LOW}), which still gets two of every three
 *       passes while both wait, so neither starves.</li>
 *   <li><b>Stingy:</b> a key is never held by two workers at once, and several adds before it is
 *       processed collapse into one pass.</li>
 *   <li><b>Re-processed:</b> a key added while a worker holds it is handed out again after
 *       {@code done}, exactly once more however many adds arrived.</li>
 *   <li><b>Delays without threads:</b> delayed keys wait in a deadline-ordered heap that the
 *       consumers themselves drain; there is no thread or timer per key.</li>
 *   <li><b>Shutdown:</b> new work is refused and delayed work discarded; accepted ready work may
 *       drain, or be discarded too with an immediate shutdown.</li>
 * </ul>
 *
 * <p>Mooring writes its own queue instead of using client-java-extended's because the
 * reference semantics (the rules for superseding delays, retry backoff with jitter, draining
 * shutdown) differ from it, and because the extended module is not available for the client
 * version Mooring uses.
 */
package dev.mooring.engine.queue;
