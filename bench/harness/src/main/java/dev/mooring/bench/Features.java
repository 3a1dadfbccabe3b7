package dev.mooring.bench;

import dev.mooring.stack.LibertyRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where Liberty's idle heap goes, by feature: Mooring's server (its server.xml and jvm.options)
 * with no application, started with no feature (the kernel), with each of Mooring's features
 * alone (with what it brings along), with all of them, and with all but one; the used heap after
 * two full collections once the server is ready, median of the runs. The application's own
 * share is the idle heap of the other measures minus the all-features figure here.
 */
final class Features extends Harness {

    Features(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    @Override
    void run() throws Exception {
        Path config = root.resolve("liberty-config/src/main/liberty/config");
        String serverXml = Files.readString(config.resolve("server.xml"));
        Matcher block = Pattern.compile("(?s)<featureManager>.*?</featureManager>").matcher(serverXml);
        if (!block.find()) {
            throw new IllegalStateException("no <featureManager> in " + config.resolve("server.xml"));
        }
        List<String> features = new ArrayList<>();
        Matcher feature = Pattern.compile("<feature>([^<]+)</feature>").matcher(block.group());
        while (feature.find()) {
            features.add(feature.group(1).trim());
        }
        Map<String, List<String>> configurations = new java.util.LinkedHashMap<>();
        configurations.put("kernel (no feature)", List.of());
        configurations.put("all of Mooring's features", features);
        features.forEach(alone -> configurations.put("only " + alone, List.of(alone)));
        features.forEach(left -> configurations.put("all but " + left,
                features.stream().filter(other -> !other.equals(left)).toList()));
        Files.createDirectories(work);
        liberty = LibertyRuntime.at(Path.of(exec(List.of("bash", root.resolve("scripts/liberty.sh").toString(), "home"), Map.of()).trim()));
        Path featuresUsr = work.resolve("features-usr");
        for (int run = 0; run < runs; run++) {
            for (Map.Entry<String, List<String>> configuration : configurations.entrySet()) {
                String xml = block.replaceFirst(java.util.regex.Matcher.quoteReplacement("<featureManager>"
                        + configuration.getValue().stream().map(name -> "<feature>" + name + "</feature>").collect(java.util.stream.Collectors.joining())
                        + "</featureManager>"));
                results.add(configuration.getKey(), Results.HEAP_IDLE, idleServer(featuresUsr, xml, false).heap());
            }
            System.out.println("run " + (run + 1) + " of " + runs + " done");
        }
        String table = results.featuresTable(runs, new ArrayList<>(configurations.keySet()));
        publish(table, "results-features.md");
    }
}
