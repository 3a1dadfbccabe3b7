package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When Mooring's start waits for the restore of a checkpoint, and that it then runs once, in order. */
class CheckpointRestoreTest {

    private final String command = System.getProperty("sun.java.command");

    @AfterEach
    void restoreTheCommand() {
        if (command == null) {
            System.clearProperty("sun.java.command");
        } else {
            System.setProperty("sun.java.command", command);
        }
    }

    @Test
    void onlyACheckpointAfterTheApplicationsStartDefers() {
        String server = "/opt/ol/wlp/bin/tools/ws-server.jar defaultServer";
        assertTrue(CheckpointRestore.checkpointAfterAppStart(server + " --internal-checkpoint-at=afterAppStart"));
        assertTrue(CheckpointRestore.checkpointAfterAppStart(server + " --internal-checkpoint-at=AFTERAPPSTART --clean"));
        assertFalse(CheckpointRestore.checkpointAfterAppStart(server + " --internal-checkpoint-at=beforeAppStart"),
                "before the application starts nothing of Mooring's has run");
        assertFalse(CheckpointRestore.checkpointAfterAppStart(server));
        assertFalse(CheckpointRestore.checkpointAfterAppStart(server + " --internal-checkpoint-at=afterAppStartX"));
        assertFalse(CheckpointRestore.checkpointAfterAppStart(null));
    }

    @Test
    void withoutACheckpointTheStartRunsAtOnce() {
        System.setProperty("sun.java.command", "ws-server.jar defaultServer");
        CheckpointRestore checkpoint = new CheckpointRestore();
        List<String> started = new ArrayList<>();
        checkpoint.startNowOrOnRestore("the controllers", () -> started.add("controllers"));
        assertEquals(List.of("controllers"), started);
        assertFalse(checkpoint.pending());
    }

    @Test
    void withACheckpointPendingTheStartsWaitForTheRestoreAndRunOnceInOrderEvenWhenOneFails() {
        System.setProperty("sun.java.command", "ws-server.jar defaultServer --internal-checkpoint-at=afterAppStart");
        CheckpointRestore checkpoint = new CheckpointRestore();
        List<String> started = new ArrayList<>();
        assertTrue(checkpoint.pending());
        checkpoint.startNowOrOnRestore("the controllers", () -> {
            started.add("controllers");
            throw new IllegalStateException("no kubeconfig");
        });
        checkpoint.startNowOrOnRestore("the admission webhooks", () -> started.add("admission"));
        assertEquals(List.of(), started, "nothing runs before the restore");
        checkpoint.afterRestore();
        assertEquals(List.of("controllers", "admission"), started, "a failed start does not stop the next");
        assertFalse(checkpoint.pending(), "restored: the same command no longer defers");
        checkpoint.afterRestore();
        checkpoint.startNowOrOnRestore("late", () -> started.add("late"));
        assertEquals(List.of("controllers", "admission", "late"), started, "each start once; after the restore at once");
    }
}
