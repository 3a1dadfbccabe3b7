package dev.mooring.examples.patterns;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A stand-in for a real store, for the example and its test only: it forgets everything when the process ends. */
public class InMemoryBuckets implements BucketStore {

    private final Set<String> buckets = ConcurrentHashMap.newKeySet();

    @Override
    public void ensure(String bucket) {
        buckets.add(bucket);
    }

    @Override
    public void delete(String bucket) {
        buckets.remove(bucket);
    }

    public boolean exists(String bucket) {
        return buckets.contains(bucket);
    }
}
