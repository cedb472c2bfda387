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
 * Issue 16: a PersistentVolumeClaim and a pod using it on a running cluster, with the real kubectl: the default class
 * standard (made by the simulated provisioner when it starts), the claim Pending until its first consumer, then
 * provisioned on the pod's node and Bound, the pod Running; kubectl's columns and describe; the claim deleted after
 * its pod, and its volume with it. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlVolumesTest {
    private static final String CLAIM = """
            apiVersion: v1
            kind: PersistentVolumeClaim
            metadata:
              name: data
            spec:
              accessModes: [ReadWriteOnce]
              resources:
                requests:
                  storage: 1Gi
            """;
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
            spec:
              containers:
              - name: nginx
                image: nginx:1.27
                volumeMounts:
                - name: www
                  mountPath: /usr/share/nginx/html
              volumes:
              - name: www
                persistentVolumeClaim:
                  claimName: data
            """;

    private KubectlCluster cluster;
    private Kubectl kubectl;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        cluster = KubectlCluster.start(tmp, "persistentvolume-binder,pvc-protection,pv-protection,"
                + "sim-provisioner,serviceaccount");
        kubectl = cluster.kubectl();
        Files.writeString(dir.resolve("claim.yaml"), CLAIM);
        Files.writeString(dir.resolve("pod.yaml"), POD);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("STS-05 STS-12 POD-6.11: kubectl apply a claim and a pod using it: the default class, WaitForFirstConsumer, "
            + "provisioned and Bound, the pod Running; get pvc,pv,sc and describe pvc; deleted, the volume goes too")
    void claimAndPod() throws Exception {
        String classes = kubectl.until(o -> o.contains("standard (default)"), "get", "sc");
        assertTrue(classes.matches("(?s)NAME\\s+PROVISIONER\\s+RECLAIMPOLICY\\s+VOLUMEBINDINGMODE\\s+ALLOWVOLUMEEXPANSION"
                + "\\s+AGE\\s+standard \\(default\\)\\s+sim\\.eventplane\\.io/hostpath\\s+Delete\\s+WaitForFirstConsumer\\s+"
                + "false\\s+\\S+\\s*"), classes);

        assertEquals("persistentvolumeclaim/data created\n", kubectl.ok("apply", "-f", dir.resolve("claim.yaml").toString()));
        String pending = kubectl.ok("get", "pvc", "data");
        assertTrue(pending.matches("(?s)NAME\\s+STATUS\\s+VOLUME\\s+CAPACITY\\s+ACCESS MODES\\s+STORAGECLASS\\s+"
                + "VOLUMEATTRIBUTESCLASS\\s+AGE\\s+data\\s+Pending\\s+standard\\s+<unset>\\s+\\S+\\s*"), pending);
        String waiting = kubectl.until(o -> o.contains("WaitForFirstConsumer"), "describe", "pvc", "data");
        assertTrue(waiting.matches("(?s).*StorageClass:\\s+standard\\s.*"), waiting);
        assertTrue(waiting.matches("(?s).*Status:\\s+Pending\\s.*"), waiting);
        assertTrue(waiting.contains("waiting for first consumer to be created before binding"), waiting);

        assertEquals("pod/web created\n", kubectl.ok("apply", "-f", dir.resolve("pod.yaml").toString()));
        kubectl.until(o -> o.matches("(?s).*web\\s+1/1\\s+Running\\s.*"), "get", "pod", "web");
        String bound = kubectl.ok("get", "pvc", "data", "--no-headers");
        assertTrue(bound.matches("data\\s+Bound\\s+pvc-[0-9a-f-]+\\s+1Gi\\s+RWO\\s+standard\\s+<unset>\\s+\\S+\\s*"), bound);
        String volume = bound.trim().split("\\s+")[2];
        String pv = kubectl.ok("get", "pv", "--no-headers");
        assertTrue(pv.matches(volume + "\\s+1Gi\\s+RWO\\s+Delete\\s+Bound\\s+default/data\\s+standard\\s+<unset>\\s+\\S+"
                + "\\s*"), pv);
        String node = kubectl.ok("get", "pod", "web", "-o", "jsonpath={.spec.nodeName}");
        assertEquals(node, kubectl.ok("get", "pvc", "data", "-o",
                "jsonpath={.metadata.annotations.volume\\.kubernetes\\.io/selected-node}"));
        String describe = kubectl.until(o -> o.contains("ProvisioningSucceeded"), "describe", "pvc", "data");
        assertTrue(describe.matches("(?s).*Status:\\s+Bound\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Volume:\\s+" + volume + "\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Capacity:\\s+1Gi\\s.*"), describe);
        assertTrue(describe.matches("(?s).*Used By:\\s+web\\s.*"), describe);
        assertTrue(describe.contains("kubernetes.io/pvc-protection"), describe);

        kubectl.ok("delete", "pod", "web");
        assertEquals("persistentvolumeclaim \"data\" deleted\n", kubectl.ok("delete", "pvc", "data"));
        kubectl.until(o -> o.contains("No resources found"), "get", "pv");
    }
}
