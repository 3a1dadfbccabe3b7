package dev.mooring.web.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Mooring's REST resources, under {@code /mooring/api}. */
@ApplicationPath("/api")
public class MooringApplication extends Application {
}
