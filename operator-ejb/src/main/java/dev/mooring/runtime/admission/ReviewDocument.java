package dev.mooring.runtime.admission;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The {@code admission.k8s.io/v1} AdmissionReview as the API server sends it, bound with JSON-B.
 * The embedded objects stay JSON here; they are decoded with client-java's model JSON later, so
 * that custom types and unknown fields survive.
 */
public class ReviewDocument {

    public String apiVersion;
    public String kind;
    public Request request;

    /** {@code request}. */
    public static class Request {
        public String uid;
        public GroupVersionKind kind;
        public GroupVersionResource resource;
        public String subResource;
        public String name;
        public String namespace;
        public String operation;
        public User userInfo;
        public JsonObject object;
        public JsonObject oldObject;
        public Boolean dryRun;
        public JsonObject options;
    }

    /** {@code request.kind}. */
    public static class GroupVersionKind {
        public String group;
        public String version;
        public String kind;
    }

    /** {@code request.resource}. */
    public static class GroupVersionResource {
        public String group;
        public String version;
        public String resource;
    }

    /** {@code request.userInfo}. */
    public static class User {
        public String username;
        public String uid;
        public List<String> groups;
        public Map<String, List<String>> extra;
    }
}
