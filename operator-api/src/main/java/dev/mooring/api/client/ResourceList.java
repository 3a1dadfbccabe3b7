package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The answer to a list: one page of objects, and the way to the next ones. Iterating (or
 * {@link #stream()}) goes through every page, asking the server for the next page only when
 * the iteration reaches it (one request per page, with the page's {@code continue} token).
 *
 * <p>A continue token expires (the server answers 410 Gone, some minutes after the first page):
 * the iteration then throws that {@link KubernetesException}; list again.
 *
 * @param <R> the model class
 */
public interface ResourceList<R extends KubernetesObject> extends Iterable<R> {

    /** The objects of this page, in the server's order. */
    List<R> items();

    /** The resourceVersion the list was read at (the first page's, for a consistent read). */
    String resourceVersion();

    /** How many objects the server estimates beyond this page, when it says. */
    OptionalLong remainingItemCount();

    /** Whether the server has more pages. */
    boolean hasNextPage();

    /**
     * The next page.
     *
     * @throws java.util.NoSuchElementException when there is none
     * @throws KubernetesException when the server refuses it (410 when the token expired)
     */
    ResourceList<R> nextPage();

    /** Every object of every page, pages fetched as the stream reaches them. */
    Stream<R> stream();
}
