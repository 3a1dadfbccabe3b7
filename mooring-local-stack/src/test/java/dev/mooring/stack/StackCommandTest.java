package dev.mooring.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackCommandTest {

    @TempDir
    Path dir;

    @Test
    void printsDistinctFreePorts() throws IOException {
        int[] ports = Arrays.stream(StackCommand.run(new String[] {"ports", "3"}, StackCache.at(dir)).split(" "))
                .mapToInt(Integer::parseInt).toArray();

        assertEquals(3, ports.length);
        assertEquals(3, Arrays.stream(ports).distinct().count());
        assertNotEquals(0, ports[0]);
    }

    @Test
    void wrongCommandLinesNameWhatIsWrong() {
        StackCache cache = StackCache.at(dir);
        assertEquals("unknown command 'start'; one of liberty-home, liberty-server, ports, apiserver-up, apiserver-down",
                assertThrows(IllegalArgumentException.class, () -> StackCommand.run(new String[] {"start"}, cache)).getMessage());
        assertEquals("usage: ports COUNT",
                assertThrows(IllegalArgumentException.class, () -> StackCommand.run(new String[] {"ports"}, cache)).getMessage());
        assertEquals("'0' is not a count of ports (1 to 100)",
                assertThrows(IllegalArgumentException.class, () -> StackCommand.run(new String[] {"ports", "0"}, cache)).getMessage());
        assertEquals("'http' is not a port (1 to 65535)", assertThrows(IllegalArgumentException.class, () -> StackCommand.run(
                new String[] {"liberty-server", "z.zip", "1", "conf", "usr", "s", "http", "9443"}, cache)).getMessage());
        assertEquals("'novalue' is not KEY=VALUE", assertThrows(IllegalArgumentException.class, () -> StackCommand.run(
                new String[] {"liberty-server", "z.zip", "1", "conf", "usr", "s", "9080", "9443", "novalue"}, cache)).getMessage());
        assertEquals("usage: apiserver-up FOLDER RUN_DIR [FLAG ...]", assertThrows(IllegalArgumentException.class,
                () -> StackCommand.run(new String[] {"apiserver-up", "local-apiserver"}, cache)).getMessage());
        assertEquals("usage: apiserver-down FOLDER RUN_DIR", assertThrows(IllegalArgumentException.class,
                () -> StackCommand.run(new String[] {"apiserver-down", "local-apiserver", "run", "extra"}, cache)).getMessage());
        assertEquals(dir.resolve("nowhere") + " has no local-apiserver.sh", assertThrows(IllegalArgumentException.class,
                () -> StackCommand.run(new String[] {"apiserver-down", dir.resolve("nowhere").toString(), "run"}, cache)).getMessage());
    }
}
