package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Implemented (instead of {@link Reconciler}) by a {@link Controller} bean whose reconcile is an
 * ordered pipeline of {@link Stage} methods, each establishing one condition of the object.
 *
 * <p>Every pass runs the stages in their {@link Stage#order()}, from the first, also when the
 * object was already Ready: conditions are observations, never checkpoints that skip drift
 * repair. A stage that returns normally sets its condition {@code True} (reason
 * {@code Succeeded}). A stage that throws {@link Wait} sets its condition {@code False} with the
 * wait's reason and message; one that fails sets it {@code False} with reason
 * {@code ReconcileFailed} (or {@code TerminalError}) and the message
 * {@code "<stage> failed: <ExceptionClass>: <the first line of its message>"} (at most 256
 * characters of the message, never a stack trace: the whole failure is logged), and queues a
 * Warning Event. Either way the later stages are set {@code Unknown} with
 * reason {@code DependencyNotReady}, the pass ends, and the wait or failure takes its usual
 * course (a delayed requeue, a retry with backoff, or no retry). The summary condition
 * {@code Ready} is {@code True} (reason {@code Reconciled}) only when every stage succeeded.
 * Status is written once after the pass, through the status subresource, also after a failure;
 * the status of the kind must have a {@code conditions} list of standard conditions.
 *
 * <p>Stage conditions and {@code Ready} are managed: {@link Context#condition} refuses them.
 * The stages are validated when the application deploys.
 *
 * @param <T> the primary kind
 */
public interface Staged<T extends KubernetesObject> {
}
