package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
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
 * The Deployment walkthrough of the seed document (sections "Creating a Deployment" to "Pausing and Resuming"), command
 * by command with the real kubectl against the API gateway, the writer, the scheduler, simulated nodes and the
 * controllers on a real broker. Skipped without kubectl.
 *
 * <p>The bad image {@code nginx:1.161}: this node-sim pulls every image, so the test makes the new pod unable to
 * start by cordoning every node before the update (the pod stays Pending); the rollout stalls exactly as with an image
 * that never pulls (new ReplicaSet 1 1 0), and the nodes are uncordoned after the rollback.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlDeploymentWalkthroughTest {
    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: nginx-deployment
              labels:
                app: nginx
            spec:
              replicas: 3
              selector:
                matchLabels:
                  app: nginx
              template:
                metadata:
                  labels:
                    app: nginx
                spec:
                  containers:
                  - name: nginx
                    image: nginx:1.14.2
                    ports:
                    - containerPort: 80
            """;

    private KubectlCluster cluster;
    private Path dir;

    record Result(int exit, String out) {
    }

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        cluster = KubectlCluster.start(tmp, "replicaset,replicationcontroller,deployment,disruption");
        Files.writeString(dir.resolve("nginx-deployment.yaml"), DEPLOYMENT);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Result kubectl(String... args) throws Exception {
        Kubectl.Result r = new Kubectl(dir).run(args);
        return new Result(r.exit(), r.out());
    }

    private String ok(String... args) throws Exception {
        return new Kubectl(dir).ok(args);
    }

    /** Runs the command until its output satisfies the condition (the cluster converges asynchronously). */
    private String until(Predicate<String> condition, String... args) throws Exception {
        return new Kubectl(dir).until(condition, args);
    }

    /** The rows of `kubectl get rs` as "name desired current ready". */
    private List<String> replicaSets() throws Exception {
        List<String> rows = new ArrayList<>();
        for (String line : ok("get", "rs", "--no-headers").split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4) {
                rows.add(f[0] + " " + f[1] + " " + f[2] + " " + f[3]);
            }
        }
        return rows;
    }

    /** "generation observedGeneration progressingReason": the status is up to date and says the rollout is paused. */
    private static boolean pausedAndObserved(String generationObservedReason) {
        String[] f = generationObservedReason.trim().split(" ");
        return f.length == 3 && f[0].equals(f[1]) && f[2].equals("DeploymentPaused");
    }

    private static String rsOf(List<String> rows, String desiredCurrentReady, String except) {
        return rows.stream().filter(r -> r.endsWith(" " + desiredCurrentReady) && !r.startsWith(except + " "))
                .map(r -> r.split(" ")[0]).findFirst().orElse(null);
    }

    @Test
    @DisplayName("AC-DEP-01 to AC-DEP-08, AC-DEP-11 to AC-DEP-13, AC-DEP-16, AC-DEP-18, DEP-59, DEP-60: the seed's Deployment walkthrough with the real kubectl")
    void walkthrough() throws Exception {
        // ---- Creating a Deployment
        assertEquals("deployment.apps/nginx-deployment created\n", ok("apply", "-f", dir.resolve("nginx-deployment.yaml").toString()));
        assertTrue(ok("get", "deployments").startsWith("NAME"));
        String status = ok("rollout", "status", "deployment/nginx-deployment");
        assertTrue(status.endsWith("deployment \"nginx-deployment\" successfully rolled out\n"), status);
        String deploy = until(o -> o.matches("(?s).*nginx-deployment\\s+3/3\\s+3\\s+3\\s+.*"), "get", "deployments");
        assertTrue(deploy.matches("(?s)NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE\\s+.*"), deploy);
        until(o -> o.matches("(?s).*\\s3\\s+3\\s+3\\s.*"), "get", "rs", "--no-headers");
        List<String> rs = replicaSets();
        assertEquals(1, rs.size(), rs.toString());
        Matcher m = Pattern.compile("nginx-deployment-([a-z0-9]+) 3 3 3").matcher(rs.get(0));
        assertTrue(m.matches(), rs.get(0));
        String rev1 = "nginx-deployment-" + m.group(1);
        String labels = ok("get", "pods", "--show-labels");
        assertEquals(3, Pattern.compile(rev1 + "-\\S+\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+app=nginx,pod-template-hash="
                + m.group(1)).matcher(labels).results().count(), labels);

        // ---- Updating a Deployment
        String updated = ok("set", "image", "deployment.v1.apps/nginx-deployment", "nginx=nginx:1.16.1", "--record");
        assertTrue(updated.contains("deployment.apps/nginx-deployment image updated"), updated);
        status = ok("rollout", "status", "deployment/nginx-deployment");
        assertTrue(status.endsWith("deployment \"nginx-deployment\" successfully rolled out\n"), status);
        until(o -> o.lines().filter(l -> l.matches(".*\\s3\\s+3\\s+3\\s+.*")).count() == 1
                && o.lines().filter(l -> l.matches(rev1 + "\\s+0\\s+0\\s+0\\s+.*")).count() == 1, "get", "rs");
        rs = replicaSets();
        String rev2 = rsOf(rs, "3 3 3", rev1);
        assertTrue(rs.contains(rev1 + " 0 0 0"), rs.toString());
        String describe = until(o -> o.contains("3 desired | 3 updated | 3 total | 3 available | 0 unavailable"),
                "describe", "deployments", "nginx-deployment");
        assertTrue(describe.contains("deployment.kubernetes.io/revision: 2"), describe);
        assertTrue(describe.matches("(?s).*Available\\s+True\\s+MinimumReplicasAvailable.*"), describe);
        assertTrue(describe.matches("(?s).*Progressing\\s+True\\s+NewReplicaSetAvailable.*"), describe);
        assertTrue(describe.contains("NewReplicaSet:   " + rev2 + " (3/3 replicas created)"), describe);
        assertTrue(describe.contains("ScalingReplicaSet"), describe);

        // ---- Rolling back: a bad image stalls the rollout (nodes cordoned, see the class comment)
        for (String node : ok("get", "nodes", "-o", "name").trim().split("\n")) {
            ok("cordon", node);
        }
        ok("patch", "deployment.v1.apps/nginx-deployment", "-p", "{\"spec\":{\"progressDeadlineSeconds\":5}}");
        updated = ok("set", "image", "deployment.v1.apps/nginx-deployment", "nginx=nginx:1.161", "--record");
        assertTrue(updated.contains("deployment.apps/nginx-deployment image updated"), updated);
        Result stalled = kubectl("rollout", "status", "deployment/nginx-deployment");
        assertEquals(1, stalled.exit(), stalled.out());
        assertTrue(stalled.out().contains("Waiting for deployment \"nginx-deployment\" rollout to finish: 1 out of 3 new replicas have been updated..."), stalled.out());
        assertTrue(stalled.out().contains("error: deployment \"nginx-deployment\" exceeded its progress deadline"), stalled.out());
        ok("patch", "deployment.v1.apps/nginx-deployment", "-p", "{\"spec\":{\"progressDeadlineSeconds\":600}}");
        rs = replicaSets();
        String rev3 = rsOf(rs, "1 1 0", "");
        assertTrue(rev3 != null && rs.contains(rev2 + " 3 3 3") && rs.contains(rev1 + " 0 0 0"), rs.toString());
        describe = ok("describe", "deployments", "nginx-deployment");
        assertTrue(describe.contains("3 desired | 1 updated | 4 total | 3 available | 1 unavailable"), describe);
        String history = ok("rollout", "history", "deployment.v1.apps/nginx-deployment");
        assertTrue(history.matches("(?s).*REVISION\\s+CHANGE-CAUSE\\s+1\\s+<none>\\s+2\\s+kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.16.1 --record=true\\s+"
                + "3\\s+kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.161 --record=true\\s*"), history);
        String revision2 = ok("rollout", "history", "deployment.v1.apps/nginx-deployment", "--revision=2");
        assertTrue(revision2.contains("with revision #2") || revision2.contains("revision 2"), revision2);
        assertTrue(revision2.contains("pod-template-hash="), revision2);
        assertTrue(revision2.contains("Image:\tnginx:1.16.1") || revision2.matches("(?s).*Image:\\s+nginx:1.16.1.*"), revision2);

        // ---- Rolling back to a previous revision
        assertTrue(ok("rollout", "undo", "deployment.v1.apps/nginx-deployment").contains("deployment.apps/nginx-deployment rolled back"));
        for (String node : ok("get", "nodes", "-o", "name").trim().split("\n")) {
            ok("uncordon", node);
        }
        status = ok("rollout", "status", "deployment/nginx-deployment");
        assertTrue(status.endsWith("successfully rolled out\n"), status);
        String deployJson = ok("get", "deploy", "nginx-deployment", "-o", "jsonpath={.spec.template}");
        String rev2Json = ok("get", "rs", rev2, "-o", "jsonpath={.spec.template}");
        assertEquals(3, replicaSets().size(), () -> "the undo made a new ReplicaSet instead of reusing " + rev2
                + "\ndeployment template: " + deployJson + "\nrevision 2 template: " + rev2Json);
        describe = until(o -> o.contains("3 desired | 3 updated | 3 total | 3 available | 0 unavailable"),
                "describe", "deployment", "nginx-deployment");
        assertTrue(describe.contains("deployment.kubernetes.io/revision: 4"), describe);
        assertTrue(describe.matches("(?s).*Image:\\s+nginx:1.16.1\\s.*"), describe);
        until(o -> o.matches("(?s).*" + rev3 + "\\s+0\\s+0\\s+0\\s.*"), "get", "rs");
        history = ok("rollout", "history", "deployment.v1.apps/nginx-deployment");
        assertTrue(history.matches("(?s).*\\s1\\s+<none>\\s+3\\s+.*\\s4\\s+.*"), history);

        // ---- Scaling a Deployment
        assertEquals("deployment.apps/nginx-deployment scaled\n", ok("scale", "deployment.v1.apps/nginx-deployment", "--replicas=10"));
        until(o -> o.matches("(?s).*nginx-deployment\\s+10/10\\s+10\\s+10\\s+.*"), "get", "deploy");
        assertEquals(3, replicaSets().size(), "no new ReplicaSet on scale");

        // ---- Pausing and resuming
        assertEquals("deployment.apps/nginx-deployment paused\n", ok("rollout", "pause", "deployment.v1.apps/nginx-deployment"));
        assertTrue(ok("set", "image", "deployment.v1.apps/nginx-deployment", "nginx=nginx:1.17.0").contains("image updated"));
        assertTrue(ok("set", "resources", "deployment.v1.apps/nginx-deployment", "-c=nginx", "--limits=cpu=200m,memory=512Mi")
                .contains("resource requirements updated"));
        Result undoPaused = kubectl("rollout", "undo", "deployment.v1.apps/nginx-deployment");
        assertEquals(1, undoPaused.exit(), undoPaused.out());
        assertTrue(undoPaused.out().contains("you cannot rollback a paused deployment; resume it first"), undoPaused.out());
        // The controller has decided on the paused template once its status observed the latest generation. A new
        // ReplicaSet would be sent before that status, and the loop's commands share one partition: none can follow.
        until(o -> pausedAndObserved(o), "get", "deploy", "nginx-deployment", "-o", "jsonpath={.metadata.generation} "
                + "{.status.observedGeneration} {.status.conditions[?(@.type==\"Progressing\")].reason}");
        assertEquals(3, replicaSets().size(), "no new ReplicaSet while paused");
        assertEquals("deployment.apps/nginx-deployment resumed\n", ok("rollout", "resume", "deployment.v1.apps/nginx-deployment"));
        status = ok("rollout", "status", "deployment/nginx-deployment");
        assertTrue(status.endsWith("successfully rolled out\n"), status);
        until(o -> o.lines().filter(l -> l.matches(".*\\s10\\s+10\\s+10\\s+.*")).count() == 1, "get", "rs");
        rs = replicaSets();
        assertEquals(4, rs.size(), rs.toString());
        String image = ok("get", "deploy", "nginx-deployment", "-o", "jsonpath={.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].resources.limits.cpu}");
        assertEquals("nginx:1.17.0 200m", image);
    }
}
