package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.model.Event;
import io.eventplane.model.Lease;
import io.eventplane.model.Namespace;
import io.eventplane.model.Node;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Node, Event, Lease and Namespace")
class KubeJsonOtherKindsTest {
    private final KubeJson codec = KubeJson.get();

    static final String NODE = """
            apiVersion: v1
            kind: Node
            metadata:
              name: node-1
              labels:
                kubernetes.io/hostname: node-1
            spec:
              podCIDR: 10.244.1.0/24
              podCIDRs:
              - 10.244.1.0/24
              providerID: sim://node-1
              unschedulable: true
              taints:
              - key: node.kubernetes.io/unschedulable
                effect: NoSchedule
                timeAdded: "2026-11-21T10:00:00Z"
            status:
              capacity:
                cpu: "4"
                memory: 16Gi
                pods: "110"
              allocatable:
                cpu: 3800m
                memory: 15Gi
                pods: "110"
              phase: Running
              conditions:
              - type: Ready
                status: "True"
                lastHeartbeatTime: "2026-11-21T10:00:10Z"
                lastTransitionTime: "2026-11-21T10:00:00Z"
                reason: KubeletReady
                message: kubelet is posting ready status
              addresses:
              - type: InternalIP
                address: 10.0.0.11
              - type: Hostname
                address: node-1
              daemonEndpoints:
                kubeletEndpoint:
                  Port: 10250
              nodeInfo:
                machineID: m1
                systemUUID: u1
                bootID: b1
                kernelVersion: 6.1.0
                osImage: Debian GNU/Linux 12
                containerRuntimeVersion: containerd://1.7.0
                kubeletVersion: v1.33.0
                kubeProxyVersion: v1.33.0
                operatingSystem: linux
                architecture: amd64
                swap:
                  capacity: 0
              images:
              - names:
                - docker.io/library/nginx@sha256:abc
                - docker.io/library/nginx:1.27
                sizeBytes: 72000000
              volumesInUse:
              - kubernetes.io/csi/driver^vol-1
              volumesAttached:
              - name: kubernetes.io/csi/driver^vol-1
                devicePath: /dev/xvdb
              runtimeHandlers:
              - name: runc
                features:
                  recursiveReadOnlyMounts: true
                  userNamespaces: true
              features:
                supplementalGroupsPolicy: true
            """;

    static final String EVENT = """
            apiVersion: v1
            kind: Event
            metadata:
              name: myapp-pod.17a2b3c4d5e6f708
              namespace: default
            involvedObject:
              kind: Pod
              namespace: default
              name: myapp-pod
              uid: 0c4a3a62-2f4e-4cf1-8d3e-9e1f7b9b2c00
              apiVersion: v1
              resourceVersion: "7"
              fieldPath: spec.initContainers{init-myservice}
            reason: Pulling
            message: pulling image "busybox:1.28"
            source:
              component: kubelet
              host: node-1
            firstTimestamp: "2026-11-21T10:00:00Z"
            lastTimestamp: "2026-11-21T10:00:05Z"
            count: 2
            type: Normal
            eventTime: "2026-11-21T10:00:00.123456Z"
            series:
              count: 2
              lastObservedTime: "2026-11-21T10:00:05.000001Z"
            action: Pulling
            related:
              kind: Node
              name: node-1
            reportingComponent: kubelet
            reportingInstance: node-1
            """;

    static final String LEASE = """
            apiVersion: coordination.k8s.io/v1
            kind: Lease
            metadata:
              name: node-1
              namespace: kube-node-lease
            spec:
              holderIdentity: node-1
              leaseDurationSeconds: 40
              acquireTime: "2026-11-21T10:00:00.000000Z"
              renewTime: "2026-11-21T10:00:30.250000Z"
              leaseTransitions: 1
              strategy: OldestEmulationVersion
              preferredHolder: node-2
            """;

    static final String NAMESPACE = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: team-a
              deletionTimestamp: "2026-11-21T10:00:00Z"
            spec:
              finalizers:
              - kubernetes
            status:
              phase: Terminating
              conditions:
              - type: NamespaceDeletionContentFailure
                status: "False"
                lastTransitionTime: "2026-11-21T10:00:00Z"
                reason: ContentDeleted
                message: All content successfully deleted
            """;

    private <T extends SpecificRecord> T assertRoundTrip(String yaml, Class<T> type) {
        T object = codec.parseObject(Fixtures.utf8(yaml), type, FieldValidation.STRICT, null);
        assertEquals(Fixtures.yamlTree(yaml), Fixtures.normalize(codec.encodeObject(object)));
        assertEquals(object, codec.parseObject(codec.toJsonBytes(object), type, FieldValidation.STRICT, null));
        return object;
    }

    @Test
    @DisplayName("a Node as a kubelet reports it round trips")
    void nodeRoundTrips() {
        Node node = assertRoundTrip(NODE, Node.class);
        assertEquals(10250, node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort());
        assertEquals("3800m", node.getStatus().getAllocatable().get("cpu"));
        assertEquals(Instant.parse("2026-11-21T10:00:00Z"), node.getSpec().getTaints().get(0).getTimeAdded());
    }

    @Test
    @DisplayName("a core/v1 Event round trips, with MicroTime to the microsecond")
    void eventRoundTrips() {
        Event event = assertRoundTrip(EVENT, Event.class);
        assertEquals("spec.initContainers{init-myservice}", event.getInvolvedObject().getFieldPath());
        assertEquals(Instant.parse("2026-11-21T10:00:05.000001Z"), event.getSeries().getLastObservedTime());
    }

    @Test
    @DisplayName("a Lease round trips under its coordination.k8s.io/v1 apiVersion")
    void leaseRoundTrips() {
        Lease lease = assertRoundTrip(LEASE, Lease.class);
        assertEquals(40, lease.getSpec().getLeaseDurationSeconds());
        assertEquals("coordination.k8s.io/v1", codec.encodeObject(lease).get("apiVersion").textValue());
    }

    @Test
    @DisplayName("a terminating Namespace round trips")
    void namespaceRoundTrips() {
        Namespace ns = assertRoundTrip(NAMESPACE, Namespace.class);
        assertEquals(List.of("kubernetes"), ns.getSpec().getFinalizers());
    }

    @Test
    @DisplayName("one shared codec decodes and encodes every kind from many threads at once")
    void sharedAcrossThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Object>> work = new java.util.ArrayList<>();
            for (int i = 0; i < 32; i++) {
                work.add(() -> assertRoundTrip(NODE, Node.class));
                work.add(() -> assertRoundTrip(EVENT, Event.class));
                work.add(() -> assertRoundTrip(LEASE, Lease.class));
            }
            for (Future<Object> f : pool.invokeAll(work)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
