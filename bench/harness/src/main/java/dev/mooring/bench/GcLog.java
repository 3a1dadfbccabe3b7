package dev.mooring.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a HotSpot {@code -Xlog:gc} log says of the collections so far: the most heap in use after
 * any collection (the live set plus what the collector had not reclaimed yet: what the heap had to
 * hold), the most heap committed, the time spent in pauses and the number of full collections.
 * Only pauses that evacuate (young, mixed and full) count for the heap in use: G1's {@code Remark}
 * and {@code Cleanup} pauses of a concurrent cycle reclaim no young region, so the heap they log
 * includes the eden filled since the last collection, which says nothing of what had to be held.
 *
 * @param peakAfterGc bytes in use after the fullest evacuating collection; 0 when there was none
 * @param peakCommitted bytes committed at the largest
 * @param pauseMillis the sum of every pause
 * @param fullCollections how many {@code Pause Full} there were
 * @param collections how many pauses there were
 */
record GcLog(long peakAfterGc, long peakCommitted, double pauseMillis, int fullCollections, int collections) {

    /** A pause line: {@code GC(3) Pause Young (Normal) (G1 Evacuation Pause) 45M->12M(256M) 3.456ms}. */
    private static final Pattern PAUSE = Pattern.compile("GC\\(\\d+\\) Pause (\\w+).*? (\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\) ([0-9.]+)ms");

    /** The GC log's {@code file} as written so far. */
    static GcLog read(Path file) throws IOException {
        return parse(Files.exists(file) ? Files.readString(file) : "");
    }

    static GcLog parse(String log) {
        long peak = 0;
        long committed = 0;
        double pauses = 0;
        int full = 0;
        int count = 0;
        Matcher line = PAUSE.matcher(log);
        while (line.find()) {
            count++;
            if (line.group(1).equals("Young") || line.group(1).equals("Full")) {
                peak = Math.max(peak, bytes(line.group(4), line.group(5)));
            }
            committed = Math.max(committed, bytes(line.group(6), line.group(7)));
            pauses += Double.parseDouble(line.group(8));
            if (line.group(1).equals("Full")) {
                full++;
            }
        }
        return new GcLog(peak, committed, pauses, full, count);
    }

    private static long bytes(String value, String unit) {
        long number = Long.parseLong(value);
        return switch (unit) {
            case "K" -> number << 10;
            case "M" -> number << 20;
            default -> number << 30;
        };
    }
}
