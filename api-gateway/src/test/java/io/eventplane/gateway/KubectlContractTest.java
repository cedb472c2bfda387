package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rows of the kubectl contract that the smoke and workload suites do not cover: explain, api-resources, the
 * patch types, label/annotate, edit through KUBE_EDITOR, diff, wait, and Kubernetes' error texts. Skipped without
 * kubectl on PATH.
 */
class KubectlContractTest {
    @RegisterExtension
    static final Kubectl kubectl = new Kubectl();

    @Test
    @DisplayName("kubectl explain walks the OpenAPI v3 schemas generated from Avro: nested records, lists, "
            + "IntOrString, Quantity maps and required fields")
    void explain() throws Exception {
        Kubectl.Result strategy = kubectl.ok("explain", "deployment.spec.strategy");
        assertTrue(strategy.out().contains("GROUP:      apps"), strategy.out());
        assertTrue(strategy.out().contains("KIND:       Deployment"), strategy.out());
        assertTrue(strategy.out().contains("FIELD: strategy <DeploymentStrategy>"), strategy.out());
        assertTrue(strategy.out().matches("(?s).*rollingUpdate\\s+<RollingUpdateDeployment>.*"), strategy.out());
        assertTrue(strategy.out().matches("(?s).*type\\s+<string>\\s+Recreate or RollingUpdate\\..*"), strategy.out());

        Kubectl.Result surge = kubectl.ok("explain", "deploy.spec.strategy.rollingUpdate.maxSurge");
        assertTrue(surge.out().contains("FIELD: maxSurge <IntOrString>"), surge.out());

        Kubectl.Result containers = kubectl.ok("explain", "pod.spec.containers");
        assertTrue(containers.out().contains("KIND:       Pod"), containers.out());
        assertTrue(containers.out().contains("FIELD: containers <[]Container>"), containers.out());
        assertTrue(containers.out().matches("(?s).*\\bname\\s+<string> -required-.*"), containers.out());
        assertTrue(containers.out().matches("(?s).*\\bports\\s+<\\[]ContainerPort>.*"), containers.out());
        assertTrue(containers.out().matches("(?s).*\\benv\\s+<\\[]EnvVar>.*"), containers.out());

        Kubectl.Result limits = kubectl.ok("explain", "pod.spec.containers.resources.limits");
        assertTrue(limits.out().contains("FIELD: limits <map[string]Quantity>"), limits.out());
        Kubectl.Result created = kubectl.ok("explain", "pods.metadata.creationTimestamp");
        assertTrue(created.out().contains("FIELD: creationTimestamp <string>"), created.out());

        Kubectl.Result top = kubectl.ok("explain", "cronjobs");
        assertTrue(top.out().matches("(?s).*GROUP:\\s+batch.*KIND:\\s+CronJob.*apiVersion\\s+<string>.*spec\\s+<CronJobSpec>.*"),
                top.out());
        Kubectl.Result events = kubectl.ok("explain", "events.regarding", "--api-version=events.k8s.io/v1");
        assertTrue(events.out().contains("FIELD: regarding <ObjectReference>"), events.out());

        Kubectl.Result bogus = kubectl.run("explain", "deployment.spec.bogus");
        assertTrue(bogus.exit() != 0 && bogus.out().contains("field \"bogus\" does not exist"), bogus.out());
    }

