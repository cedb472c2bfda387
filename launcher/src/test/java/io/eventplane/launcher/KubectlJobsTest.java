package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs with the real kubectl (issue 19, part 5) against the gateway, the writer, the scheduler, simulated nodes with
 * node-sim's run-to-completion defaults, and the job, TTL-after-finished and garbage collector controllers on a real
 * broker. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlJobsTest {
    /** The seed's pi Job, fixed as Kubernetes documents it (D8: restartPolicy in the pod spec, backoffLimit in the Job's). */
    private static final String PI = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: pi
            spec:
              template:
                spec:
                  containers:
                  - name: pi
                    image: perl:5.34.0
                    command: ["perl",  "-Mbignum=bpi", "-wle", "print bpi(2000)"]
                  restartPolicy: Never
              backoffLimit: 4
            """;
    private static final String INDEXED = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: indexed
            spec:
              completions: 10
              parallelism: 3
              completionMode: Indexed
              template:
                metadata:
                  annotations:
                    sim.eventplane.io/run-duration: "2s"
                spec:
                  containers:
                  - name: worker
                    image: busybox:1.36
                    command: ["sh", "-c", "echo $JOB_COMPLETION_INDEX"]
                  restartPolicy: Never
            """;
    private static final String FAILS = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: fails
            spec:
              backoffLimit: 1
              template:
                metadata:
                  annotations:
                    sim.eventplane.io/run-duration: "1s"
                    sim.eventplane.io/exit-code: "1"
                spec:
                  containers:
                  - name: fails
                    image: busybox:1.36
                    command: ["sh", "-c", "exit 1"]
                  restartPolicy: Never
            """;
    /** The seed's pi-with-ttl, with a TTL of 5 s (the seed's 100 s) and a program of 1 s to keep the test short. */
    private static final String PI_WITH_TTL = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: pi-with-ttl
            spec:
              ttlSecondsAfterFinished: 5
              template:
                metadata:
                  annotations:
                    sim.eventplane.io/run-duration: "1s"
                spec:
                  containers:
                  - name: pi
                    image: perl:5.34.0
                    command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
                  restartPolicy: Never
            """;

    private KubectlCluster cluster;
    private Kubectl kubectl;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        cluster = KubectlCluster.start(tmp, "job,ttl-after-finished,garbagecollector");
        kubectl = cluster.kubectl();
        Files.writeString(dir.resolve("job-pi.yaml"), PI);
        Files.writeString(dir.resolve("job-indexed.yaml"), INDEXED);
        Files.writeString(dir.resolve("job-fails.yaml"), FAILS);
        Files.writeString(dir.resolve("job-pi-with-ttl.yaml"), PI_WITH_TTL);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("AC-JOB-01, AC-JOB-14, JOB-24, JOB-25, JOB-26, JOB-27: job-pi completes without annotations (node-sim's defaults); get, describe, wait; delete takes its pod")
    void pi() throws Exception {
        assertEquals("job.batch/pi created\n", kubectl.ok("apply", "-f", dir.resolve("job-pi.yaml").toString()));
        assertEquals("job.batch/pi condition met\n", kubectl.ok("wait", "--for=condition=complete", "job/pi",
                "--timeout=120s"));
        String jobs = kubectl.ok("get", "jobs", "pi");
        assertTrue(jobs.matches("(?s)NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE\\s+pi\\s+Complete\\s+1/1\\s+\\d+s\\s+\\d+s\\s*"),
                jobs);
        String describe = kubectl.until(d -> d.contains("Completed"), "describe", "jobs/pi");
        assertTrue(describe.matches("(?s).*Selector:\\s+batch.kubernetes.io/controller-uid=[0-9a-f-]+\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Labels:\\s+batch.kubernetes.io/controller-uid=[0-9a-f-]+\\s+batch.kubernetes.io/job-name=pi\\s+controller-uid=[0-9a-f-]+\\s+job-name=pi\\s.*"),
                describe);
        assertTrue(describe.matches("(?s).*Parallelism:\\s+1\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Completions:\\s+1\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Start Time:\\s+\\S.*"), describe);
        assertTrue(describe.matches("(?s).*Completed At:\\s+\\S.*"), describe);
        assertTrue(describe.matches("(?s).*Duration:\\s+\\d+s\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Pods Statuses:\\s+0 Active \\(0 Ready\\) / 1 Succeeded / 0 Failed\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Normal\\s+SuccessfulCreate\\s+\\S+\\s+job-controller\\s+Created pod: pi-[a-z0-9]{5}\\s.*"),
                describe);
        assertTrue(describe.matches("(?s).*Normal\\s+Completed\\s+\\S+\\s+job-controller\\s+Job completed\\s.*"), describe);
        String pods = kubectl.ok("get", "pods", "--selector=job-name=pi", "--output=jsonpath={.items[*].metadata.name}");
        assertTrue(pods.matches("pi-[a-z0-9]{5}"), pods);
        assertTrue(kubectl.ok("get", "pods", pods).matches("(?s).*" + pods + "\\s+0/1\\s+Completed\\s+0\\s.*"),
                "JOB-18: the pod stays, Completed");

        assertEquals("job.batch \"pi\" deleted\n", kubectl.ok("delete", "jobs/pi"));
        kubectl.until(String::isBlank, "get", "pods", "--selector=job-name=pi", "-o", "name");
    }

    @Test
    @DisplayName("JOB-X01, JOB-13: an Indexed Job of 10 completions and parallelism 3 completes with completedIndexes 0-9")
    void indexed() throws Exception {
        assertEquals("job.batch/indexed created\n", kubectl.ok("apply", "-f", dir.resolve("job-indexed.yaml").toString()));
        kubectl.ok("wait", "--for=condition=complete", "job/indexed", "--timeout=120s");
        assertEquals("0-9", kubectl.ok("get", "job", "indexed", "-o", "jsonpath={.status.completedIndexes}"));
        assertTrue(kubectl.ok("get", "jobs", "indexed", "--no-headers").matches("indexed\\s+Complete\\s+10/10\\s+.*\\s*"));
        String indexes = kubectl.ok("get", "pods", "-l", "job-name=indexed", "-o",
                "jsonpath={range .items[*]}{.metadata.labels.batch\\.kubernetes\\.io/job-completion-index}{\" \"}{end}");
        // JOB-13: an index may have run more than once; each of the 10 ran
        assertEquals(java.util.stream.IntStream.range(0, 10).mapToObj(Integer::toString).collect(java.util.stream.Collectors.toSet()),
                java.util.Set.of(indexes.trim().split(" ")).stream().collect(java.util.stream.Collectors.toSet()), indexes);
    }

    @Test
    @DisplayName("AC-JOB-07, JOB-17: a failing Job reaches its backoffLimit: Failed, reason BackoffLimitExceeded")
    void fails() throws Exception {
        kubectl.ok("apply", "-f", dir.resolve("job-fails.yaml").toString());
        assertEquals("job.batch/fails condition met\n", kubectl.ok("wait", "--for=condition=failed", "job/fails",
                "--timeout=120s"));
        assertEquals("BackoffLimitExceeded", kubectl.ok("get", "job", "fails", "-o",
                "jsonpath={.status.conditions[?(@.type==\"Failed\")].reason}"));
        assertTrue(kubectl.ok("get", "jobs", "fails", "--no-headers").matches("fails\\s+Failed\\s+0/1\\s+.*\\s*"));
        assertEquals("2", kubectl.ok("get", "job", "fails", "-o", "jsonpath={.status.failed}"), "backoffLimit 1: 2 attempts");
    }

    @Test
    @DisplayName("AC-TTL-01, TTL-04: pi-with-ttl is deleted with its pod once its TTL after finishing has passed")
    void ttl() throws Exception {
        kubectl.ok("apply", "-f", dir.resolve("job-pi-with-ttl.yaml").toString());
        kubectl.ok("wait", "--for=condition=complete", "job/pi-with-ttl", "--timeout=120s");
        kubectl.until(o -> o.contains("NotFound") || o.contains("not found"), "get", "job", "pi-with-ttl");
        kubectl.until(String::isBlank, "get", "pods", "--selector=job-name=pi-with-ttl", "-o", "name");
    }
}
