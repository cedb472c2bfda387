package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.meta.PodStates;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Pod;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's StatefulSet walkthrough with the real kubectl against the API gateway, the writer, the scheduler, three
 * simulated nodes and the StatefulSet controller (with the garbage collector) on a real broker: shared/examples'
 * statefulset-web.yaml behind its headless Service. The order in which pods come and go is read from the control
 * loop's own view (every pod change, in log order), what kubectl shows from kubectl. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlStatefulSetTest {
    /** The seed's storage class, which an administrator provides (STS-05): here the simulated provisioner's. */
    private static final String STORAGE_CLASS = """
            apiVersion: storage.k8s.io/v1
            kind: StorageClass
            metadata:
              name: my-storage-class
            provisioner: sim.eventplane.io/hostpath
            volumeBindingMode: WaitForFirstConsumer
            """;
    /** The headless Service the seed creates first, then shared/examples/statefulset-web.yaml as it is. */
    private static final String WEB = """
            apiVersion: v1
            kind: Service
            metadata:
              name: nginx
              labels:
                app: nginx
            spec:
              ports:
              - port: 80
                name: web
              clusterIP: None
              selector:
                app: nginx
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: web
            spec:
              selector:
                matchLabels:
                  app: nginx # has to match .spec.template.metadata.labels
              serviceName: "nginx"
              replicas: 3 # by default is 1
              template:
                metadata:
                  labels:
                    app: nginx # has to match .spec.selector.matchLabels
                spec:
                  terminationGracePeriodSeconds: 10
                  containers:
                  - name: nginx
                    image: k8s.gcr.io/nginx-slim:0.8
                    ports:
                    - containerPort: 80
                      name: web
                    volumeMounts:
                    - name: www
                      mountPath: /usr/share/nginx/html
              volumeClaimTemplates:
              - metadata:
                  name: www
                spec:
                  accessModes: [ "ReadWriteOnce" ]
                  storageClassName: "my-storage-class"
                  resources:
                    requests:
                      storage: 1Gi
            """;

    private KubectlCluster cluster;
    /** What happened to web's pods, in the order the view saw it: created, ready, terminating, deleted web-N. */
    private final List<String> podLog = new ArrayList<>();
    private Kubectl kubectl;
    private Path manifest;
    private Path storageClass;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(tmp, "statefulset,garbagecollector,persistentvolume-binder,pvc-protection,"
                + "pv-protection,sim-provisioner");
        kubectl = cluster.kubectl();
        cluster.loop().view().addListener(new io.eventplane.client.ObjectView.Listener() {
            @Override
            public void onChange(ObjectChanged change) {
            }

            @Override
            public void onChange(ObjectChanged change, ObjectChanged previous) {
                recordPod(change, previous);
            }
        });
        manifest = kubectl.dir().resolve("web.yaml");
        Files.writeString(manifest, WEB);
        storageClass = kubectl.dir().resolve("my-storage-class.yaml");
        Files.writeString(storageClass, STORAGE_CLASS);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void recordPod(ObjectChanged change, ObjectChanged previous) {
        if (!"Pod".equals(change.getKind()) || !change.getName().startsWith("web-")) {
            return;
        }
        Pod pod = (Pod) change.getObject();
        Pod before = previous == null ? null : (Pod) previous.getObject();
        String name = change.getName();
        synchronized (podLog) {
            if (change.getType() == ChangeType.DELETED) {
                podLog.add("deleted " + name);
                return;
            }
            if (before == null) {
                podLog.add("created " + name + " " + image(pod));
            }
            if (PodStates.isReady(pod) && (before == null || !PodStates.isReady(before))) {
                podLog.add("ready " + name);
            }
            if (pod.getMetadata().getDeletionTimestamp() != null
                    && (before == null || before.getMetadata().getDeletionTimestamp() == null)) {
                podLog.add("terminating " + name);
            }
        }
    }

    private static String image(Pod pod) {
        String image = pod.getSpec().getContainers().get(0).getImage();
        return image.substring(image.lastIndexOf(':') + 1);
    }

    /** The pod log's entries from {@code from} on that start with one of {@code kinds}. */
    private List<String> podLog(int from, String... kinds) {
        synchronized (podLog) {
            return podLog.subList(from, podLog.size()).stream()
                    .filter(e -> List.of(kinds).contains(e.substring(0, e.indexOf(' ')))).toList();
        }
    }

    private int mark() {
        synchronized (podLog) {
            return podLog.size();
        }
    }

    @Test
    @DisplayName("AC-STS-01 AC-STS-03 AC-STS-06 AC-STS-08 AC-STS-12 STS-03 STS-07 STS-09 STS-11 STS-12 STS-13 STS-15 "
            + "STS-16 STS-17 STS-22 STS-23 STS-X01 STS-X05: the seed's web behind its headless Service with the real "
            + "kubectl: 3/3, web-0..2 created in order each after its predecessor is Ready, a claim per ordinal; a "
            + "deleted pod back under its name with its claim; scaled to 5 and to 1 in order; an image rolled with a "
            + "partition, then from web-2 down (rollout status, history, undo); the set deleted, its claims kept")
    void walkthrough() throws Exception {
        assertEquals("storageclass.storage.k8s.io/my-storage-class created\n",
                kubectl.ok("apply", "-f", storageClass.toString()));
        int start = mark();
        assertEquals("service/nginx created\nstatefulset.apps/web created\n", kubectl.ok("apply", "-f", manifest.toString()));
        String sts = until(o -> o.matches("(?s).*\\nweb\\s+3/3\\s.*"), "get", "sts");
        assertTrue(sts.matches("(?s)NAME\\s+READY\\s+AGE\\s.*"), sts);
        assertEquals(List.of("created web-0 0.8", "ready web-0", "created web-1 0.8", "ready web-1",
                "created web-2 0.8", "ready web-2"), podLog(start, "created", "ready"), "AC-STS-01 one at a time, in order");

        // ---- identity: names, hostname.subdomain, labels, claims
        assertEquals("web-0 web-0.nginx web-0 www-web-0 0\nweb-1 web-1.nginx web-1 www-web-1 1\n"
                        + "web-2 web-2.nginx web-2 www-web-2 2\n",
                kubectl.ok("get", "pods", "-l", "app=nginx", "-o", "jsonpath={range .items[*]}{.metadata.name} "
                        + "{.spec.hostname}.{.spec.subdomain} {.metadata.labels.statefulset\\.kubernetes\\.io/pod-name} "
                        + "{.spec.volumes[0].persistentVolumeClaim.claimName} "
                        + "{.metadata.labels.apps\\.kubernetes\\.io/pod-index}{\"\\n\"}{end}"));
        assertEquals("www-web-0 www-web-1 www-web-2", claims());
        String pvc = kubectl.ok("get", "pvc");
        assertTrue(pvc.matches("(?s)NAME\\s+STATUS\\s+VOLUME\\s+CAPACITY\\s+ACCESS MODES\\s+STORAGECLASS\\s.*"
                + "www-web-0\\s+Bound\\s+pvc-\\S+\\s+1Gi\\s+RWO\\s+my-storage-class\\s.*www-web-2\\s+Bound\\s.*"), pvc);
        assertEquals("Bound Bound Bound", kubectl.ok("get", "pv", "-o", "jsonpath={.items[*].status.phase}"),
                "STS-05 STS-12 one volume per claim, provisioned");
        String revision = kubectl.ok("get", "sts", "web", "-o", "jsonpath={.status.updateRevision}");
        assertEquals((revision + " ").repeat(3).trim(), kubectl.ok("get", "pods", "-l", "app=nginx", "-o",
                "jsonpath={.items[*].metadata.labels.controller-revision-hash}"), "STS-X01");
        assertEquals("StatefulSet/web true", kubectl.ok("get", "pod", "web-1", "-o", "jsonpath="
                + "{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} "
                + "{.metadata.ownerReferences[0].controller}"));
        assertEquals("None", kubectl.ok("get", "svc", "nginx", "-o", "jsonpath={.spec.clusterIP}"), "STS-03 headless");

        // ---- a deleted pod comes back under its name, with a new uid and the same claim (STS-13)
        String uid = kubectl.ok("get", "pod", "web-0", "-o", "jsonpath={.metadata.uid}");
        String claimUid = kubectl.ok("get", "pvc", "www-web-0", "-o", "jsonpath={.metadata.uid}");
        int beforeDelete = mark();
        kubectl.ok("delete", "pod", "web-0");
        until(o -> o.matches("(?s).*\\nweb\\s+3/3\\s.*"), "get", "sts");
        String back = until(o -> !o.startsWith(uid) && o.endsWith("True"), "get", "pod", "web-0", "-o",
                "jsonpath={.metadata.uid} {.spec.volumes[0].persistentVolumeClaim.claimName} "
                        + "{.status.conditions[?(@.type==\"Ready\")].status}");
        assertNotEquals(uid, back.split(" ")[0]);
        assertEquals("www-web-0", back.split(" ")[1]);
        assertEquals(claimUid, kubectl.ok("get", "pvc", "www-web-0", "-o", "jsonpath={.metadata.uid}"));
        List<String> replaced = podLog(beforeDelete, "created", "deleted");
        assertEquals(List.of("deleted web-0", "created web-0 0.8"), replaced, "created only once the old one is gone");

        // ---- scale up to 5 in order, down to 1 from the highest ordinal, one at a time (STS-15, STS-17)
        int beforeUp = mark();
        assertEquals("statefulset.apps/web scaled\n", kubectl.ok("scale", "sts", "web", "--replicas=5"));
        until(o -> o.matches("(?s).*\\nweb\\s+5/5\\s.*"), "get", "sts");
        assertEquals(List.of("created web-3 0.8", "ready web-3", "created web-4 0.8", "ready web-4"),
                podLog(beforeUp, "created", "ready"));
        int beforeDown = mark();
        kubectl.ok("scale", "sts", "web", "--replicas=1");
        until(o -> o.matches("(?s).*\\nweb\\s+1/1\\s.*"), "get", "sts");
        until(o -> o.trim().equals("pod/web-0"), "get", "pods", "-l", "app=nginx", "-o", "name");
        assertEquals(List.of("terminating web-4", "deleted web-4", "terminating web-3", "deleted web-3",
                "terminating web-2", "deleted web-2", "terminating web-1", "deleted web-1"),
                podLog(beforeDown, "terminating", "deleted"), "AC-STS-03 each after its successor is deleted");
        assertEquals("www-web-0 www-web-1 www-web-2 www-web-3 www-web-4", claims(), "STS-12 the claims stay");
        kubectl.ok("scale", "sts", "web", "--replicas=3");
        until(o -> o.matches("(?s).*\\nweb\\s+3/3\\s.*"), "get", "sts");

        // ---- a canary with partition 2: only web-2 takes the new image (AC-STS-08)
        kubectl.ok("patch", "sts", "web", "-p", "{\"spec\":{\"updateStrategy\":{\"type\":\"RollingUpdate\","
                + "\"rollingUpdate\":{\"partition\":2}}}}");
        int beforeCanary = mark();
        assertTrue(kubectl.ok("set", "image", "sts/web", "nginx=k8s.gcr.io/nginx-slim:0.9").contains("image updated"));
        String status = kubectl.ok("rollout", "status", "sts/web", "--timeout=120s");
        assertTrue(status.endsWith("partitioned roll out complete: 1 new pods have been updated...\n"), status);
        assertEquals("0.8 0.8 0.9", images(3));
        assertEquals(List.of("terminating web-2", "created web-2 0.9"), podLog(beforeCanary, "terminating", "created"));
        int beforeOldDelete = mark();
        kubectl.ok("delete", "pod", "web-0");
        until(o -> o.equals("True"), "get", "pod", "web-0", "-o",
                "jsonpath={.status.conditions[?(@.type==\"Ready\")].status}");
        assertEquals(List.of("created web-0 0.8"), podLog(beforeOldDelete, "created"),
                "below the partition, recreated at the previous version");

        // ---- the partition lifted: the rest rolls from web-1 down, each after the one above is Ready (AC-STS-06)
        int beforeRoll = mark();
        kubectl.ok("patch", "sts", "web", "-p", "{\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"partition\":0}}}}");
        status = kubectl.ok("rollout", "status", "sts/web", "--timeout=120s");
        assertTrue(status.endsWith("partitioned roll out complete: 3 new pods have been updated...\n"), status);
        assertEquals("0.9 0.9 0.9", images(3));
        assertEquals(List.of("terminating web-1", "created web-1 0.9", "ready web-1", "terminating web-0",
                "created web-0 0.9", "ready web-0"), podLog(beforeRoll, "terminating", "created", "ready"));
        String history = kubectl.ok("rollout", "history", "sts/web");
        assertTrue(history.matches("(?s)statefulset.apps/web\\s+REVISION\\s+CHANGE-CAUSE\\s+1\\s+<none>\\s+2\\s+<none>\\s*"),
                history);
        String revision2 = kubectl.ok("rollout", "history", "sts/web", "--revision=2");
        assertTrue(revision2.matches("(?s).*Image:\\s+k8s.gcr.io/nginx-slim:0.9\\s.*"), revision2);

        // ---- rollout undo: back to 0.8, from web-2 down (STS-22)
        int beforeUndo = mark();
        assertTrue(kubectl.ok("rollout", "undo", "sts/web").contains("rolled back"));
        status = kubectl.ok("rollout", "status", "sts/web", "--timeout=120s");
        assertTrue(status.endsWith("partitioned roll out complete: 3 new pods have been updated...\n"), status);
        assertEquals("0.8 0.8 0.8", images(3));
        assertEquals(List.of("created web-2 0.8", "ready web-2", "created web-1 0.8", "ready web-1",
                "created web-0 0.8", "ready web-0"), podLog(beforeUndo, "created", "ready"));
        history = kubectl.ok("rollout", "history", "sts/web");
        assertTrue(history.matches("(?s).*REVISION\\s+CHANGE-CAUSE\\s+2\\s+<none>\\s+3\\s+<none>\\s*"), history);

        // ---- deleting the set: its pods and revisions go, its claims stay (AC-STS-12)
        kubectl.ok("delete", "sts", "web");
        until(o -> o.contains("No resources found"), "get", "pods", "-l", "app=nginx");
        until(o -> o.contains("No resources found"), "get", "controllerrevisions");
        assertEquals("www-web-0 www-web-1 www-web-2 www-web-3 www-web-4", claims());
    }

    private String claims() throws Exception {
        return kubectl.ok("get", "pvc", "-o", "jsonpath={.items[*].metadata.name}");
    }

    /** The image tags of web's pods in ordinal order, once there are {@code count} and each is Ready. */
    private String images(int count) throws Exception {
        String out = until(o -> o.lines().count() == count && o.lines().allMatch(l -> l.endsWith(" True")), "get",
                "pods", "-l", "app=nginx", "-o", "jsonpath={range .items[*]}{.spec.containers[0].image} "
                        + "{.status.conditions[?(@.type==\"Ready\")].status}{\"\\n\"}{end}");
        return String.join(" ", out.lines().map(l -> l.substring(l.lastIndexOf(':') + 1, l.indexOf(' '))).toList());
    }

    private String until(Predicate<String> condition, String... args) throws Exception {
        return kubectl.until(condition, 120, args);
    }
}
