package dev.mooring.it;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The messages one class logs in this JVM while open (for engine parts a test runs in-process). */
final class LogRecords implements AutoCloseable {

    private final Logger logger;
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            messages.add(String.valueOf(record.getMessage()));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    LogRecords(Class<?> source) {
        logger = Logger.getLogger(source.getName());
        logger.addHandler(handler);
    }

    /** The messages so far, oldest first. */
    List<String> messages() {
        return List.copyOf(messages);
    }

    /** The messages so far that contain {@code text}. */
    List<String> containing(String text) {
        return messages.stream().filter(message -> message.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
