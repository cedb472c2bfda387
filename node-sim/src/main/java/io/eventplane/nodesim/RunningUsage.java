package io.eventplane.nodesim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the running containers of one pod use at a moment: each container's own declared use
 * ({@link DeclaredUsage}, a function of the time since its current run started), plus the pod's share of its
 * workload's load spread evenly over its running app containers. A container that is not running uses nothing and is
 * not reported, as the kubelet's resource metrics report only running containers. Pure.
 */
final class RunningUsage {

    /** One running container's use: cores and bytes, and its memory limit (null: none). */
    record Sample(String container, double cpu, double memory, Long memoryLimit) {
        boolean overLimit() {
            return memoryLimit != null && memory > memoryLimit;
        }
    }

    private RunningUsage() {
    }

    /**
     * @param cpuShare    the pod's share of its workload's CPU load now (cores; 0 without one)
     * @param memoryShare the pod's share of its workload's memory load now (bytes)
     */
    static List<Sample> of(PodRun run, Instant t, double cpuShare, double memoryShare) {
        List<ContainerRun> running = new ArrayList<>();
        for (List<ContainerRun> group : List.of(run.initContainers(), run.appContainers(), run.ephemeralContainers())) {
            for (ContainerRun c : group) {
                if (c.running() && c.usage != null && c.runStart != null) {
                    running.add(c);
                }
            }
        }
        long apps = running.stream().filter(c -> c.role == ContainerRun.Role.APP).count();
        List<Sample> out = new ArrayList<>();
        for (ContainerRun c : running) {
            Duration since = t.isBefore(c.runStart) ? Duration.ZERO : Duration.between(c.runStart, t);
            double cpu = c.usage.cpu().at(since);
            double memory = c.usage.memory().at(since);
            if (c.role == ContainerRun.Role.APP && apps > 0) {
                cpu += cpuShare / apps;
                memory += memoryShare / apps;
            }
            out.add(new Sample(c.name(), cpu, memory, DeclaredUsage.memoryLimit(c.spec)));
        }
        return out;
    }
}