    private static Path manifest(String name, String yaml) throws IOException {
        Path p = kubectl.dir().resolve(name);
        Files.writeString(p, yaml);
        return p;
    }

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: %s
              labels: {app: %s}
            spec:
              replicas: %d
              selector:
                matchLabels: {app: %s}
              template:
                metadata:
                  labels: {app: %s}
                spec:
                  containers:
                  - name: nginx
                    image: nginx:1.27
                    ports:
                    - containerPort: 80
            """;

    private static String deployment(String name, int replicas) {
        return DEPLOYMENT.formatted(name, name, replicas, name, name);
    }

    @Test
    @DisplayName("kubectl apply --server-side records the manager, conflicts with kubectl scale's ownership of "
            + "replicas (Kubernetes' message), --force-conflicts takes it back, and dropped fields are removed")
    void serverSideApply() throws Exception {
        Path file = manifest("ssa.yaml", deployment("ssa", 2));
        Kubectl.Result created = kubectl.ok("apply", "--server-side", "-f", file.toString());
        assertTrue(created.out().contains("deployment.apps/ssa serverside-applied"), created.out());
        String managers = kubectl.ok("get", "deploy", "ssa", "-o",
                "jsonpath={range .metadata.managedFields[*]}{.manager}/{.operation} {end}").out();
        assertEquals("kubectl/Apply", managers.trim());

        kubectl.ok("scale", "deploy/ssa", "--replicas=5");
        Kubectl.Result conflict = kubectl.run("apply", "--server-side", "-f", file.toString());
        assertTrue(conflict.exit() != 0, conflict.out());
        assertTrue(conflict.out().matches("(?s).*Apply failed with 1 conflict: conflict with \"kubectl[^\"]*\""
                + "( with subresource \"scale\")? using apps/v1: \\.spec\\.replicas.*"), conflict.out());
        assertEquals("5", kubectl.ok("get", "deploy", "ssa", "-o", "jsonpath={.spec.replicas}").out().trim());

        kubectl.ok("apply", "--server-side", "--force-conflicts", "-f", file.toString());
        assertEquals("2", kubectl.ok("get", "deploy", "ssa", "-o", "jsonpath={.spec.replicas}").out().trim());

        Files.writeString(file, deployment("ssa", 2).replace("  labels: {app: ssa}\n", "  labels: {app: ssa, tier: web}\n"));
        kubectl.ok("apply", "--server-side", "-f", file.toString());
        assertEquals("web", kubectl.ok("get", "deploy", "ssa", "-o", "jsonpath={.metadata.labels.tier}").out().trim());
        Files.writeString(file, deployment("ssa", 2));
        kubectl.ok("apply", "--server-side", "-f", file.toString());
        assertEquals("", kubectl.ok("get", "deploy", "ssa", "-o", "jsonpath={.metadata.labels.tier}").out().trim(),
                "a label this manager stopped applying is removed");
    }

    @Test
    @DisplayName("kubectl patch (strategic, merge, json), label, annotate, edit through KUBE_EDITOR and diff")
    void patchLabelAnnotateEditDiff() throws Exception {
        Path file = manifest("edit.yaml", deployment("edited", 1));
        kubectl.ok("apply", "-f", file.toString());
        kubectl.ok("patch", "deploy", "edited", "-p", "{\"spec\":{\"template\":{\"spec\":{\"containers\":["
                + "{\"name\":\"nginx\",\"image\":\"nginx:1.28\"}]}}}}");
        assertEquals("nginx:1.28 80", kubectl.ok("get", "deploy", "edited", "-o",
                "jsonpath={.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].ports[0].containerPort}")
                .out().trim(), "a strategic merge keeps the container's other fields");
        kubectl.ok("patch", "deploy", "edited", "--type=merge", "-p", "{\"spec\":{\"minReadySeconds\":7}}");
        kubectl.ok("patch", "deploy", "edited", "--type=json", "-p", "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}]");
        assertEquals("7 3", kubectl.ok("get", "deploy", "edited", "-o", "jsonpath={.spec.minReadySeconds} {.spec.replicas}").out().trim());

        assertTrue(kubectl.ok("label", "deploy", "edited", "team=blue").out()
                .contains("deployment.apps/edited labeled"));
        assertTrue(kubectl.ok("annotate", "deploy", "edited", "note=hello").out()
                .contains("deployment.apps/edited annotated"));
        assertEquals("blue hello", kubectl.ok("get", "deploy", "edited", "-o",
                "jsonpath={.metadata.labels.team} {.metadata.annotations.note}").out().trim());
        Kubectl.Result relabel = kubectl.run("label", "deploy", "edited", "team=red");
        assertTrue(relabel.exit() != 0 && relabel.out().contains("'team' already has a value (blue), and --overwrite is false"),
                relabel.out());
        kubectl.ok("label", "deploy", "edited", "team-");

        Kubectl.Result edited = kubectl.run(java.util.Map.of("KUBE_EDITOR", "sed -i s/nginx:1.28/nginx:1.29/"),
                "edit", "deploy", "edited");
        assertEquals(0, edited.exit(), edited.out());
        assertTrue(edited.out().contains("deployment.apps/edited edited"), edited.out());
        assertEquals("nginx:1.29", kubectl.ok("get", "deploy", "edited", "-o",
                "jsonpath={.spec.template.spec.containers[0].image}").out().trim());

        Path diffFile = manifest("diff.yaml", deployment("edited", 3).replace("nginx:1.27", "nginx:1.29"));
        assertEquals(0, kubectl.run("diff", "-f", diffFile.toString()).exit(), "the live object matches the manifest");
        Files.writeString(diffFile, deployment("edited", 4).replace("nginx:1.27", "nginx:1.29"));
        Kubectl.Result diff = kubectl.run("diff", "-f", diffFile.toString());
        assertTrue(diff.exit() == 1 && diff.out().contains("-  replicas: 3") && diff.out().contains("+  replicas: 4"),
                "exit " + diff.exit() + "\n" + diff.out());
        assertEquals("3", kubectl.ok("get", "deploy", "edited", "-o", "jsonpath={.spec.replicas}").out().trim());
        Files.writeString(diffFile, deployment("fresh", 1));
        Kubectl.Result fresh = kubectl.run("diff", "-f", diffFile.toString());
        assertTrue(fresh.exit() == 1 && fresh.out().contains("+  name: fresh"), fresh.out());
        assertEquals(1, kubectl.run("get", "deploy", "fresh").exit(), "diff is a dry run: nothing was created");
    }

    @Test
    @DisplayName("kubectl wait --for=condition after a status patch, api-resources, Kubernetes' error texts "
            + "(strict decoding error, is invalid with field paths), and server dry runs decided by the writer's rules")
    void waitResourcesErrors() throws Exception {
        Path pod = manifest("waiter.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: waiter}
                spec:
                  containers:
                  - {name: c, image: busybox}
                """);
        kubectl.ok("apply", "-f", pod.toString());
        kubectl.ok("patch", "pod", "waiter", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
        Kubectl.Result waited = kubectl.ok("wait", "--for=condition=Ready", "pod/waiter", "--timeout=30s");
        assertTrue(waited.out().contains("pod/waiter condition met"), waited.out());

        Kubectl.Result resources = kubectl.ok("api-resources");
        assertTrue(resources.out().matches("(?s).*deployments\\s+deploy\\s+apps/v1\\s+true\\s+Deployment.*"), resources.out());
        assertTrue(resources.out().matches("(?s).*poddisruptionbudgets\\s+pdb\\s+policy/v1\\s+true\\s+PodDisruptionBudget.*"),
                resources.out());

        Path bogus = manifest("bogus.yaml", deployment("bogus", 1).replace("  replicas: 1\n", "  replicas: 1\n  bogus: 1\n"));
        Kubectl.Result unknown = kubectl.run("apply", "-f", bogus.toString());
        assertTrue(unknown.exit() != 0 && unknown.out().contains("strict decoding error: unknown field \"spec.bogus\""),
                unknown.out());
        Path invalid = manifest("invalid.yaml", deployment("invalid", -1));
        Kubectl.Result rejected = kubectl.run("apply", "-f", invalid.toString());
        assertTrue(rejected.exit() != 0 && rejected.out().contains("The Deployment \"invalid\" is invalid: spec.replicas: "
                + "Invalid value: -1: must be greater than or equal to 0\n"), rejected.out());
        Kubectl.Result dryInvalid = kubectl.run("apply", "--dry-run=server", "-f", invalid.toString());
        assertTrue(dryInvalid.exit() != 0 && dryInvalid.out().contains("is invalid: spec.replicas"), dryInvalid.out());
        Path valid = manifest("dry.yaml", deployment("dry", 1));
        assertTrue(kubectl.ok("apply", "--dry-run=server", "-f", valid.toString()).out()
                .contains("created (server dry run)"));
        assertEquals("RollingUpdate", kubectl.ok("create", "--dry-run=server", "-f", valid.toString(), "-o",
                "jsonpath={.spec.strategy.type}").out().trim(), "the writer's defaulting ran");
        assertEquals(1, kubectl.run("get", "deploy", "dry").exit(), "a dry run writes nothing");
        kubectl.ok("apply", "-f", valid.toString());
        Kubectl.Result dryPatch = kubectl.run("patch", "deploy", "dry", "--dry-run=server", "--type=merge", "-p",
                "{\"spec\":{\"replicas\":-1}}");
        assertTrue(dryPatch.exit() != 0 && dryPatch.out().contains("is invalid: spec.replicas"), dryPatch.out());
        assertTrue(kubectl.ok("scale", "deploy/dry", "--replicas=7", "--dry-run=server").out().contains("scaled (server dry run)"));
        assertEquals("1", kubectl.ok("get", "deploy", "dry", "-o", "jsonpath={.spec.replicas}").out().trim());
        Kubectl.Result ssaUnknown = kubectl.run("apply", "--server-side", "-f", bogus.toString());
        assertTrue(ssaUnknown.exit() != 0 && ssaUnknown.out().contains("unknown field \"spec.bogus\""), ssaUnknown.out());
    }
}
