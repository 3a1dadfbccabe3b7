package dev.mooring.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibertyRuntimeTest {

    @TempDir
    Path dir;

    @Test
    void installsFromTheZipAndWritesAServer() throws IOException {
        Path zip = Zips.write(dir.resolve("openliberty.zip"), Map.of("wlp/bin/server*", "#!/bin/sh\n"));
        Path config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(config.resolve("server.xml"), "<server/>");
        Files.writeString(config.resolve("jvm.options"), "-Dbase=1");
        Files.writeString(config.resolve("bootstrap.properties"), "base=1");
        LibertyRuntime runtime = LibertyRuntime.install(zip, "26.0.0.3", StackCache.at(dir.resolve("cache")));
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("http.host", "127.0.0.1");
        extra.put("mooring.namespace", "ops");

        LibertyServer server = runtime.createServer(dir.resolve("usr"), "s1", LibertyRuntime.Configuration.fromFolder(config), 9080, 9443,
                extra);

        assertEquals(dir.resolve("cache/liberty/26.0.0.3/wlp"), runtime.home());
        assertEquals(dir.resolve("usr/servers/s1"), server.dir());
        assertEquals("<server/>", Files.readString(server.dir().resolve("server.xml")));
        assertEquals("-Dbase=1\n-Xmx512m\n", Files.readString(server.dir().resolve("jvm.options")));
        assertEquals("base=1\ncom.ibm.ws.logging.console.format=simple\ncom.ibm.ws.logging.console.log.level=INFO\n"
                + "http.port=9080\nhttps.port=9443\nhttp.host=127.0.0.1\nmooring.namespace=ops\n",
                Files.readString(server.dir().resolve("bootstrap.properties")));
        assertTrue(Files.isDirectory(server.dir().resolve("dropins")) && Files.isDirectory(server.dir().resolve("configDropins/overrides")));
    }

    @Test
    void aServerWrittenAgainKeepsItsLogsAndHasItsConfigurationOnce() throws IOException {
        Path zip = Zips.write(dir.resolve("openliberty.zip"), Map.of("wlp/bin/server*", "#!/bin/sh\n"));
        LibertyRuntime runtime = LibertyRuntime.install(zip, "1", StackCache.at(dir.resolve("cache")));
        LibertyRuntime.Configuration configuration = serverDir -> {
            Files.writeString(serverDir.resolve("server.xml"), "<server/>");
            Files.writeString(serverDir.resolve("jvm.options"), "");
            Files.writeString(serverDir.resolve("bootstrap.properties"), "");
        };
        LibertyServer first = runtime.createServer(dir.resolve("usr"), "s", configuration, 1, 2, Map.of());
        Files.createDirectories(first.messagesLog().getParent());
        Files.writeString(first.messagesLog(), "earlier run");

        LibertyServer second = runtime.createServer(dir.resolve("usr"), "s", configuration, 3, 4, Map.of());

        assertEquals("earlier run", Files.readString(second.messagesLog()));
        String bootstrap = Files.readString(second.dir().resolve("bootstrap.properties"));
        assertTrue(bootstrap.contains("http.port=3") && !bootstrap.contains("http.port=1"), bootstrap);
    }

    @Test
    void aZipWithoutLibertyIsRefused() throws IOException {
        Path zip = Zips.write(dir.resolve("other.zip"), Map.of("README", "not liberty"));

        IOException refused = assertThrows(IOException.class, () -> LibertyRuntime.install(zip, "1", StackCache.at(dir.resolve("cache"))));

        assertEquals("other.zip holds no executable wlp/bin/server", refused.getMessage());
    }
}
