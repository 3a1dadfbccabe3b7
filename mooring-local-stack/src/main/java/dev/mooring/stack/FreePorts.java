package dev.mooring.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Ports that are free on this machine right now, each one different, picked by the kernel. */
public final class FreePorts {

    private FreePorts() {
    }

    /**
     * {@code count} free ports, all held open until each is known, so that none repeats.
     *
     * @throws UncheckedIOException when the machine has no port to give
     */
    public static int[] pick(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port to pick", e);
        } finally {
            for (ServerSocket socket : sockets) {
                closeQuietly(socket);
            }
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            // the port was ours; nothing to release
        }
    }
}
