package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.log.Command;
import io.eventplane.log.Verb;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StaticPodsTest {
    static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    static final String ETCD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: etcd, namespace: kube-system, labels: {component: etcd}}
            spec:
              hostNetwork: true
              containers: [{name: etcd, image: 'registry.k8s.io/etcd:3.5.15-0'}]
            """;

    static Pod parse(String yaml) {
        return KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), Pod.class, FieldValidation.STRICT, null);
    }

    @Test
    @DisplayName("POD-18.2 POD-18.3 a static pod's mirror: <name>-<node>, bound to the node, owned by the Node "
            + "(controller), annotated config.mirror, config.hash, config.source and config.seen")
    void mirrorPod() {
        Pod m = StaticPods.mirror(parse(ETCD), "node-1", "uid-node-1", T0);

        assertEquals("etcd-node-1", m.getMetadata().getName());
        assertEquals("kube-system", m.getMetadata().getNamespace());
        assertEquals("node-1", m.getSpec().getNodeName());
        assertEquals(Map.of("component", "etcd"), m.getMetadata().getLabels());
        Map<String, String> a = m.getMetadata().getAnnotations();
        assertEquals(32, a.get(StaticPods.MIRROR).length());
        assertEquals(a.get(StaticPods.HASH), a.get(StaticPods.MIRROR));
        assertEquals("file", a.get(StaticPods.SOURCE));
        assertEquals("2025-06-01T10:00:00.000000Z", a.get(StaticPods.SEEN));
        assertEquals(List.of(OwnerReference.newBuilder().setApiVersion("v1").setKind("Node").setName("node-1")
                .setUid("uid-node-1").setController(true).build()), m.getMetadata().getOwnerReferences());
        assertTrue(m.getSpec().getTolerations().stream()
                .anyMatch(t -> "Exists".equals(t.getOperator()) && "NoExecute".equals(t.getEffect())));
        assertNotEquals(a.get(StaticPods.HASH), StaticPods.mirror(parse(ETCD), "node-2", "uid-node-2", T0)
                .getMetadata().getAnnotations().get(StaticPods.HASH), "one static pod per node");
        assertNotEquals(a.get(StaticPods.HASH), StaticPods.mirror(parse(ETCD.replace("3.5.15-0", "3.5.16-0")),
                "node-1", "uid-node-1", T0).getMetadata().getAnnotations().get(StaticPods.HASH), "a changed manifest");
    }

    @ParameterizedTest(name = "POD-18.4 a static pod that refers to {0} is refused: {1}")
    @CsvSource(delimiter = '|', value = {
        "a Secret volume|volumes: [{name: s, secret: {secretName: s}}]|a mirror pod may not reference secrets",
        "a ConfigMap volume|volumes: [{name: c, configMap: {name: c}}]|a mirror pod may not reference configmaps",
        "a ServiceAccount|serviceAccountName: builder|a mirror pod may not reference service accounts"})
    void refusals(String what, String field, String why) {
        Pod p = parse(ETCD + "  " + field + "\n");
        assertEquals(Optional.of(why), StaticPods.refusal(p));
    }

    @Test
    @DisplayName("POD-18.1 POD-18.4 manifests: the node's own directory and the shared one; refused ones are not run")
    void manifests(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("node-1"));
        Files.writeString(dir.resolve("node-1/etcd.yaml"), ETCD);
        Files.writeString(dir.resolve("agent.yaml"), ETCD.replace("name: etcd, namespace: kube-system", "name: agent"));
        Files.writeString(dir.resolve("node-1/bad.yaml"), ETCD.replace("name: etcd,", "name: bad,")
                + "  serviceAccountName: builder\n");
        Files.writeString(dir.resolve("notes.txt"), "not a manifest");
        StaticPods statics = new StaticPods(dir);

        assertEquals(List.of("agent-node-1", "etcd-node-1"), List.copyOf(statics.mirrors("node-1", "u1", T0).keySet()));
        assertEquals(List.of("agent-node-2"), List.copyOf(statics.mirrors("node-2", "u2", T0).keySet()));
    }

    @Test
    @DisplayName("POD-18.3 sync: a missing mirror is created, a stale one (changed manifest) deleted gracefully, a "
            + "terminating stale one waited for")
    void sync(@TempDir Path dir) {
        StaticPods statics = new StaticPods(dir);
        Commands kubelet = new Commands("system:node:node-1");
        Pod want = StaticPods.mirror(parse(ETCD), "node-1", "u1", T0);
        Map<String, Pod> desired = Map.of("etcd-node-1", want);

        List<Command> first = statics.sync("node-1", desired, List.of(), kubelet);
        assertEquals(List.of(Verb.CREATE), first.stream().map(Command::getVerb).toList());

        assertEquals(List.of(), statics.sync("node-1", desired, List.of(stored(want, "uid-a", false)), kubelet));

        Pod old = stored(StaticPods.mirror(parse(ETCD.replace("3.5.15-0", "3.5.14-0")), "node-1", "u1", T0), "uid-b", false);
        List<Command> replace = statics.sync("node-1", desired, List.of(old), kubelet);
        assertEquals(List.of(Verb.DELETE), replace.stream().map(Command::getVerb).toList());
        assertEquals(30L, replace.get(0).getDeleteOptions().getGracePeriodSeconds());
        assertEquals("uid-b", replace.get(0).getPreconditions().getUid());

        assertEquals(List.of(), statics.sync("node-1", desired, List.of(stored(old, "uid-b", true)), kubelet));
        assertTrue(statics.current(stored(want, "uid-c", true), desired));
    }

    private static Pod stored(Pod p, String uid, boolean deleting) {
        ObjectMeta.Builder m = ObjectMeta.newBuilder(p.getMetadata()).setUid(uid);
        if (deleting) {
            m.setDeletionTimestamp(T0.plusSeconds(30)).setDeletionGracePeriodSeconds(30L);
        }
        return Pod.newBuilder(p).setMetadata(m.build()).build();
    }
}
