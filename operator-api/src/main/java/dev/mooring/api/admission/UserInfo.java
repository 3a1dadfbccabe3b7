package dev.mooring.api.admission;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The identity the API server authenticated for the request. Mooring passes it on as sent; it
 * is not authenticated again here.
 *
 * @param username the user name, such as {@code system:serviceaccount:ns:name}; empty when absent
 * @param uid the user's UID; empty when absent
 * @param groups the user's groups (immutable)
 * @param extra extra attributes (immutable)
 */
public record UserInfo(String username, String uid, List<String> groups, Map<String, List<String>> extra) {

    public UserInfo {
        username = Objects.requireNonNullElse(username, "");
        uid = Objects.requireNonNullElse(uid, "");
        groups = groups == null ? List.of() : List.copyOf(groups);
        extra = extra == null ? Map.of() : Map.copyOf(extra);
    }
}
