package io.eventplane.gateway.console.model;

import java.util.List;
import java.util.Map;

/**
 * One node as the console's node grid and table show it.
 *
 * @param ready      the Ready condition's status: True, False or Unknown
 * @param problems   the other conditions that are True (MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable)
 * @param taints     {@code key=value:effect}
 * @param cpuMilli   allocatable CPU in millicores
 */
public record NodeRow(String name, String uid, long resourceVersion, String ready, boolean unschedulable,
                      List<String> problems, List<String> taints, long cpuMilli, long memoryBytes, long pods,
                      Map<String, String> labels, String kubeletVersion, long created) {
}
