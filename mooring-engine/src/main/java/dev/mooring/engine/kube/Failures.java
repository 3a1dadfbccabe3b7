package dev.mooring.engine.kube;

import dev.mooring.api.client.KubernetesException;

/**
 * How the engine classifies a failed request, in one place: whether a later attempt may succeed
 * (retry with backoff) or the failure is the caller's to fix (report and stop).
 */
public final class Failures {

    private Failures() {
    }

    /**
     * True for failures worth retrying because a later attempt may not see them: no answer
     * (code 0), 429 and every 5xx.
     */
    public static boolean isTransient(KubernetesException e) {
        return e.code() == 0 || e.code() == 429 || e.code() >= 500;
    }

    /**
     * True for client errors no retry can mend (401, 403, 404, 422 and the like); 408, 409, 410
     * and 429 are not, nor is a missing answer or a 5xx.
     */
    public static boolean isFatal(KubernetesException e) {
        int code = e.code();
        return code >= 400 && code < 500 && code != 408 && code != 409 && code != 410 && code != 429;
    }

    /** The innermost cause of {@code e} (client-java wraps a transport's IOException in RuntimeExceptions). */
    public static Throwable rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** {@code e}'s message, followed by its innermost cause in parentheses when it has one: what a failure list shows. */
    public static String describe(Throwable e) {
        Throwable root = rootCause(e);
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }
}
