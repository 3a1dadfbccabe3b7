package dev.mooring.examples.patterns;

/**
 * An external store of buckets, as a cloud API offers it. Both calls are idempotent: creating a
 * bucket that exists and deleting one that is gone succeed, which is what makes retries safe.
 */
public interface BucketStore {

    /** Makes sure the bucket exists. */
    void ensure(String bucket) throws Exception;

    /** Makes sure the bucket is gone ("already gone" is success). */
    void delete(String bucket) throws Exception;
}
