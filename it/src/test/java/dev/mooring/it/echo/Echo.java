package dev.mooring.it.echo;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;

/** Answers a POST with its body: the plain echo that admission's decoding cost is compared with (at /echo/). */
@Path("/")
public class Echo {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public byte[] echo(byte[] body) {
        return body;
    }

    /** The application: this one resource. */
    @ApplicationPath("/")
    public static class EchoApplication extends Application {
    }
}
