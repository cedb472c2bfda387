package io.eventplane.launcher;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of this process, whole and by component (from thread names), over a measured phase: what a change costs.
 * The JVM's own garbage collector and JIT compiler threads, which Java does not list, are read from
 * {@code /proc/self/task} where Linux offers it; the JVM's other threads and threads that ended during the phase
 * show only in the process total, as {@value #UNATTRIBUTED}.
 */
final class CpuUsage {
    /** The components of an in-process cluster, in the order a report lists them. */
    static final String[] COMPONENTS = {"writer", "views", "scheduler", "node-sim", "controllers", "gateway", "broker",
            "kafka clients", "loadtest", "other", "jvm GC", "jvm JIT"};
    static final String UNATTRIBUTED = "jvm other and ended threads";
    /** Linux reports thread times in clock ticks of 1/100 s (USER_HZ, fixed by its ABI). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long processStart;
    private final Map<Long, Long> threadStart = new HashMap<>();
    private final Map<String, Long> jvmStart = jvmThreadNanos();

    /** Starts measuring now. */
    CpuUsage() {
        processStart = processCpuNanos();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) {
                    threadStart.put(info.getThreadId(), cpu);
                }
            }
        }
    }

    /** The whole process's CPU time since start, in ns (-1 where the JVM cannot say). */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** CPU seconds used since this measure began: the process as a whole ("process") and each component. */
    Map<String, Double> seconds() {
        Map<String, Double> byComponent = new TreeMap<>();
        double attributed = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu < 0) {
                continue;
            }
            double used = (cpu - threadStart.getOrDefault(info.getThreadId(), 0L)) / 1e9;
            byComponent.merge(component(info.getThreadName()), used, Double::sum);
            attributed += used;
        }
        for (Map.Entry<String, Long> jvm : jvmThreadNanos().entrySet()) {
            double used = Math.max(0, jvm.getValue() - jvmStart.getOrDefault(jvm.getKey(), 0L)) / 1e9;
            byComponent.merge(jvm.getKey(), used, Double::sum);
            attributed += used;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        double process = processStart < 0 ? -1 : (processCpuNanos() - processStart) / 1e9;
        out.put("process", process);
        for (String c : COMPONENTS) {
            out.put(c, byComponent.getOrDefault(c, 0.0));
        }
        if (process >= 0) {
            out.put(UNATTRIBUTED, Math.max(0, process - attributed));
        }
        return out;
    }

    /**
     * CPU time of the JVM's garbage collector ({@code jvm GC}) and JIT compiler ({@code jvm JIT}) threads, by
     * thread id, summed by component; empty where {@code /proc/self/task} cannot be read (not Linux).
     */
    static Map<String, Long> jvmThreadNanos() {
        Map<String, Long> out = new TreeMap<>();
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return out;
        }
        for (java.io.File task : tasks) {
            try {
                String stat = java.nio.file.Files.readString(task.toPath().resolve("stat"));
                // "tid (comm) state ppid ..." where comm may hold spaces: fields count from the last ')'
                int close = stat.lastIndexOf(')');
                String component = jvmComponent(stat.substring(stat.indexOf('(') + 1, close));
                if (component == null) {
                    continue;
                }
                String[] fields = stat.substring(close + 2).split(" ");
                // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "state"
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                out.merge(component, ticks * NANOS_PER_TICK, Long::sum);
            } catch (java.io.IOException | RuntimeException threadEnded) {
                // the thread ended between listing and reading: its time is in the process total
            }
        }
        return out;
    }

    /** The component of a JVM thread by its Linux name (15 characters at most), or null for the others. */
    static String jvmComponent(String comm) {
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
            return "jvm GC";
        }
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return "jvm JIT";
        }
        return null;
    }

    /**
     * CPU used in the last second by each component, in cores (for the report's plot); {@code last} carries each
     * thread's CPU time from one call to the next.
     */
    static Map<String, Double> sinceLast(ThreadMXBean threads, Map<Long, Long> last) {
        Map<String, Double> out = new TreeMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu < 0) {
                continue;
            }
            Long before = last.put(info.getThreadId(), cpu);
            double used = (cpu - (before == null ? 0 : before)) / 1e9;
            out.merge(component(info.getThreadName()), used, Double::sum);
        }
        return out;
    }

    /**
     * The component a thread of an in-process cluster belongs to, by its name: the writer's stream threads, every
     * {@code ObjectView}'s thread ({@code *-view}: the log decoded into memory, whichever service it serves), the
     * scheduler, node-sim, the controllers' workers, the gateway's HTTP and watch threads, the broker, the load
     * generator itself.
     */
    static String component(String thread) {
        String t = thread.toLowerCase(Locale.ROOT);
        int client = t.indexOf(" | ");
        if (client > 0 && t.startsWith("kafka-")) {
            // a Kafka client's own thread ("kafka-producer-network-thread | <client id>"): its user's component
            String owner = component(t.substring(client + 3));
            return owner.equals("other") ? "kafka clients" : owner;
        }
        if (t.contains("streamthread") || t.startsWith("ep-writer") || t.startsWith("writer")) {
            return "writer";
        }
        if (t.endsWith("-view") || t.startsWith("usage-")) {
            return "views";
        }
        if (t.startsWith("loadtest") || t.startsWith("httpclient")) {
            return "loadtest";
        }
        if (t.contains("node-sim") || t.contains("nodesim") || t.contains("kubelet")) {
            return "node-sim";
        }
        if (t.contains("scheduler") && !t.startsWith("kafka-")) {
            return "scheduler";
        }
        if (t.endsWith("-worker") || t.endsWith("-delays") || t.endsWith("-election") || t.startsWith("event-recorder")
                || t.startsWith("controller-progress") || t.equals("snapshots")) {
            return "controllers";
        }
        // io-executor: Micronaut's blocking executor, where the API's handlers run (a write waits for its verdict)
        if (t.startsWith("gateway") || t.contains("eventloop") || t.contains("event-loop") || t.contains("watch")
                || t.startsWith("io-executor")) {
            return "gateway";
        }
        if (t.contains("kafka") || t.contains("broker") || t.contains("raft") || t.contains("quorum")
                || t.contains("data-plane") || t.contains("controller") || t.contains("log-cleaner")
                || t.contains("coordinator") || t.contains("txn") || t.contains("reaper") || t.contains("persister")
                || t.contains("expiration") || t.contains("logdir") || t.contains("metrics-meter")) {
            return "broker";
        }
        return "other";
    }
}
