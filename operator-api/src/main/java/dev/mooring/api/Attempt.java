package dev.mooring.api;

/**
 * Which attempt at an object's current state a pass is ({@link Context#attempt()}): the first pass
 * after a change, a success, a {@link Wait} or a terminal failure is number 1; each failed (or
 * cancelled) pass retried makes the next one number + 1.
 *
 * @param number 1 for a first attempt, n + 1 after n failed passes in a row
 * @param last whether a failure of this pass gives the object up: the controller's retry limit
 *     ({@code @Controller(retryLimit)}) leaves no retry after it, so its status should say so; never
 *     true without a limit
 */
public record Attempt(int number, boolean last) {

    /** A first attempt, not the last. */
    public static final Attempt FIRST = new Attempt(1, false);

    /**
     * @throws IllegalArgumentException if {@code number} is below 1
     */
    public Attempt {
        if (number < 1) {
            throw new IllegalArgumentException("An attempt's number starts at 1, not " + number);
        }
    }
}
