package dev.mooring.web.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * Mooring's REST resources: the read-only API under {@code /mooring/api}, and the admission
 * webhooks at their own paths ({@code /validate/...}, {@code /mutate/...} or an override),
 * served over HTTPS only.
 */
@ApplicationPath("/")
public class MooringApplication extends Application {
}
