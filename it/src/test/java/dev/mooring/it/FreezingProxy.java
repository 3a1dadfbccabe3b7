package dev.mooring.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy (TLS passes through untouched) whose open connections can be frozen:
 * bytes stop flowing but nothing is closed, as with a dead NAT entry or a half-open connection.
 * New connections keep working. Test code only.
 */
final class FreezingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    /** When each connection was accepted (epoch ms), in order. */
    final List<Long> accepted = new CopyOnWriteArrayList<>();

    private static final class Link {
        final Socket client;
        final Socket upstream;
        volatile boolean frozen;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }
    }

    FreezingProxy(int targetPort) throws IOException {
        this.target = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "freezing-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private volatile long delayMillis;

    /** Hold every answer (server to client) this long before forwarding it: a slow API server. */
    void delayAnswers(java.time.Duration delay) {
        delayMillis = delay.toMillis();
    }

    /** Stop forwarding on every connection open now; they stay open. */
    void freezeOpenConnections() {
        links.forEach(link -> link.frozen = true);
    }

    /** Close every connection open now, as a load balancer or an API server restart does; new ones keep working. */
    void cutOpenConnections() {
        for (Link link : links) {
            links.remove(link);
            close(link.client);
            close(link.upstream);
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                accepted.add(System.currentTimeMillis());
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                Link link = new Link(client, upstream);
                links.add(link);
                pump(link, client, upstream, false);
                pump(link, upstream, client, true);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Link link, Socket from, Socket to, boolean answers) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    while (link.frozen) {
                        Thread.sleep(100); // swallow nothing, forward nothing: the peer just hears silence
                    }
                    if (answers && delayMillis > 0) {
                        Thread.sleep(delayMillis);
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // connection ended
            } finally {
                if (!link.frozen) {
                    close(from);
                    close(to);
                }
            }
        }, "freezing-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Link link : links) {
            link.frozen = false;
            close(link.client);
            close(link.upstream);
        }
    }
}
