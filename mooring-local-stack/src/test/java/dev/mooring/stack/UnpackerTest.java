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
