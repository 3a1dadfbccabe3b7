package dev.mooring.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Podman as this machine runs it: as root, with runc and cgroupfs (crun fails on this kernel's
 * cgroup layout), and ulimits set explicitly (the defaults are refused). Test code only, shared
 * with the author-path tests through this module's test jar.
 */
public final class Podman {

    private static final List<String> GLOBAL = List.of("podman", "--runtime", "runc", "--cgroup-manager=cgroupfs");
    private static final List<String> ULIMITS = List.of("--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024");

    private Podman() {
    }

    /** What a command printed and how it ended. */
    record Result(int exit, String output) {
    }

    /** The stand-in base image (built once, then loaded from the cache): liberty-base/build.sh of {@code root}. */
    public static String standInBase(Path root) throws Exception {
        Path script = root.resolve("liberty-base/build.sh");
        // MOORING_BASE_JAVA (17, 21 or 25) from -Dmooring.it.base.java, when given: the image's JVM
        String java = System.getProperty("mooring.it.base.java", "").trim();
        List<String> command = java.isEmpty() ? List.of("bash", script.toString())
                : List.of("env", "MOORING_BASE_JAVA=" + java, "bash", script.toString());
        Result built = run(Duration.ofMinutes(20), command);
        if (built.exit() != 0) {
            throw new IllegalStateException("liberty-base/build.sh failed: " + built.output());
        }
        String[] lines = built.output().trim().split("\n");
        return lines[lines.length - 1].trim();
    }

    /** Builds {@code containerfile} in {@code context} on {@code base} as {@code tag}. */
    public static void build(Path context, Path containerfile, String base, String tag) throws Exception {
        List<String> command = new ArrayList<>(GLOBAL);
        command.addAll(List.of("build", "-q", "-f", containerfile.toString(), "--build-arg", "BASE=" + base, "-t", tag));
        command.addAll(ULIMITS);
        command.add(context.toString());
        Result built = run(Duration.ofMinutes(10), command);
        if (built.exit() != 0) {
            throw new IllegalStateException("podman build of " + containerfile + " failed: " + built.output());
        }
    }

    /** Starts a detached container on the host's network; returns its id. */
    public static String runDetached(String name, List<String> options, String image) throws Exception {
        List<String> command = new ArrayList<>(GLOBAL);
        command.addAll(List.of("run", "-d", "--name", name, "--network", "host"));
        command.addAll(ULIMITS);
        command.addAll(options);
        command.add(image);
        Result started = run(Duration.ofMinutes(2), command);
        if (started.exit() != 0) {
            throw new IllegalStateException("podman run failed: " + started.output());
        }
        return started.output().trim();
    }

    /** A podman command with the global options; fails on a non-zero exit. */
    public static String podman(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(GLOBAL);
        command.addAll(List.of(arguments));
        Result result = run(Duration.ofMinutes(2), command);
        if (result.exit() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + result.output());
        }
        return result.output();
    }

    /**
     * The running containers of the pods that the local API server in {@code runDir} runs
     * ({@code --run-pods}) whose {@code namespace/name} starts with {@code podPrefix}, oldest first.
     * Only that server's: the pod runner labels each container with its pods folder, so that a
     * test never picks (or waits on) a container of another run on the same machine.
     */
    public static List<String> podContainers(Path runDir, String podPrefix) throws Exception {
        return podman("ps", "--sort", "created", "--filter", "label=testbed.mooring.dev/dir=" + runDir.toAbsolutePath().resolve("pods"),
                "--format", "{{.Names}} {{.Labels}}").lines()
                .filter(line -> line.contains("testbed.mooring.dev/pod:" + podPrefix)).map(line -> line.split(" ", 2)[0]).toList();
    }

    /** Removes the container, running or not; never fails. */
    public static void remove(String name) {
        try {
            List<String> command = new ArrayList<>(GLOBAL);
            command.addAll(List.of("rm", "-f", "-t", "5", name));
            run(Duration.ofMinutes(1), command);
        } catch (Exception e) {
            // nothing to remove
        }
    }

    /**
     * The podman options for the container of a Deployment (its first): its read-only root file
     * system, each {@code emptyDir} mount as a tmpfs (mode 1777, as an emptyDir is writable by any
     * user), dropped capabilities, no privilege escalation, its memory limit, its environment with
     * the downward API's {@code metadata.namespace} and {@code spec.serviceAccountName} resolved.
     */
    public static List<String> asTheDeploymentSays(jakarta.json.JsonObject deployment) {
        jakarta.json.JsonObject pod = deployment.getJsonObject("spec").getJsonObject("template").getJsonObject("spec");
        jakarta.json.JsonObject operator = pod.getJsonArray("containers").getJsonObject(0);
        java.util.Set<String> emptyDirs = new java.util.HashSet<>();
        pod.getJsonArray("volumes").forEach(volume -> {
            if (volume.asJsonObject().containsKey("emptyDir")) {
                emptyDirs.add(volume.asJsonObject().getString("name"));
            }
        });
        List<String> options = new ArrayList<>();
        jakarta.json.JsonObject security = operator.getJsonObject("securityContext");
        if (security.getBoolean("readOnlyRootFilesystem")) {
            options.add("--read-only");
        }
        if (!security.getBoolean("allowPrivilegeEscalation")) {
            options.addAll(List.of("--security-opt", "no-new-privileges"));
        }
        security.getJsonObject("capabilities").getJsonArray("drop").forEach(cap -> options.addAll(List.of("--cap-drop",
                ((jakarta.json.JsonString) cap).getString())));
        operator.getJsonArray("volumeMounts").forEach(mount -> {
            if (emptyDirs.contains(mount.asJsonObject().getString("name"))) {
                options.addAll(List.of("--mount", "type=tmpfs,destination=" + mount.asJsonObject().getString("mountPath")
                        + ",tmpfs-mode=1777"));
            }
        });
        String memory = operator.getJsonObject("resources").getJsonObject("limits").getString("memory");
        options.addAll(List.of("--memory", memory.replace("Mi", "m")));
        String namespace = deployment.getJsonObject("metadata").getString("namespace");
        operator.getJsonArray("env").forEach(item -> {
            jakarta.json.JsonObject variable = item.asJsonObject();
            String value;
            if (variable.containsKey("value")) {
                value = variable.getString("value");
            } else {
                // the downward API's fields as the kubelet resolves them
                String field = variable.getJsonObject("valueFrom").getJsonObject("fieldRef").getString("fieldPath");
                value = switch (field) {
                    case "metadata.namespace" -> namespace;
                    case "spec.serviceAccountName" -> pod.getString("serviceAccountName", "default");
                    default -> throw new IllegalArgumentException("no stand-in for the downward API field " + field);
                };
            }
            options.addAll(List.of("-e", variable.getString("name") + "=" + value));
        });
        return options;
    }

    private static Result run(Duration timeout, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[][] output = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                output[0] = process.getInputStream().readAllBytes();
            } catch (IOException e) {
                output[0] = new byte[0];
            }
        }, "podman-output");
        reader.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
        }
        reader.join();
        return new Result(process.exitValue(), new String(output[0], StandardCharsets.UTF_8));
    }
}
