package io.eventplane.nodesim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one simulated node offers: capacity (reported as allocatable too, nothing reserved) and its instance type.
 *
 * @param cpu              cores, e.g. {@code 4}
 * @param memory           e.g. {@code 16Gi}
 * @param pods             how many pods the kubelet admits, e.g. {@code 110}
 * @param ephemeralStorage e.g. {@code 100Gi}
 * @param instanceType     the {@code node.kubernetes.io/instance-type} label
 */
public record NodeShape(String cpu, String memory, String pods, String ephemeralStorage, String instanceType) {

    public static NodeShape defaults() {
        return new NodeShape("4", "16Gi", "110", "100Gi", "sim.4c16g");
    }

    public NodeShape withCpu(String cpu) {
        return new NodeShape(cpu, memory, pods, ephemeralStorage, instanceType);
    }

    public NodeShape withMemory(String memory) {
        return new NodeShape(cpu, memory, pods, ephemeralStorage, instanceType);
    }

    public NodeShape withPods(String pods) {
        return new NodeShape(cpu, memory, pods, ephemeralStorage, instanceType);
    }

    /** The node's capacity as a kubelet reports it. */
    public Map<String, String> capacity() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpu", cpu);
        m.put("ephemeral-storage", ephemeralStorage);
        m.put("hugepages-1Gi", "0");
        m.put("hugepages-2Mi", "0");
        m.put("memory", memory);
        m.put("pods", pods);
        return m;
    }
}
