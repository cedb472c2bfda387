package io.eventplane.nodesim;

import io.eventplane.client.ObjectView;
import io.eventplane.core.Digests;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.codec.KubeTime;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.EnvFromSource;
import io.eventplane.model.EnvVar;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Toleration;
import io.eventplane.model.Volume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static pods (POD-18), as a kubelet's file source and mirror-pod client keep them. Each simulated node reads the
 * manifests (one Pod per YAML or JSON file) in {@code <dir>/<node name>/}, and those in {@code <dir>/} itself for
 * every node. The kubelet runs a static pod itself; the API only shows its <em>mirror pod</em>
 * {@code <name>-<node name>}, bound to the node, owned by the Node (controller), with the annotations
 * {@code kubernetes.io/config.mirror}, {@code config.hash}, {@code config.source} and {@code config.seen}.
 *
 * <p>{@link #sync}: a missing mirror pod is created; one whose manifest changed or went is deleted gracefully (its
 * containers are stopped as any pod's), then the new one created. A mirror pod deleted through the API while its
 * manifest stands is not the static pod: {@link KubeletLoop} removes it at once and keeps the run ({@link #keep}),
 * which the recreated mirror pod takes over ({@link #adopt}), so the containers keep running and its status comes
 * back. A manifest that refers to other API objects (a ServiceAccount, ConfigMap or Secret, POD-18.4) is refused and
 * never run, as kube-apiserver refuses its mirror pod.
 */
final class StaticPods {
    private static final Logger LOG = LoggerFactory.getLogger(StaticPods.class);
    static final String MIRROR = "kubernetes.io/config.mirror";
    static final String HASH = "kubernetes.io/config.hash";
    static final String SOURCE = "kubernetes.io/config.source";
    static final String SEEN = "kubernetes.io/config.seen";

    /** A static pod's run and last status while its mirror pod is recreated. */
    record Kept(String nodeName, PodRun run, PodStatus status) {
    }

    private final Path dir;
    private final Map<String, Kept> kept = new HashMap<>();
    private final Map<String, String> refused = new HashMap<>();

    StaticPods(Path dir) {
        this.dir = dir;
    }

    static boolean isMirror(Pod pod) {
        return pod.getMetadata().getAnnotations() != null && pod.getMetadata().getAnnotations().containsKey(MIRROR);
    }

    private static String hashOf(Pod pod) {
        return pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(MIRROR);
    }

    // ---- manifests

    /** The node's static pods as their mirror pods, by mirror name (files in name order; refused ones left out). */
    Map<String, Pod> mirrors(String nodeName, String nodeUid, Instant now) {
        Map<String, Pod> out = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>(files(dir));
        files.addAll(files(dir.resolve(nodeName)));
        for (Path f : files) {
            try {
                Pod manifest = KubeJson.get().parseObject(Files.readAllBytes(f), Pod.class, FieldValidation.STRICT, null);
                Optional<String> why = refusal(manifest);
                if (why.isPresent()) {
                    if (!why.get().equals(refused.put(f + "/" + nodeName, why.get()))) {
                        LOG.warn("node-sim: {}: static pod {} refused: {}", nodeName, f, why.get());
                    }
                    continue;
                }
                Pod mirror = mirror(manifest, nodeName, nodeUid, now);
                out.putIfAbsent(mirror.getMetadata().getName(), mirror);
            } catch (IOException | RuntimeException e) {
                if (!String.valueOf(e.getMessage()).equals(refused.put(f + "/" + nodeName, String.valueOf(e.getMessage())))) {
                    LOG.warn("node-sim: {}: cannot read static pod {}: {}", nodeName, f, e.getMessage());
                }
            }
        }
        return out;
    }

    private static List<Path> files(Path d) {
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(Files::isRegularFile).filter(p -> p.toString().matches(".*\\.(ya?ml|json)$")).sorted().toList();
        } catch (IOException e) {
            LOG.warn("node-sim: cannot list static pods in {}: {}", d, e.getMessage());
            return List.of();
        }
    }

    /** POD-18.4: what kube-apiserver refuses in a mirror pod (references to other API objects), if anything. */
    static Optional<String> refusal(Pod manifest) {
        PodSpec spec = manifest.getSpec();
        if (spec == null || spec.getContainers() == null || spec.getContainers().isEmpty()) {
            return Optional.of("a pod needs containers");
        }
        if (spec.getServiceAccountName() != null && !spec.getServiceAccountName().isEmpty()) {
            return Optional.of("a mirror pod may not reference service accounts");
        }
        for (Volume v : PodRun.list(spec.getVolumes())) {
            if (v.getSecret() != null) {
                return Optional.of("a mirror pod may not reference secrets");
            }
            if (v.getConfigMap() != null) {
                return Optional.of("a mirror pod may not reference configmaps");
            }
            if (v.getProjected() != null) {
                return Optional.of("a mirror pod may not reference service accounts");
            }
        }
        List<Container> all = new ArrayList<>(PodRun.list(spec.getInitContainers()));
        all.addAll(spec.getContainers());
        for (Container c : all) {
            for (EnvFromSource e : PodRun.list(c.getEnvFrom())) {
                if (e.getSecretRef() != null) {
                    return Optional.of("a mirror pod may not reference secrets");
                }
                if (e.getConfigMapRef() != null) {
                    return Optional.of("a mirror pod may not reference configmaps");
                }
            }
            for (EnvVar e : PodRun.list(c.getEnv())) {
                if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                    return Optional.of("a mirror pod may not reference secrets");
                }
                if (e.getValueFrom() != null && e.getValueFrom().getConfigMapKeyRef() != null) {
                    return Optional.of("a mirror pod may not reference configmaps");
                }
            }
        }
        return Optional.empty();
    }

    /** The mirror pod of {@code manifest} on the node: its hash covers the manifest and the node. */
    static Pod mirror(Pod manifest, String nodeName, String nodeUid, Instant seen) {
        ObjectMeta m = manifest.getMetadata() == null ? new ObjectMeta() : manifest.getMetadata();
        String hash = hash(nodeName + "\n" + KubeJson.get().encodeObject(manifest));
        Map<String, String> annotations = m.getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(m.getAnnotations());
        annotations.put(HASH, hash);
        annotations.put(MIRROR, hash);
        annotations.put(SEEN, KubeTime.formatMicroTime(seen));
        annotations.put(SOURCE, "file");
        ObjectMeta meta = ObjectMeta.newBuilder()
                .setName(m.getName() + "-" + nodeName)
                .setNamespace(m.getNamespace() == null || m.getNamespace().isEmpty() ? "default" : m.getNamespace())
                .setLabels(m.getLabels())
                .setAnnotations(annotations)
                .setOwnerReferences(List.of(OwnerReference.newBuilder().setApiVersion("v1").setKind("Node")
                        .setName(nodeName).setUid(nodeUid).setController(true).build()))
                .build();
        List<Toleration> tolerations = new ArrayList<>(PodRun.list(manifest.getSpec().getTolerations()));
        tolerations.add(Toleration.newBuilder().setOperator("Exists").setEffect("NoExecute").build());
        PodSpec spec = PodSpec.newBuilder(manifest.getSpec()).setNodeName(nodeName).setTolerations(tolerations).build();
        return Pod.newBuilder().setMetadata(meta).setSpec(spec).build();
    }

    private static String hash(String s) {
        return Digests.sha256Hex(s).substring(0, 32);
    }

    // ---- the mirror pods in the API

    /**
     * The commands that bring the node's mirror pods to its manifests: creates of the missing ones, graceful deletes
     * of those whose manifest changed or went (a deleting one is waited for).
     *
     * @param mirrorsOnNode the mirror pods the view holds on the node
     */
    List<Command> sync(String nodeName, Map<String, Pod> desired, List<Pod> mirrorsOnNode, io.eventplane.client.Commands commands) {
        List<Command> out = new ArrayList<>();
        Map<String, Pod> existing = new HashMap<>();
        for (Pod p : mirrorsOnNode) {
            existing.put(p.getMetadata().getName(), p);
            Pod want = desired.get(p.getMetadata().getName());
            boolean current = want != null && hashOf(want).equals(hashOf(p));
            if (!current && p.getMetadata().getDeletionTimestamp() == null) {
                Long grace = p.getSpec().getTerminationGracePeriodSeconds();
                out.add(commands.delete(Kinds.POD, p.getMetadata().getNamespace(), p.getMetadata().getName(),
                        grace == null ? 30L : grace, p.getMetadata().getUid()));
            }
        }
        for (Pod want : desired.values()) {
            if (!existing.containsKey(want.getMetadata().getName())) {
                out.add(commands.create(want));
            }
        }
        kept.entrySet().removeIf(e -> e.getValue().nodeName().equals(nodeName)
                && desired.values().stream().noneMatch(p -> e.getKey().equals(hashOf(p))));
        return out;
    }

    /** Whether the mirror pod stands for the node's static pod as its manifest is now. */
    boolean current(Pod mirror, Map<String, Pod> desired) {
        Pod want = desired.get(mirror.getMetadata().getName());
        return want != null && hashOf(want).equals(hashOf(mirror));
    }

    /** The mirror pod is being deleted through the API: its static pod's run and status wait for the next mirror. */
    void keep(Pod mirror, PodRun run) {
        if (run != null) {
            kept.put(hashOf(mirror), new Kept(mirror.getSpec().getNodeName(), run, mirror.getStatus()));
        }
    }

    /** The run a recreated mirror pod takes over, with the status its predecessor showed. */
    Optional<Kept> adopt(Pod mirror) {
        return Optional.ofNullable(kept.remove(hashOf(mirror)));
    }

    /** The mirror pods the view holds on the node. */
    static List<Pod> mirrorsOn(ObjectView view, String nodeName) {
        List<Pod> out = new ArrayList<>();
        for (ObjectChanged c : view.snapshot(ObjectView.PODS_BY_NODE, nodeName, null, x -> true).items()) {
            Pod p = (Pod) c.getObject();
            if (p.getSpec() != null && nodeName.equals(p.getSpec().getNodeName()) && isMirror(p)) {
                out.add(p);
            }
        }
        return out;
    }
}
