package dev.mooring.stack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where Mooring keeps downloads and builds on this machine: {@code MOORING_CACHE}, or
 * {@code ~/.cache/mooring} when that is unset or blank. Each part has a folder of its own,
 * keyed by version ({@code <root>/<part>/<version>}); two processes may use the cache at once
 * (every change to it is made under a file lock, see {@link #unpacked}).
 */
public final class StackCache {

    private final Path root;

    private StackCache(Path root) {
        this.root = root.toAbsolutePath();
    }

    /** The cache of this process's environment. */
    public static StackCache fromEnvironment() {
        return fromVariable(System.getenv("MOORING_CACHE"));
    }

    static StackCache fromVariable(String configured) {
        return new StackCache(configured == null || configured.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache", "mooring") : Path.of(configured));
    }

    /** A cache rooted at {@code root} (tests, and callers that were given the folder). */
    public static StackCache at(Path root) {
        return new StackCache(root);
    }

    public Path root() {
        return root;
    }

    /** The folder of {@code version} of {@code part}. */
    public Path folder(String part, String version) {
        return root.resolve(part).resolve(version);
    }

    /**
     * {@code zip} unpacked into {@link #folder folder(part, version)}: once, and again only
     * when the zip's content differs from the one unpacked there (see {@link Unpacker}).
     *
     * @throws IOException when the zip cannot be read, names a file outside the folder, or the
     *     folder cannot be written
     */
    public Path unpacked(Path zip, String part, String version) throws IOException {
        return Unpacker.unpack(zip, folder(part, version));
    }

    /** The variables a child process needs to use this cache ({@code MOORING_CACHE}). */
    public Map<String, String> environment() {
        return Map.of("MOORING_CACHE", root.toString());
    }
}
