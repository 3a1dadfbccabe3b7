package dev.mooring.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mooring:run's source watch: one call back per burst of changes, after it went quiet; nothing without a change. */
class SourceWatchTest {

    @TempDir
    Path dir;

    @Test
    void aBurstOfChangesIsActedOnOnceAfterItWentQuiet() throws Exception {
        Path sources = Files.createDirectories(dir.resolve("src/main/java"));
        Path reconciler = Files.writeString(sources.resolve("A.java"), "class A {}");
        AtomicLong now = new AtomicLong();
        AtomicInteger calls = new AtomicInteger();
        SourceWatch watch = new SourceWatch(List.of(sources, dir.resolve("src/main/resources")), calls::incrementAndGet, now::get);

        assertFalse(watch.poll(), "nothing changed");
        Files.writeString(reconciler, "class A { int changed; }");
        Files.setLastModifiedTime(reconciler, FileTime.fromMillis(System.currentTimeMillis() + 1000));
        assertFalse(watch.poll(), "a change: wait until it stays so");
        now.addAndGet(SourceWatch.QUIET.toNanos() / 2);
        Files.writeString(sources.resolve("B.java"), "class B {}"); // the same burst, a second file
        assertFalse(watch.poll());
        now.addAndGet(SourceWatch.QUIET.toNanos() / 2);
        assertFalse(watch.poll(), "quiet for half the period only since the last change");
        now.addAndGet(SourceWatch.QUIET.toNanos());
        assertTrue(watch.poll());
        assertEquals(1, calls.get());
        now.addAndGet(SourceWatch.QUIET.toNanos() * 5);
        assertFalse(watch.poll(), "once per burst");

        Files.createDirectories(dir.resolve("src/main/resources/META-INF"));
        Files.writeString(dir.resolve("src/main/resources/META-INF/beans.xml"), "<beans/>");
        assertFalse(watch.poll());
        now.addAndGet(SourceWatch.QUIET.toNanos());
        assertTrue(watch.poll(), "a folder made after the watch started is seen");
        assertEquals(2, calls.get());
    }
}
