package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuUsageTest {

    @Test
    void theJvmsGcAndCompilerThreadsAreNamedByTheirLinuxNames() {
        assertEquals("jvm GC", CpuUsage.jvmComponent("GC Thread#0"));
        assertEquals("jvm GC", CpuUsage.jvmComponent("G1 Conc#0"));
        assertEquals("jvm GC", CpuUsage.jvmComponent("G1 Refine#0"));
        assertEquals("jvm JIT", CpuUsage.jvmComponent("C2 CompilerThre"));
        assertEquals("jvm JIT", CpuUsage.jvmComponent("C1 CompilerThre"));
        assertNull(CpuUsage.jvmComponent("VM Thread"));
        assertNull(CpuUsage.jvmComponent("main"));
    }

    @Test
    void onLinuxTheCompilerThreadsTimeIsRead() {
        if (!Files.isDirectory(Path.of("/proc/self/task"))) {
            assertTrue(CpuUsage.jvmThreadNanos().isEmpty(), "nothing read where there is no /proc");
            return;
        }
        // by the time a test runs, the JIT has compiled something: its threads have used CPU
        Map<String, Long> jvm = CpuUsage.jvmThreadNanos();
        assertTrue(jvm.getOrDefault("jvm JIT", 0L) > 0, jvm.toString());
    }

    @Test
    void theMeasuredPhaseSplitsTheProcessIntoComponentsAndTheRest() {
        CpuUsage cpu = new CpuUsage();
        long sum = 0;
        for (int i = 0; i < 5_000_000; i++) {
            sum += Integer.toString(i).hashCode();
        }
        Map<String, Double> seconds = cpu.seconds();
        assertTrue(seconds.get("process") > 0, "the process used CPU (" + sum + ")");
        for (String component : CpuUsage.COMPONENTS) {
            assertTrue(seconds.get(component) >= 0, component);
        }
        assertTrue(seconds.get(CpuUsage.UNATTRIBUTED) >= 0);
    }
}
