package dev.mooring.engine.replica;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The settings of a {@link LeaderElector} and of shard coordination: which Lease, who this replica is, and its timing.
 *
 * @param name the Lease name (a DNS subdomain)
 * @param namespace the Lease namespace (a DNS label)
 * @param identity this replica's identity, unique per live process, 1-128 characters
 * @param leaseDuration the duration a holder advertises (whole seconds)
 * @param renewDeadline how long a leader may fail to renew before it gives up
 * @param retryPeriod the interval of acquisition and renewal attempts
 */
public record ElectionSettings(String name, String namespace, String identity, Duration leaseDuration, Duration renewDeadline,
        Duration retryPeriod) {

    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
    private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");

    /**
     * @throws IllegalArgumentException naming the setting, unless valid and
     *     {@code 0 < retryPeriod < renewDeadline < leaseDuration}
     */
    public ElectionSettings {
        if (name == null || name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            throw new IllegalArgumentException("mooring.leader-election.lease-name must be a DNS subdomain name, got '" + name + "'");
        }
        if (namespace == null || namespace.length() > 63 || !DNS_LABEL.matcher(namespace).matches()) {
            throw new IllegalArgumentException("mooring.leader-election.namespace must be a DNS label, got '" + namespace + "'");
        }
        if (identity == null || identity.isEmpty() || identity.length() > 128) {
            throw new IllegalArgumentException("mooring.leader-election.identity must have 1-128 characters, got '" + identity + "'");
        }
        if (leaseDuration.toMillis() % 1000 != 0 || leaseDuration.toSeconds() < 1 || leaseDuration.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("mooring.leader-election.lease-duration must be a positive whole number of seconds, got "
                    + leaseDuration);
        }
        if (!(retryPeriod.compareTo(Duration.ZERO) > 0 && retryPeriod.compareTo(renewDeadline) < 0
                && renewDeadline.compareTo(leaseDuration) < 0)) {
            throw new IllegalArgumentException("Require 0 < mooring.leader-election.retry-period (" + retryPeriod
                    + ") < mooring.leader-election.renew-deadline (" + renewDeadline
                    + ") < mooring.leader-election.lease-duration (" + leaseDuration + ")");
        }
    }
}
