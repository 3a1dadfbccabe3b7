package dev.mooring.api.status;

import io.kubernetes.client.openapi.models.V1Condition;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Standard Kubernetes conditions ({@code metav1.Condition}, client-java's {@link V1Condition})
 * following the API conventions. Pure functions: no I/O; inputs are never modified.
 */
public final class Conditions {

    /** The status values of a condition. */
    public static final Set<String> STATUSES = Set.of("True", "False", "Unknown");

    private static final Pattern TYPE = Pattern.compile("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            + "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$");
    private static final Pattern REASON = Pattern.compile("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");

    private Conditions() {
    }

    /** A copy of the first condition of {@code type}, if any. */
    public static Optional<V1Condition> get(List<V1Condition> conditions, String type) {
        if (conditions == null) {
            return Optional.empty();
        }
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst().map(Conditions::copy);
    }

    /**
     * The conditions with {@code type} set to the given status, reason and message.
     *
     * <p>{@code lastTransitionTime} changes only when the status changes (a new condition gets
     * {@code clock}'s now, in UTC); a changed reason, message or generation keeps it. The
     * condition keeps its position (duplicates of its type are dropped); a new one is appended.
     * Other conditions are untouched.
     *
     * @param observedGeneration the {@code metadata.generation} the condition was computed from, or null
     * @return a new list
     * @throws IllegalArgumentException if the type or reason is not valid for Kubernetes, or the
     *     status is not {@code True}, {@code False} or {@code Unknown}
     */
    public static List<V1Condition> set(List<V1Condition> conditions, String type, String status, String reason,
            String message, Long observedGeneration, Clock clock) {
        if (type == null || type.length() > 316 || !TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException("Condition type must be a CamelCase name such as Ready (optionally"
                    + " prefixed by a DNS domain and '/'), got '" + type + "'");
        }
        if (!STATUSES.contains(status)) {
            throw new IllegalArgumentException("Condition status must be True, False or Unknown, got '" + status + "'");
        }
        if (reason == null || reason.length() > 1024 || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException("Condition reason must be a CamelCase identifier such as"
                    + " ReconcileFailed, got '" + reason + "'");
        }
        Objects.requireNonNull(clock, "clock");
        List<V1Condition> result = new ArrayList<>();
        boolean placed = false;
        for (V1Condition existing : conditions == null ? List.<V1Condition>of() : conditions) {
            if (!type.equals(existing.getType())) {
                result.add(copy(existing));
            } else if (!placed) {
                OffsetDateTime transition = status.equals(existing.getStatus()) && existing.getLastTransitionTime() != null
                        ? existing.getLastTransitionTime() : now(clock);
                result.add(condition(type, status, reason, message, observedGeneration, transition));
                placed = true;
            }
        }
        if (!placed) {
            result.add(condition(type, status, reason, message, observedGeneration, now(clock)));
        }
        return result;
    }

    /** Whether {@code type} is present with status {@code True}. */
    public static boolean isTrue(List<V1Condition> conditions, String type) {
        return get(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }

    private static V1Condition condition(String type, String status, String reason, String message, Long generation,
            OffsetDateTime transition) {
        return new V1Condition().type(type).status(status).reason(reason).message(message == null ? "" : message)
                .observedGeneration(generation).lastTransitionTime(transition);
    }

    private static OffsetDateTime now(Clock clock) {
        // whole seconds: metav1.Time has second precision on the wire
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC).withNano(0);
    }

    private static V1Condition copy(V1Condition c) {
        return new V1Condition().type(c.getType()).status(c.getStatus()).reason(c.getReason()).message(c.getMessage())
                .observedGeneration(c.getObservedGeneration()).lastTransitionTime(c.getLastTransitionTime());
    }
}
