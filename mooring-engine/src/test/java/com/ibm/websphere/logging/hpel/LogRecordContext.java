package com.ibm.websphere.logging.hpel;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A stand-in for Liberty's {@code LogRecordContext} (same name and the two methods the engine
 * calls), so that the unit tests see which fields {@code LogFields} puts on the thread's records.
 * The real one keeps the extensions per thread too.
 */
public final class LogRecordContext {

    private static final ThreadLocal<Map<String, String>> EXTENSIONS = ThreadLocal.withInitial(LinkedHashMap::new);

    private LogRecordContext() {
    }

    public static void addExtension(String key, String value) {
        EXTENSIONS.get().put(key, value);
    }

    public static boolean removeExtension(String key) {
        return EXTENSIONS.get().remove(key) != null;
    }

    /** The fields on this thread's records now (test only). */
    public static Map<String, String> extensions() {
        return Map.copyOf(EXTENSIONS.get());
    }
}
