package dev.mooring.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Unpacks a zip into a cache folder with one rule: the folder's {@code .unpacked-from} stamp
 * holds the SHA-256 of the zip it came from, and a folder whose stamp matches is used as it is.
 * The zip is unpacked into a temporary sibling and moved into place under a lock on the parent
 * folder's {@code .lock}, so two processes (or two threads) never see half a folder. Unix permissions stored in
 * the zip are kept (Liberty's {@code bin/server} stays executable) without the system's
 * {@code unzip}; an entry that would land outside the folder is refused.
 */
final class Unpacker {

    static final String STAMP = ".unpacked-from";

    private Unpacker() {
    }

    static Path unpack(Path zip, Path target) throws IOException {
        String stamp = sha256(zip);
        Path parent = target.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        try (RandomAccessFile lockFile = new RandomAccessFile(parent.resolve(".lock").toFile(), "rw");
                FileLock lock = lock(lockFile)) {
            Path stampFile = target.resolve(STAMP);
            if (Files.isRegularFile(stampFile) && Files.readString(stampFile).equals(stamp)) {
                return target;
            }
            Path temporary = Files.createTempDirectory(parent, ".unpack");
            try {
                extract(zip, temporary);
                Files.writeString(temporary.resolve(STAMP), stamp);
                deleteRecursively(target);
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                deleteRecursively(temporary);
            }
            return target;
        }
    }

    /**
     * The lock of the folder, waiting for another process and for another thread of this one: a
     * file lock is held by the whole JVM, so a second thread asking for it is refused with
     * OverlappingFileLockException instead of waiting (two goals of a parallel build, two test
     * classes starting the local API server at once), and tries again here.
     */
    private static FileLock lock(RandomAccessFile lockFile) throws IOException {
        while (true) {
            try {
                return lockFile.getChannel().lock();
            } catch (java.nio.channels.OverlappingFileLockException heldHere) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while waiting for the cache's lock " + lockFile);
                }
            }
        }
    }

    private static void extract(Path zip, Path into) throws IOException {
        try (FileSystem entries = open(zip); Stream<Path> walk = Files.walk(entries.getPath("/"))) {
            for (Path entry : walk.toList()) {
                String name = entry.toString().substring(1);
                if (name.isEmpty()) {
                    continue;
                }
                Path file = into.resolve(name).normalize();
                if (!file.startsWith(into) || file.equals(into)) {
                    throw new IOException(zip.getFileName() + " has an entry outside its folder: " + name);
                }
                if (Files.isDirectory(entry)) {
                    Files.createDirectories(file);
                    continue;
                }
                Files.createDirectories(file.getParent());
                Files.copy(entry, file);
                Set<PosixFilePermission> permissions = permissions(entry);
                if (!permissions.isEmpty()) {
                    permissions.add(PosixFilePermission.OWNER_READ);
                    permissions.add(PosixFilePermission.OWNER_WRITE);
                    Files.setPosixFilePermissions(file, permissions);
                }
            }
        }
    }

    /** The zip as a file system; one whose entries name {@code ..} (a way out of the folder) is refused here. */
    private static FileSystem open(Path zip) throws IOException {
        try {
            return FileSystems.newFileSystem(zip, Map.of("enablePosixFileAttributes", "true"));
        } catch (IOException | RuntimeException e) {
            throw new IOException(zip + " cannot be unpacked: " + e.getMessage(), e);
        }
    }

    /** The entry's permissions as the zip stores them (zipfs' "zip:permissions"), or none when it stores none. */
    @SuppressWarnings("unchecked")
    private static Set<PosixFilePermission> permissions(Path entry) throws IOException {
        Object stored = Files.getAttribute(entry, "zip:permissions");
        return stored == null ? Set.of() : new HashSet<>((Set<PosixFilePermission>) stored);
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM lacks SHA-256", e);
        }
    }

    static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(path)) {
            files = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path file : files) {
            Files.delete(file);
        }
    }
}
