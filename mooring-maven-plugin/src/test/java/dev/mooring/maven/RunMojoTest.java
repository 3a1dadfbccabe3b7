package dev.mooring.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

/** mooring:run's debug port: a JDWP agent on the loopback interface that does not suspend the start; a wrong port is refused. */
class RunMojoTest {

    @Test
    void theDebugOptionListensOnLoopbackWithoutSuspending() {
        assertEquals("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005", RunMojo.debugOption(5005));
    }

    @Test
    void aFailedRebuildShowsMavensErrorsWithoutItsAdvice() {
        assertEquals(java.util.List.of("COMPILATION ERROR :", "/p/src/main/java/A.java:[26,29] ';' expected",
                "Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile)"),
                RunMojo.buildErrors(java.util.List.of("[INFO] Compiling 3 source files", "[ERROR] COMPILATION ERROR : ",
                        "[ERROR] /p/src/main/java/A.java:[26,29] ';' expected", "[ERROR] ",
                        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile)",
                        "[ERROR] -> [Help 1]", "[ERROR] ", "[ERROR] To see the full stack trace of the errors, re-run Maven with -e.")));
    }

    @Test
    void aPortOutOfRangeFailsTheGoalBeforeAnythingStarts() {
        RunMojo mojo = new RunMojo();
        mojo.debugPort = 70000;
        MojoFailureException refused = assertThrows(MojoFailureException.class, mojo::execute);
        assertTrue(refused.getMessage().contains("mooring.run.debug must be a port (1-65535), not 70000"), refused.getMessage());
    }
}
