package dev.mooring.maven;

import dev.mooring.api.Controller;
import dev.mooring.api.CustomResource;
import dev.mooring.api.RbacRule;
import dev.mooring.api.admission.AdmissionCache;
import dev.mooring.engine.admission.AdmissionRoutes;
import dev.mooring.manifests.GenerateManifests;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.apache.maven.project.MavenProjectHelper;

/**
 * {@code mooring:manifests}: the operator's manifests from the module's compiled classes, offline,
 * into a kustomize-ready folder ({@code target/manifests} by default): the CRDs of its
 * {@code @CustomResource} classes and, with {@code name} and {@code namespace}, its RBAC, and with
 * {@code image} its Deployment, Service and webhook configurations (see {@link GenerateManifests}).
 * Bound to {@code process-classes}, so that {@code mvn package} writes them. The folder is also
 * zipped ({@code <finalName>-manifests.zip}) and attached to the project with classifier
 * {@code manifests}, so that {@code mvn install} and {@code mvn deploy} publish it.
 */
@Mojo(name = "manifests", defaultPhase = LifecyclePhase.PROCESS_CLASSES, requiresDependencyResolution = ResolutionScope.COMPILE,
        threadSafe = true)
public class ManifestsMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    /** Where the files are written. */
    @Parameter(property = "mooring.manifests.output", defaultValue = "${project.build.directory}/manifests")
    File output;

    /** The ServiceAccount's, roles', Deployment's and Service's name; without it, only CRDs. */
    @Parameter(property = "mooring.manifests.name")
    String name;

    /** The operator's namespace (with {@code name}). */
    @Parameter(property = "mooring.manifests.namespace")
    String namespace;

    /** The operator's image; without it, no Deployment, Service or webhook registration. */
    @Parameter(property = "mooring.manifests.image")
    String image;

    /**
     * How many pods; 0, the default: 2 when the operator has admission webhooks (with leader
     * election on a Lease named after the operator, and a PodDisruptionBudget), so that a restart
     * of one pod refuses no write the webhooks match; else 1. Set 1 to go back to one pod.
     */
    @Parameter(property = "mooring.manifests.replicas", defaultValue = "0")
    int replicas;

    /** The leader election Lease (more than one replica needs it, or shards); with shards, the prefix of their Leases' names. */
    @Parameter(property = "mooring.manifests.lease-name")
    String leaseName;

    /**
     * Split every controller's keys into this many shards, each owned through its own Lease, so
     * that all replicas reconcile at once (the Deployment's {@code MOORING_SHARDING_SHARDS}; the
     * RBAC for the shard Leases); 0, the default: none.
     */
    @Parameter(property = "mooring.manifests.shards", defaultValue = "0")
    int shards;

    /** The webhook configurations' CA bundle (PEM); else {@code MOORING_WEBHOOK_CA_FILE}. */
    @Parameter(property = "mooring.manifests.ca-file")
    File caFile;

    /** The cert-manager Certificate ({@code namespace/name}) whose CA cert-manager injects, instead of {@code caFile}. */
    @Parameter(property = "mooring.manifests.inject-ca-from")
    String injectCaFrom;

    /**
     * Where the webhook certificate comes from: {@code self-managed} (the operator makes it and writes
     * the CA bundle; the default without {@code caFile} and {@code injectCaFrom}) or
     * {@code cert-manager} (a generated Certificate, from a self-signed Issuer unless {@code issuer}
     * names one).
     */
    @Parameter(property = "mooring.manifests.certificates")
    String certificates;

    /** With {@code certificates} cert-manager: the issuer, {@code Issuer/NAME} or {@code ClusterIssuer/NAME}. */
    @Parameter(property = "mooring.manifests.issuer")
    String issuer;

    @Parameter(property = "mooring.manifests.without-webhooks", defaultValue = "false")
    boolean withoutWebhooks;

    /**
     * Leave the operator's Namespace out of the folder and {@code install.yaml}: for a namespace that
     * exists already and that the install must not own ({@code kubectl delete -f install.yaml} would
     * delete a Namespace it holds, with everything in it).
     */
    @Parameter(property = "mooring.manifests.without-namespace", defaultValue = "false")
    boolean withoutNamespace;

    /**
     * Send the operator's own requests (its ServiceAccount's) to its webhooks too; by default a match
     * condition leaves them out, so that the operator's writes never wait on its own pod.
     */
    @Parameter(property = "mooring.manifests.webhooks-admit-operator", defaultValue = "false")
    boolean webhooksAdmitOperator;

    /**
     * Generate the monitoring kit in {@code monitoring.yaml} (needs {@code image}): a metrics Service,
     * a ServiceMonitor, a PrometheusRule with alerts and a Grafana dashboard in a ConfigMap, for a
     * cluster that runs the Prometheus Operator.
     */
    @Parameter(property = "mooring.manifests.monitoring", defaultValue = "false")
    boolean monitoring;

    /**
     * Serve metrics only to callers the API server authenticates and authorizes: the Deployment sets
     * {@code MOORING_METRICS_SECURE=true}, the operator may create TokenReviews and
     * SubjectAccessReviews, a {@code <name>-metrics-reader} ClusterRole lets a scraper read
     * {@code /mooring/metrics}, and the monitoring kit scrapes it over HTTPS with a bearer token.
     */
    @Parameter(property = "mooring.manifests.secure-metrics", defaultValue = "false")
    boolean secureMetrics;

    @Component
    MavenProjectHelper projectHelper;

    /** The files written, in a zip with a fixed entry time (an unchanged build gives an identical file). */
    static void zip(Path folder, java.util.Collection<String> names, Path zip) throws IOException {
        Path partial = zip.resolveSibling(zip.getFileName() + ".partial");
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(partial))) {
            for (String name : new java.util.TreeSet<>(names)) {
                java.util.zip.ZipEntry entry = new java.util.zip.ZipEntry(name);
                entry.setLastModifiedTime(EarMojo.FIXED_TIME);
                out.putNextEntry(entry);
                out.write(Files.readAllBytes(folder.resolve(name)));
                out.closeEntry();
            }
        }
        Files.move(partial, zip, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Path classesDir = Path.of(project.getBuild().getOutputDirectory());
        if (!Files.isDirectory(classesDir)) {
            getLog().info("No compiled classes in " + classesDir + ": no manifests");
            return;
        }
        // the plugin's own Mooring classes come first, so that the module's annotations are the ones the generator reads;
        // JSON-P finds its provider through the context class loader, which in a mojo is not the plugin's realm
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(urls(classesDir), getClass().getClassLoader())) {
            thread.setContextClassLoader(loader);
            List<Class<?>> classes = new ArrayList<>();
            for (String className : classNames(classesDir)) {
                Class<?> type = Class.forName(className, false, loader);
                if (relevant(type)) {
                    classes.add(type);
                }
            }
            if (classes.isEmpty()) {
                getLog().info("No custom resources, controllers or admission beans in " + classesDir + ": no manifests");
                return;
            }
            Map<String, String> files = GenerateManifests.files(classes, GenerateManifests.Options.builder().name(name)
                    .namespace(namespace).image(image).replicas(replicas).leaseName(leaseName)
                    .caFile(caFile == null ? null : caFile.getPath()).injectCaFrom(injectCaFrom).withoutWebhooks(withoutWebhooks)
                    .withoutNamespace(withoutNamespace).webhooksAdmitOperator(webhooksAdmitOperator).certificates(certificates).issuer(issuer).monitoring(monitoring)
                    .secureMetrics(secureMetrics).shards(shards).build(), System.getenv());
            GenerateManifests.notes(files).forEach(note -> getLog().warn("mooring:manifests: " + note));
            Files.createDirectories(output.toPath());
            try (var written = Files.list(output.toPath())) {
                // a file an earlier build wrote and this one does not (webhooks.yaml once the image is gone) must not stay
                for (java.nio.file.Path stale : written.filter(file -> file.toString().endsWith(".yaml")
                        && !files.containsKey(file.getFileName().toString())).toList()) {
                    Files.delete(stale);
                }
            }
            for (Map.Entry<String, String> file : files.entrySet()) {
                Files.writeString(output.toPath().resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
            }
            Path zip = Path.of(project.getBuild().getDirectory(), project.getBuild().getFinalName() + "-manifests.zip");
            zip(output.toPath(), files.keySet(), zip);
            projectHelper.attachArtifact(project, "zip", "manifests", zip.toFile());
            getLog().info("Wrote " + files.keySet() + " to " + output + " for " + classes.size() + " classes, and " + zip.getFileName());
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException("mooring:manifests: " + e.getMessage(), e);
        } catch (IOException | ClassNotFoundException | LinkageError e) {
            throw new MojoExecutionException("mooring:manifests could not read the module's classes: " + e, e);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /** A class the manifests are about. */
    private static boolean relevant(Class<?> type) {
        return type.isAnnotationPresent(CustomResource.class) || type.isAnnotationPresent(Controller.class)
                || type.isAnnotationPresent(AdmissionCache.class) || type.getAnnotationsByType(RbacRule.class).length > 0
                || AdmissionRoutes.declares(type);
    }

    private URL[] urls(Path classesDir) throws MojoExecutionException {
        List<URL> urls = new ArrayList<>();
        try {
            urls.add(classesDir.toUri().toURL());
            for (String element : project.getCompileClasspathElements()) {
                urls.add(new File(element).toURI().toURL());
            }
        } catch (MalformedURLException | org.apache.maven.artifact.DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("mooring:manifests cannot build the module's class path: " + e.getMessage(), e);
        }
        return urls.toArray(URL[]::new);
    }

    private static List<String> classNames(Path classesDir) throws IOException {
        try (Stream<Path> files = Files.walk(classesDir)) {
            return files.filter(file -> file.toString().endsWith(".class") && !file.getFileName().toString().equals("module-info.class"))
                    .map(file -> classesDir.relativize(file).toString().replace(File.separatorChar, '.'))
                    .map(file -> file.substring(0, file.length() - ".class".length()))
                    .sorted().toList();
        }
    }
}
