package dev.mooring.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackerTest {

    @TempDir
    Path dir;

    @Test
    void unpacksOnceAndKeepsExecutableBits() throws IOException {
        Path zip = Zips.write(dir.resolve("a.zip"), Map.of("bin/run*", "#!/bin/sh\necho hi\n", "conf/a.txt", "a"));
        StackCache cache = StackCache.at(dir.resolve("cache"));

        Path target = cache.unpacked(zip, "part", "1.0");

        assertEquals(dir.resolve("cache/part/1.0"), target);
        assertEquals("a", Files.readString(target.resolve("conf/a.txt")));
        assertTrue(Files.isExecutable(target.resolve("bin/run")), "the stored mode is kept");
        assertFalse(Files.isExecutable(target.resolve("conf/a.txt")));
        assertEquals(Unpacker.sha256(zip), Files.readString(target.resolve(Unpacker.STAMP)));

        Files.writeString(target.resolve("conf/a.txt"), "changed here");
        cache.unpacked(zip, "part", "1.0");
        assertEquals("changed here", Files.readString(target.resolve("conf/a.txt")), "a matching stamp means no second unpack");
    }

    /** Two first uses at once, as two Maven builds (or two goals of one parallel build) may start: both get the whole folder. */
    @Test
    void twoFirstUsesAtOnceBothGetTheWholeFolder() throws Exception {
        java.util.Map<String, String> entries = new java.util.HashMap<>();
        for (int i = 0; i < 200; i++) {
            entries.put("lib/bundle-" + i + ".jar", "bundle " + i);
        }
        Path zip = Zips.write(dir.resolve("big.zip"), entries);
        StackCache cache = StackCache.at(dir.resolve("cache"));
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            java.util.List<java.util.concurrent.Future<Path>> uses = new java.util.ArrayList<>();
            for (int use = 0; use < 2; use++) {
                uses.add(threads.submit(() -> {
                    start.await();
                    return cache.unpacked(zip, "part", "1.0");
                }));
            }
            start.countDown();
            for (java.util.concurrent.Future<Path> use : uses) {
                Path target = use.get(60, java.util.concurrent.TimeUnit.SECONDS);
                for (int i = 0; i < 200; i++) {
                    assertEquals("bundle " + i, Files.readString(target.resolve("lib/bundle-" + i + ".jar")));
                }
            }
        } finally {
            threads.shutdownNow();
        }
        try (java.util.stream.Stream<Path> left = Files.list(dir.resolve("cache/part"))) {
            assertEquals(java.util.List.of(".lock", "1.0"), left.map(file -> file.getFileName().toString()).sorted().toList(),
                    "no temporary folder left behind");
        }
    }

    @Test
    void unpacksAgainWhenTheZipsContentChanged() throws IOException {
        StackCache cache = StackCache.at(dir.resolve("cache"));
        Path zip = Zips.write(dir.resolve("a.zip"), Map.of("old.txt", "1"));
        Path target = cache.unpacked(zip, "part", "1.0-SNAPSHOT");

        Zips.write(zip, Map.of("new.txt", "2"));
        cache.unpacked(zip, "part", "1.0-SNAPSHOT");

        assertEquals("2", Files.readString(target.resolve("new.txt")));
        assertFalse(Files.exists(target.resolve("old.txt")), "the folder is the new zip's alone");
        try (var left = Files.list(target.getParent())) {
            assertEquals(java.util.List.of(target), left.filter(Files::isDirectory).toList(), "no temporary folder left behind");
        }
    }

    @Test
    void refusesAnEntryOutsideItsFolder() throws IOException {
        Path zip = Zips.withRawName(dir.resolve("evil.zip"), "../../outside.txt");
        StackCache cache = StackCache.at(dir.resolve("cache"));

        IOException refused = assertThrows(IOException.class, () -> cache.unpacked(zip, "part", "1"));

        assertTrue(refused.getMessage().startsWith(zip + " cannot be unpacked") && refused.getMessage().contains("../../outside.txt"),
                refused.getMessage());
        assertFalse(Files.exists(dir.resolve("outside.txt")));
        assertFalse(Files.exists(dir.resolve("cache/outside.txt")));
        assertFalse(Files.exists(dir.resolve("cache/part/1")), "nothing unpacked");
    }

    @Test
    void aCorruptZipIsAnErrorNamingIt() throws IOException {
        Path zip = Files.writeString(dir.resolve("broken.zip"), "not a zip");

        IOException refused = assertThrows(IOException.class, () -> StackCache.at(dir.resolve("cache")).unpacked(zip, "part", "1"));

        assertFalse(Files.exists(dir.resolve("cache/part/1")));
        assertTrue(refused.getMessage().startsWith(zip + " cannot be unpacked"), refused.getMessage());
    }

    @Test
    void theCacheRootComesFromTheEnvironmentOrTheHomeFolder() {
        assertEquals(Path.of("/somewhere/cache"), StackCache.fromVariable("/somewhere/cache").root());
        assertEquals(Path.of(System.getProperty("user.home"), ".cache", "mooring"), StackCache.fromVariable(" ").root());
        assertEquals(Path.of(System.getProperty("user.home"), ".cache", "mooring"), StackCache.fromVariable(null).root());
    }
}
