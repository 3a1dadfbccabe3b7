package dev.mooring.engine.admission;

import dev.mooring.api.admission.AdmissionRequest;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/** The bodies the dispatcher answers with: AdmissionReview responses, and error messages for what is no review. */
final class ReviewAnswers {

    private ReviewAnswers() {
    }

    static AdmissionDispatcher.Answer allowed(TypedAdmissionRequest<?> request, JsonArray patch) {
        return new AdmissionDispatcher.Answer(200, response(request.uid(), true, 0, null, null, patch, request.warnings()));
    }

    static AdmissionDispatcher.Answer denial(AdmissionRequest<?> request, int code, String reason, String message) {
        List<String> warnings = request instanceof TypedAdmissionRequest<?> typed ? typed.warnings() : List.of();
        return new AdmissionDispatcher.Answer(200, response(request.uid(), false, code, reason, message, null, warnings), true);
    }

    static String response(String uid, boolean allowed, int code, String reason, String message, JsonArray patch,
            List<String> warnings) {
        JsonObjectBuilder response = AdmissionDispatcher.JSON_P.createObjectBuilder().add("uid", uid).add("allowed", allowed);
        if (!allowed) {
            JsonObjectBuilder status = AdmissionDispatcher.JSON_P.createObjectBuilder().add("code", code).add("message", message);
            if (reason != null && !reason.isEmpty()) {
                status.add("reason", reason);
            }
            response.add("status", status);
        }
        if (patch != null) {
            response.add("patchType", "JSONPatch")
                    .add("patch", Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
        }
        if (!warnings.isEmpty()) {
            JsonArrayBuilder list = AdmissionDispatcher.JSON_P.createArrayBuilder();
            warnings.forEach(list::add);
            response.add("warnings", list);
        }
        return AdmissionDispatcher.JSON_P.createObjectBuilder().add("apiVersion", AdmissionDispatcher.API_VERSION).add("kind", "AdmissionReview")
                .add("response", response).build().toString();
    }

    static AdmissionDispatcher.Answer message(int status, String message) {
        return message(status, message, null);
    }

    /** An error answer: the message, and the request's uid when it was readable. */
    static AdmissionDispatcher.Answer message(int status, String message, String uid) {
        JsonObjectBuilder body = AdmissionDispatcher.JSON_P.createObjectBuilder().add("message", message);
        if (uid != null) {
            body.add("uid", uid);
        }
        return new AdmissionDispatcher.Answer(status, body.build().toString());
    }
}
