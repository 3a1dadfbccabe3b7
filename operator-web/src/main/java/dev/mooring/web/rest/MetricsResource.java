package dev.mooring.web.rest;

import dev.mooring.engine.access.DelegatedAccess;
import dev.mooring.runtime.SecureMetrics;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * {@code GET /mooring/metrics}: the same series as Liberty's {@code /metrics}, on the HTTPS port
 * only, to callers whose bearer token the API server authenticates and whose user it authorizes
 * to {@code get} the non-resource URL {@code /mooring/metrics} ({@link SecureMetrics}). Answers
 * 401 without a valid token, 403 to a user without the right, 429 (Retry-After: 1) to a caller
 * with a new token while the reviews of new tokens are at their limit, 503 when the API server
 * cannot decide, and 403 on plain HTTP; each with a plain-text reason.
 */
@Path("mooring/metrics")
@RequestScoped
public class MetricsResource {

    @Inject
    SecureMetrics metrics;

    @Context
    SecurityContext security;

    @GET
    public Response metrics(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        if (!security.isSecure()) {
            return refusal(403, "/mooring/metrics is served on the HTTPS port only");
        }
        DelegatedAccess.Decision decision = metrics.check(authorization);
        if (!decision.allowed()) {
            Response.ResponseBuilder answer = Response.status(decision.status()).type(MediaType.TEXT_PLAIN_TYPE)
                    .entity(decision.reason() + "\n");
            if (decision.status() == 401) {
                answer.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
            }
            if (decision.status() == 429) {
                answer.header(HttpHeaders.RETRY_AFTER, "1");
            }
            return answer.build();
        }
        return Response.ok(metrics.text(), metrics.contentType()).build();
    }

    private static Response refusal(int status, String reason) {
        return Response.status(status).type(MediaType.TEXT_PLAIN_TYPE).entity(reason + "\n").build();
    }
}
