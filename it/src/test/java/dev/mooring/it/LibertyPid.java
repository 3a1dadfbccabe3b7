package dev.mooring.it;

import java.util.Optional;

/** The process of a running Liberty server, found by its server name on its command line. */
final class LibertyPid {

    private LibertyPid() {
    }

    /** The running server's process, if there is one. */
    static Optional<ProcessHandle> find(String server) {
        return ProcessHandle.allProcesses().filter(process -> process.info().commandLine()
                .map(line -> line.contains("ws-server.jar") && (line.endsWith(" " + server) || line.contains(" " + server + " ")))
                .orElse(false)).findFirst();
    }

    /** The running server's process. */
    static ProcessHandle of(String server) {
        return find(server).orElseThrow(() -> new IllegalStateException("no Liberty process for server " + server));
    }
}
