package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The real kubectl applies, lists, scales and describes the example workloads; skipped without kubectl. */
class KubectlWorkloadsTest {
    private static final List<String> EXAMPLES = List.of("deployment-nginx-deployment.yaml", "replicaset-frontend.yaml",
            "statefulset-web.yaml", "daemonset-fluentd-elasticsearch.yaml", "job-pi.yaml", "cronjob-hello.yaml",
            "replicationcontroller-nginx.yaml");
    @RegisterExtension
    static final Kubectl kubectl = new Kubectl();

    @BeforeAll
    static void start() throws Exception {
        Path manifests = Files.createDirectory(kubectl.dir().resolve("manifests"));
        for (String file : EXAMPLES) {
            Files.writeString(manifests.resolve(file), WorkloadApiTest.example(file));
        }
    }

    @Test
    @DisplayName("JOB-24 RC-08 kubectl apply -f creates every example, a second apply leaves them unchanged, "
            + "get shows kubectl's columns, scale patches the scale subresource (DEP-36)")
    void applyGetScale() throws Exception {
        String manifests = kubectl.dir().resolve("manifests").toString();
        Kubectl.Result created = kubectl.ok("apply", "-f", manifests);
        for (String line : List.of("cronjob.batch/hello created", "daemonset.apps/fluentd-elasticsearch created",
                "deployment.apps/nginx-deployment created", "job.batch/pi created", "replicaset.apps/frontend created",
                "replicationcontroller/nginx created", "statefulset.apps/web created")) {
            assertTrue(created.out().contains(line), created.out());
        }
        Kubectl.Result again = kubectl.ok("apply", "-f", manifests);
        assertTrue(again.out().contains("deployment.apps/nginx-deployment unchanged"), again.out());
        assertTrue(again.out().contains("job.batch/pi unchanged"), again.out());

        Kubectl.Result deploy = kubectl.ok("get", "deploy");
        assertTrue(deploy.out().matches("(?s)NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE\\s+nginx-deployment\\s+0/3\\s+0\\s+0\\s+\\S+\\s*"),
                deploy.out());
        Kubectl.Result wide = kubectl.ok("get", "rs", "-o", "wide");
        assertTrue(wide.out().matches("(?s)NAME\\s+DESIRED\\s+CURRENT\\s+READY\\s+AGE\\s+CONTAINERS\\s+IMAGES\\s+SELECTOR\\s+"
                + "frontend\\s+3\\s+0\\s+0\\s+\\S+\\s+php-redis\\s+gcr.io/google_samples/gb-frontend:v3\\s+tier=frontend\\s*"), wide.out());
        Kubectl.Result jobs = kubectl.ok("get", "jobs");
        assertTrue(jobs.out().matches("(?s)NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE\\s+pi\\s+Running\\s+0/1\\s+\\S+\\s*"),
                jobs.out());
        Kubectl.Result cj = kubectl.ok("get", "cj");
        assertTrue(cj.out().matches("(?s)NAME\\s+SCHEDULE\\s+TIMEZONE\\s+SUSPEND\\s+ACTIVE\\s+LAST SCHEDULE\\s+AGE\\s+"
                + "hello\\s+\\*/1 \\* \\* \\* \\*\\s+<none>\\s+False\\s+0\\s+<none>\\s+\\S+\\s*"), cj.out());
        Kubectl.Result ds = kubectl.ok("get", "ds", "-n", "kube-system");
        assertTrue(ds.out().contains("NODE SELECTOR"), ds.out());
        Kubectl.Result labels = kubectl.ok("get", "job", "pi", "-o", "jsonpath={.metadata.labels.job-name} {.spec.selector.matchLabels}");
        assertTrue(labels.out().startsWith("pi {\"batch.kubernetes.io/controller-uid\":"), labels.out()); // JOB-03

        Kubectl.Result scaled = kubectl.ok("scale", "deploy/nginx-deployment", "--replicas=5");
        assertTrue(scaled.out().contains("deployment.apps/nginx-deployment scaled"), scaled.out());
        assertEquals("5", kubectl.ok("get", "deploy", "nginx-deployment", "-o", "jsonpath={.spec.replicas}").out()
                .trim());
        kubectl.ok("scale", "sts/web", "--replicas=2");
        kubectl.ok("scale", "rc/nginx", "--replicas=1");
        assertEquals("2 1", kubectl.ok("get", "sts/web", "rc/nginx", "-o", "jsonpath={.items[*].spec.replicas}").out()
                .trim());

        Kubectl.Result describe = kubectl.ok("describe", "deployment", "nginx-deployment");
        assertTrue(describe.out().contains("StrategyType:           RollingUpdate"), describe.out()); // DEP-58
        assertTrue(describe.out().contains("RollingUpdateStrategy:  25% max unavailable, 25% max surge"), describe.out());
    }
}
