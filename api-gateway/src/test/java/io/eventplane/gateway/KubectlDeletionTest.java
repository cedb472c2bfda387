package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kubectl's deletion flags against the gateway and the writer (no garbage collector here: what is checked is how the
 * API records the request; the collector's part is tested in the reconcilers module). Skipped without kubectl.
 */
class KubectlDeletionTest {
    @RegisterExtension
    static final Kubectl kubectl = new Kubectl();

    private static void apply(String yaml) throws Exception {
        Path file = Files.createTempFile(kubectl.dir(), "obj", ".yaml");
        Files.writeString(file, yaml);
        Kubectl.Result r = kubectl.run("apply", "-f", file.toString());
        assertEquals(0, r.exit(), r.out());
    }

    private static String replicaSet(String name) {
        return """
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata: {name: %s}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec: {containers: [{name: c, image: nginx}]}
                """.formatted(name, name, name);
    }

    private static String jsonpath(String resource, String path) throws Exception {
        Kubectl.Result r = kubectl.run("get", resource, "-o", "jsonpath=" + path);
        assertEquals(0, r.exit(), r.out());
        return r.out().trim();
    }

    @Test
    @DisplayName("GC-14 GC-10 GC-16 kubectl delete --cascade=foreground|orphan records foregroundDeletion|orphan with a deletionTimestamp; background deletes at once")
    void cascadeFlags() throws Exception {
        for (String name : new String[] {"fg", "orphan", "bg"}) {
            apply(replicaSet(name));
        }
        Kubectl.Result fg = kubectl.run("delete", "rs", "fg", "--cascade=foreground", "--wait=false");
        assertEquals(0, fg.exit(), fg.out());
        assertEquals("foregroundDeletion", jsonpath("rs/fg", "{.metadata.finalizers}").replaceAll("[\\[\\]\"]", ""));
        assertFalse(jsonpath("rs/fg", "{.metadata.deletionTimestamp}").isEmpty());

        Kubectl.Result orphan = kubectl.run("delete", "rs", "orphan", "--cascade=orphan", "--wait=false");
        assertEquals(0, orphan.exit(), orphan.out());
        assertEquals("orphan", jsonpath("rs/orphan", "{.metadata.finalizers}").replaceAll("[\\[\\]\"]", ""));

        Kubectl.Result bg = kubectl.run("delete", "rs", "bg", "--cascade=background");
        assertEquals(0, bg.exit(), bg.out());
        assertTrue(kubectl.run("get", "rs", "bg").out().contains("NotFound"));
    }

    @Test
    @DisplayName("POD-12.13 POD-12.16 kubectl delete --grace-period=0 --force: a pod goes at once; one with a finalizer shows Terminating until it is removed")
    void forceDelete() throws Exception {
        apply("""
                apiVersion: v1
                kind: Pod
                metadata: {name: plain}
                spec: {nodeName: node-1, containers: [{name: c, image: nginx}]}
                """);
        apply("""
                apiVersion: v1
                kind: Pod
                metadata: {name: held, finalizers: [example.com/hold]}
                spec: {nodeName: node-1, containers: [{name: c, image: nginx}]}
                """);
        Kubectl.Result plain = kubectl.run("delete", "pod", "plain", "--grace-period=0", "--force");
        assertEquals(0, plain.exit(), plain.out());
        assertTrue(kubectl.run("get", "pod", "plain").out().contains("NotFound"));

        Kubectl.Result held = kubectl.run("delete", "pod", "held", "--grace-period=0", "--force", "--wait=false");
        assertEquals(0, held.exit(), held.out());
        Kubectl.Result get = kubectl.run("get", "pod", "held");
        assertTrue(get.out().matches("(?s).*held\\s+0/1\\s+Terminating.*"), get.out());

        Kubectl.Result patched = kubectl.run("patch", "pod", "held", "--type=merge", "-p", "{\"metadata\":{\"finalizers\":null}}");
        assertEquals(0, patched.exit(), patched.out());
        assertTrue(kubectl.run("get", "pod", "held").out().contains("NotFound"));
    }
}
