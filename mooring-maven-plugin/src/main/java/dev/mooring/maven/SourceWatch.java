package dev.mooring.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Watches source folders for {@code mooring:run} and calls back once after each burst of
 * changes (an IDE saving several files, a {@code git checkout}): the folders are polled, and a
 * change is acted on when nothing more changed for the quiet period. Polling rather than a
 * {@code WatchService}: it sees folders created later and works the same on every file system.
 * A tool's thread of its own (Maven's process, not the operator's server).
 */
final class SourceWatch implements AutoCloseable {

    static final Duration POLL = Duration.ofMillis(500);
    static final Duration QUIET = Duration.ofMillis(700);

    private final List<Path> roots;
    private final Runnable onChange;
    private final LongSupplier nanoTime;
    private final Thread thread;
    private volatile boolean closed;
    private String seen;
    private String pending;
    private long pendingSince;

    /**
     * @param roots the folders to watch (missing ones count as empty)
     * @param onChange called on the watch's thread after a burst of changes
     */
    SourceWatch(List<Path> roots, Runnable onChange) {
        this(roots, onChange, System::nanoTime);
    }

    SourceWatch(List<Path> roots, Runnable onChange, LongSupplier nanoTime) {
        this.roots = List.copyOf(roots);
        this.onChange = Objects.requireNonNull(onChange);
        this.nanoTime = nanoTime;
        this.seen = fingerprint();
        this.thread = new Thread(this::loop, "mooring:run source watch");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** One poll: true when it called back. For the loop, and for tests with their own clock. */
    boolean poll() {
        String now = fingerprint();
        if (!now.equals(pending == null ? seen : pending)) {
            pending = now; // changed (again): wait until it stays so
            pendingSince = nanoTime.getAsLong();
            return false;
        }
        if (pending != null && nanoTime.getAsLong() - pendingSince >= QUIET.toNanos()) {
            seen = pending;
            pending = null;
            onChange.run();
            return true;
        }
        return false;
    }

    private void loop() {
        while (!closed) {
            try {
                poll();
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // a file removed while it was read: the next poll sees the folder as it is then
            }
        }
    }

    /** Every file's path, size and time of change, in order: a change to any of them changes it. */
    String fingerprint() {
        StringBuilder all = new StringBuilder();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(Files::isRegularFile).sorted().forEach(file -> {
                    try {
                        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                        all.append(file).append(' ').append(attributes.size()).append(' ')
                                .append(attributes.lastModifiedTime().toMillis()).append('\n');
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all.toString();
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
