package io.eventplane.gateway.api;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Requests;
import io.eventplane.client.usage.ResourceUsage;
import io.eventplane.gateway.alloc.ServiceAllocator;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * What the API handlers work with: the view they read, the writer they submit to, and their limits.
 *
 * @param writeTimeout how long a write waits for the writer's verdict before answering 504
 * @param watchBuffer  events a watcher may fall behind before it is closed
 * @param watchThreads runs the watch streams (one blocking pump per active watch)
 * @param services     takes and gives back Services' cluster IPs and node ports
 * @param usage        the kubelets' latest resource usage samples (the metrics API)
 */
public record Backend(EventplaneConfig config, ObjectView view, Requests requests, Duration writeTimeout,
                      int watchBuffer, ExecutorService watchThreads, Clock clock, ServiceAllocator services,
                      ResourceUsage usage) {
}
