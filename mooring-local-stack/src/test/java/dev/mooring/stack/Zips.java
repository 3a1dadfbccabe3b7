package dev.mooring.stack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Zips written for the tests. */
final class Zips {

    private Zips() {
    }

    /** A zip of name → content, names ending in "*" stored executable (rwxr-xr-x) as a Unix zip stores them. */
    static Path write(Path zip, Map<String, String> entries) throws IOException {
        Files.deleteIfExists(zip);
        try (FileSystem out = FileSystems.newFileSystem(zip, Map.of("create", "true", "enablePosixFileAttributes", "true"))) {
            for (Map.Entry<String, String> entry : entries.entrySet()) {
                boolean executable = entry.getKey().endsWith("*");
                Path file = out.getPath("/" + (executable ? entry.getKey().substring(0, entry.getKey().length() - 1) : entry.getKey()));
                if (file.getParent() != null) {
                    Files.createDirectories(file.getParent());
                }
                Files.writeString(file, entry.getValue());
                if (executable) {
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
        }
        return zip;
    }

    /** A zip with one entry of exactly {@code name}, which need not be a path inside the zip (java.util.zip writes any name). */
    static Path withRawName(Path zip, String name) throws IOException {
        try (OutputStream file = Files.newOutputStream(zip); ZipOutputStream out = new ZipOutputStream(file)) {
            out.putNextEntry(new ZipEntry(name));
            out.write("x".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return zip;
    }
}
