package dev.mooring.web.admission;

import dev.mooring.engine.admission.AdmissionDispatcher;
import dev.mooring.runtime.AdmissionService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.InputStream;

/**
 * The admission webhooks: every path not taken by another resource, answered by
 * {@link AdmissionService} (which knows the routes). This class only adapts HTTP: the
 * AdmissionReview arrives as a raw stream so that the size limit, the content type and
 * malformed JSON are answered by Mooring with its documented codes, not by the JAX-RS runtime.
 */
@Path("/")
@RequestScoped
public class AdmissionResource {

    @Inject
    AdmissionService admission;

    @Context
    SecurityContext security;

    @Context
    Request request;

    @Context
    jakarta.servlet.http.HttpServletRequest servlet;

    @POST
    @Path("{path: .+}")
    public Response post(@PathParam("path") String path, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            InputStream body) {
        return answer(path, contentType, body);
    }

    @GET
    @Path("{path: .+}")
    public Response get(@PathParam("path") String path) {
        return answer(path, null, null);
    }

    @PUT
    @Path("{path: .+}")
    public Response put(@PathParam("path") String path) {
        return answer(path, null, null);
    }

    @DELETE
    @Path("{path: .+}")
    public Response delete(@PathParam("path") String path) {
        return answer(path, null, null);
    }

    @PATCH
    @Path("{path: .+}")
    public Response patch(@PathParam("path") String path) {
        return answer(path, null, null);
    }

    /** Declared so that Mooring answers it (403 on plain HTTP, 405 over HTTPS), not JAX-RS with an Allow list. */
    @OPTIONS
    @Path("{path: .+}")
    public Response options(@PathParam("path") String path) {
        return answer(path, null, null);
    }

    /** Declared for the same reason as {@link #options}. */
    @HEAD
    @Path("{path: .+}")
    public Response head(@PathParam("path") String path) {
        return answer(path, null, null);
    }

    /** The TLS client certificate chain, leaf first ({@link ClientCertificates}); null without one. */
    private java.security.cert.X509Certificate[] clientChain() {
        return servlet.getAttribute(ClientCertificates.ATTRIBUTE) instanceof java.security.cert.X509Certificate[] chain ? chain : null;
    }

    private Response answer(String path, String contentType, InputStream body) {
        AdmissionDispatcher.Answer answer = admission.handle(request.getMethod(), "/" + path, contentType, body,
                security.isSecure(), clientChain());
        Response.ResponseBuilder response = Response.status(answer.status()).type(MediaType.APPLICATION_JSON_TYPE).entity(answer.body());
        if (answer.status() == 408 || answer.status() == 413) {
            // the rest of the body is not read: the connection ends with the answer instead of being drained
            response.header("Connection", "close");
        }
        return response.build();
    }
}
