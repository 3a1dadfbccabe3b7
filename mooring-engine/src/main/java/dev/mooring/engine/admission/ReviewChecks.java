package dev.mooring.engine.admission;

import com.google.gson.JsonParser;
import dev.mooring.api.admission.Operation;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import jakarta.json.JsonObject;
import java.util.List;

/**
 * What a decoded review must be before a method sees it: a known operation, the kind, resource
 * and subresource the route admits, the objects its operation carries, each decoding into the
 * route's model. A failed check is a {@link Refused} that names the problem, never a value.
 */
final class ReviewChecks {

    private static final int MAX_DETAIL = 300;

    private ReviewChecks() {
    }

    static Operation operation(String uid, String operation) throws Refused {
        if (operation != null) {
            for (Operation known : Operation.values()) {
                if (known.name().equals(operation)) {
                    return known;
                }
            }
        }
        throw invalid(uid, "request.operation " + quote(operation) + " is not CREATE, UPDATE, DELETE or CONNECT");
    }

    static void checkResource(AdmissionRoute route, String uid, ReviewDocument.Request request) throws Refused {
        ResourceType<?> expected = route.requestKind();
        ReviewDocument.GroupVersionKind kind = request.kind();
        if (kind == null) {
            throw invalid(uid, "request.kind is missing");
        }
        if (expected != null && !(expected.group().equals(kind.group()) && expected.version().equals(kind.version())
                && expected.kind().equals(kind.kind()))) {
            throw invalid(uid, "request.kind " + gvk(kind.group(), kind.version(), kind.kind()) + " is not "
                    + gvk(expected.group(), expected.version(), expected.kind()) + ", the kind this webhook admits");
        }
        ReviewDocument.GroupVersionResource resource = request.resource();
        ResourceType<?> target = route.rule().target();
        if (resource == null || !target.group().equals(resource.group()) || !target.version().equals(resource.version())
                || !route.rule().plural().equals(resource.resource())) {
            throw invalid(uid, "request.resource " + (resource == null ? "(missing)" : gvk(resource.group(), resource.version(),
                    resource.resource())) + " is not " + gvk(target.group(), target.version(), route.rule().plural()));
        }
        String subresource = request.subResource();
        if (!route.rule().subresource().equals(subresource)) {
            throw invalid(uid, "request.subResource " + quote(subresource) + " is not " + quote(route.rule().subresource()));
        }
    }

    static void checkObjects(String uid, Operation operation, ReviewDocument.Request request) throws Refused {
        boolean hasObject = request.object() != null;
        boolean hasOld = request.oldObject() != null;
        boolean fits = switch (operation) {
            case CREATE, CONNECT -> hasObject && !hasOld;
            case UPDATE -> hasObject && hasOld;
            case DELETE -> !hasObject && hasOld;
        };
        if (!fits) {
            throw invalid(uid, "a " + operation + " request " + switch (operation) {
                case CREATE, CONNECT -> "has an object and no oldObject";
                case UPDATE -> "has an object and an oldObject";
                case DELETE -> "has an oldObject and no object";
            });
        }
    }

    static KubernetesObject typed(AdmissionRoute route, String uid, JsonObject json, String field) throws Refused {
        if (json == null) {
            return null;
        }
        ResourceType<?> expected = route.requestKind();
        if (expected != null) {
            String apiVersion = json.get("apiVersion") instanceof jakarta.json.JsonString s ? s.getString() : null;
            String kind = json.get("kind") instanceof jakarta.json.JsonString s ? s.getString() : null;
            if (!expected.apiVersion().equals(apiVersion) || !expected.kind().equals(kind)) {
                throw invalid(uid, "request." + field + " is " + quote(apiVersion) + " " + quote(kind) + ", not "
                        + expected.apiVersion() + " " + expected.kind());
            }
        }
        try {
            String text = json.toString();
            if (DynamicKubernetesObject.class.equals(route.requestModel())) {
                return new DynamicKubernetesObject(JsonParser.parseString(text).getAsJsonObject());
            }
            return JSON.getGson().fromJson(text, route.requestModel());
        } catch (RuntimeException | StackOverflowError e) {
            String problem = e instanceof RuntimeException runtime ? dev.mooring.api.Manifests.decodeFailure(runtime) : "nested too deeply";
            throw new Refused(new AdmissionDispatcher.Answer(200, ReviewAnswers.response(uid, false, 422, "Invalid", "Invalid "
                    + route.requestModel().getSimpleName() + " in request." + field + ": " + problem, null, List.of()), true));
        }
    }

    static Refused invalid(String uid, String why) {
        return new Refused(ReviewAnswers.message(400, "Invalid or mismatched " + AdmissionDispatcher.API_VERSION + " AdmissionReview: " + why, uid));
    }

    static String gvk(String group, String version, String name) {
        return (group == null || group.isEmpty() ? "" : group + "/") + version + " " + name;
    }

    static String quote(String value) {
        return value == null ? "(missing)" : "'" + shorten(value) + "'";
    }

    static String shorten(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= MAX_DETAIL ? oneLine : oneLine.substring(0, MAX_DETAIL) + "...";
    }
}
