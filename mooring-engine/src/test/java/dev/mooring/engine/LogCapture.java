package dev.mooring.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The records a logger writes while a test runs, every level included: {@link #start()} before,
 * {@link #stop()} after, or as a field with {@code @RegisterExtension}, around each test.
 */
public final class LogCapture extends Handler implements BeforeEachCallback, AfterEachCallback {

    public final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger logger;

    public LogCapture(Class<?> of) {
        this.logger = Logger.getLogger(of.getName());
    }

    public void start() {
        logger.addHandler(this);
        logger.setLevel(Level.ALL);
    }

    public void stop() {
        logger.removeHandler(this);
        logger.setLevel(null);
    }

    /** Each record as {@code LEVEL message}, its parameters filled in. */
    public List<String> lines() {
        return records.stream().map(record -> record.getLevel() + " " + (record.getParameters() == null ? record.getMessage()
                : java.text.MessageFormat.format(record.getMessage(), record.getParameters()))).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        start();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        stop();
    }
}
