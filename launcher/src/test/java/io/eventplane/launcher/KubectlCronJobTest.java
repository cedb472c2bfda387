package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobStatus;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's CronJob {@code hello} with the real kubectl against the gateway, the writer and the CronJob controller
 * (with the garbage collector) on a real broker, in wall time: the first Job within a minute, the status kubectl
 * shows, {@code kubectl create job --from=cronjob/hello}, history cleanup and cascading deletion. A day of schedules,
 * Forbid, Replace and the outage examples run in virtual time in reconcilers' CronJobControllerTest.
 *
 * <p>No Job controller runs here (it is built separately), so the test finishes the Job by writing the status
 * Kubernetes' Job controller writes (Complete with SuccessCriteriaMet, succeeded 1, completionTime).
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlCronJobTest {
    private static final String HELLO = """
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: hello
            spec:
              schedule: "*/1 * * * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      containers:
                      - name: hello
                        image: busybox
                        imagePullPolicy: IfNotPresent
                        command:
                        - /bin/sh
                        - -c
                        - date; echo Hello from the Kubernetes cluster
                      restartPolicy: OnFailure
            """;

    private KubectlCluster cluster;
    private ControlLoop loop;
    private final Commands user = new Commands("test-user");
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(tmp, "cronjob,garbagecollector");
        loop = cluster.loop();
        kubectl = cluster.kubectl();
        Files.writeString(kubectl.dir().resolve("hello.yaml"), HELLO);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("AC-CJ-01 CJ-01 CJ-09 CJ-X03 CJ-X05 CJ-X06: hello creates its first Job within a minute, kubectl shows "
            + "it active, then its last schedule and success; kubectl create job --from=cronjob/hello; history limit 0 "
            + "removes the finished Job; deleting hello deletes its Jobs")
    void hello() throws Exception {
        Instant created = Instant.now();
        assertEquals("cronjob.batch/hello created\n", kubectl.ok("apply", "-f", kubectl.dir().resolve("hello.yaml").toString()));
        String row = kubectl.ok("get", "cronjobs");
        assertTrue(row.matches("(?s)NAME\\s+SCHEDULE\\s+TIMEZONE\\s+SUSPEND\\s+ACTIVE\\s+LAST SCHEDULE\\s+AGE\\s+"
                + "hello\\s+\\*/1 \\* \\* \\* \\*\\s+<none>\\s+False\\s+0\\s+<none>\\s+\\S+\\s*"), row);

        // the first Job, named for its minute, within a minute (and a bit)
        String jobs = kubectl.until(o -> o.contains("hello-"), 75, "get", "jobs", "-o", "name");
        Matcher m = Pattern.compile("job.batch/(hello-(\\d+))").matcher(jobs);
        assertTrue(m.find(), jobs);
        String job = m.group(1);
        Instant scheduled = Instant.ofEpochSecond(Long.parseLong(m.group(2)) * 60);
        assertTrue(scheduled.isAfter(created.minusSeconds(1)) && scheduled.isBefore(created.plusSeconds(61)), scheduled + " vs " + created);
        assertEquals("CronJob/hello/true " + scheduled, kubectl.ok("get", "job", job, "-o",
                "jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}/"
                        + "{.metadata.ownerReferences[0].controller} "
                        + "{.metadata.annotations.batch\\.kubernetes\\.io/cronjob-scheduled-timestamp}"));
        row = kubectl.until(o -> o.matches("(?s).*hello\\s+\\*/1 \\* \\* \\* \\*\\s+<none>\\s+False\\s+1\\s+\\d+s\\s+.*"), 30,
                "get", "cronjob", "hello");
        String describe = kubectl.until(o -> o.contains("Created job " + job), 30, "describe", "cronjob", "hello");
        assertTrue(describe.matches("(?s).*SuccessfulCreate\\s+.*cronjob-controller\\s+Created job " + job + ".*"), describe);

        // the Job finishes (written as the Job controller would): it leaves active, lastSuccessfulTime is set
        complete(job);
        kubectl.until(o -> o.matches(Pattern.quote(scheduled + "|") + "\\d{4}-.*Z\\|"), 30, "get", "cronjob", "hello", "-o",
                "jsonpath={.status.lastScheduleTime}|{.status.lastSuccessfulTime}|{.status.active}");

        // kubectl create job --from=cronjob/hello (sent as protobuf): a Job from the template, controlled by hello, not one of its runs
        Kubectl.Result manual = kubectl.run("create", "job", "manual", "--from=cronjob/hello");
        assertEquals("job.batch/manual created\n", manual.out());
        assertEquals("CronJob/hello manual", kubectl.ok("get", "job", "manual", "-o",
                "jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} "
                        + "{.metadata.annotations.cronjob\\.kubernetes\\.io/instantiate}"));

        // CJ-X03: with no successful Jobs to keep, the finished one goes at once
        assertEquals("cronjob.batch/hello patched\n", kubectl.ok("patch", "cronjob", "hello", "-p",
                "{\"spec\":{\"successfulJobsHistoryLimit\":0}}"));
        kubectl.until(o -> !o.contains(job + "\n") && o.contains("job.batch/manual"), 30, "get", "jobs", "-o", "name");

        // deleting the CronJob deletes its Jobs (garbage collector, background)
        assertEquals("cronjob.batch \"hello\" deleted\n", kubectl.ok("delete", "cronjob", "hello"));
        kubectl.until(o -> !o.contains("hello-") && !o.contains("manual"), 30, "get", "jobs", "-o", "name");
    }

    /** Marks the Job finished, as Kubernetes' Job controller does on success. */
    private void complete(String name) {
        Job j = (Job) loop.view().get("Job", "default", name).orElseThrow().getObject();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        JobStatus status = JobStatus.newBuilder(j.getStatus() == null ? new JobStatus() : j.getStatus())
                .setStartTime(j.getMetadata().getCreationTimestamp()).setCompletionTime(now).setSucceeded(1).setActive(0)
                .setConditions(List.of(
                        JobCondition.newBuilder().setType("SuccessCriteriaMet").setStatus("True")
                                .setReason("CompletionsReached").setLastTransitionTime(now).build(),
                        JobCondition.newBuilder().setType("Complete").setStatus("True")
                                .setReason("CompletionsReached").setLastTransitionTime(now).build()))
                .build();
        loop.sender().send(user.updateStatus(Job.newBuilder(j).setStatus(status).build()));
    }
}
