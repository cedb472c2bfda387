package io.eventplane.testkit.objects;

import io.eventplane.model.LabelSelector;
import io.eventplane.model.LabelSelectorRequirement;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The one place tests build Kubernetes objects. Import its methods statically and a test reads as a sentence:
 *
 * <pre>{@code
 * Pod web = pod("web-1").labels("app", "web").requests("100m", "64Mi").onNode("node-1").running().build();
 * Node n1 = node("node-1").capacity("4", "8Gi", "110").ready().build();
 * ReplicaSet rs = replicaSet("web").replicas(3).image("nginx:1.27").controlledBy(deployment).build();
 * }</pre>
 *
 * Defaults are the least a valid object needs: namespace default for namespaced kinds, one container "c" with image
 * nginx, a workload selector and template labels app=&lt;name&gt;. Everything else stays unset (null) until a test
 * sets it, as a user would send the object; the server-side fields (uid, resourceVersion, generation, timestamps)
 * too.
 */
public final class KubeObjects {
    private KubeObjects() {
    }

    public static PodBuilder pod(String name) {
        return new PodBuilder(name);
    }

    public static NodeBuilder node(String name) {
        return new NodeBuilder(name);
    }

    /** A container with image nginx. */
    public static ContainerBuilder container(String name) {
        return new ContainerBuilder(name);
    }

    /** A pod template without labels and with one container "c" (image nginx). */
    public static PodTemplateBuilder template() {
        return new PodTemplateBuilder();
    }

    public static DeploymentBuilder deployment(String name) {
        return new DeploymentBuilder(name);
    }

    public static ReplicaSetBuilder replicaSet(String name) {
        return new ReplicaSetBuilder(name);
    }

    public static ReplicationControllerBuilder replicationController(String name) {
        return new ReplicationControllerBuilder(name);
    }

    public static StatefulSetBuilder statefulSet(String name) {
        return new StatefulSetBuilder(name);
    }

    public static DaemonSetBuilder daemonSet(String name) {
        return new DaemonSetBuilder(name);
    }

    public static JobBuilder job(String name) {
        return new JobBuilder(name);
    }

    public static PodDisruptionBudgetBuilder podDisruptionBudget(String name) {
        return new PodDisruptionBudgetBuilder(name);
    }

    /** A PersistentVolumeClaim asking for 1Gi ReadWriteOnce. */
    public static PersistentVolumeClaimBuilder persistentVolumeClaim(String name) {
        return new PersistentVolumeClaimBuilder(name);
    }

    /** A 1Gi ReadWriteOnce PersistentVolume with a hostPath source. */
    public static PersistentVolumeBuilder persistentVolume(String name) {
        return new PersistentVolumeBuilder(name);
    }

    public static StorageClassBuilder storageClass(String name, String provisioner) {
        return new StorageClassBuilder(name, provisioner);
    }

    /** A reference to an owner of this kind, name and uid; add {@code .controller()} for a controller reference. */
    public static OwnerRefBuilder ownerRef(String kind, String name, String uid) {
        return new OwnerRefBuilder(kind, name, uid);
    }

    /** A reference to this owner object (its kind, name and uid). */
    public static OwnerRefBuilder ownerRef(SpecificRecord owner) {
        ObjectMeta meta = metadataOf(owner);
        return new OwnerRefBuilder(owner.getSchema().getName(), meta.getName(), meta.getUid());
    }

    /** What a controller sets on what it creates: controller and blockOwnerDeletion true (metav1.NewControllerRef). */
    public static OwnerReference controllerRef(SpecificRecord owner) {
        return ownerRef(owner).controller().blockOwnerDeletion().build();
    }

    /** A map in the order given: key, value, key, value... */
    public static Map<String, String> labels(String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values come in pairs: " + List.of(keysAndValues));
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return out;
    }

    /** A label selector with these matchLabels: key, value, key, value... */
    public static LabelSelector matchLabels(String... keysAndValues) {
        return LabelSelector.newBuilder().setMatchLabels(labels(keysAndValues)).build();
    }

    /** A label selector with these requirements only. */
    public static LabelSelector matchExpressions(LabelSelectorRequirement... requirements) {
        return LabelSelector.newBuilder().setMatchExpressions(List.of(requirements)).build();
    }

    /** One selector requirement: key In/NotIn/Exists/DoesNotExist values. */
    public static LabelSelectorRequirement requirement(String key, String operator, String... values) {
        return LabelSelectorRequirement.newBuilder().setKey(key).setOperator(operator)
                .setValues(values.length == 0 ? null : List.of(values)).build();
    }

    /** A taint: value may be null; effect NoSchedule, PreferNoSchedule or NoExecute. */
    public static Taint taint(String key, String value, String effect) {
        return Taint.newBuilder().setKey(key).setValue(value).setEffect(effect).build();
    }

    /** Tolerates any value of this taint key with this effect (operator Exists). */
    public static Toleration toleration(String key, String effect) {
        return Toleration.newBuilder().setKey(key).setOperator("Exists").setEffect(effect).build();
    }

    /** As {@link #toleration(String, String)}, for at most this many seconds once a NoExecute taint is added. */
    public static Toleration toleration(String key, String effect, Long seconds) {
        return Toleration.newBuilder(toleration(key, effect)).setTolerationSeconds(seconds).build();
    }

    /** A fresh selector with the same content, its matchLabels in the same order (Avro's copies re-hash maps). */
    static LabelSelector copy(LabelSelector selector) {
        if (selector == null) {
            return null;
        }
        return LabelSelector.newBuilder()
                .setMatchLabels(MetaBuilder.copy(selector.getMatchLabels()))
                .setMatchExpressions(selector.getMatchExpressions() == null ? null
                        : new ArrayList<>(selector.getMatchExpressions())).build();
    }

    private static ObjectMeta metadataOf(SpecificRecord object) {
        Schema.Field field = object.getSchema().getField("metadata");
        if (field == null) {
            throw new IllegalArgumentException(object.getSchema().getName() + " has no metadata");
        }
        return (ObjectMeta) object.get(field.pos());
    }
}
