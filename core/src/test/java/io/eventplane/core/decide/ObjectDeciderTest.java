package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Toleration;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The writer's decisions, given a current state and a command, without Kafka. */
class ObjectDeciderTest {
    static final Instant T0 = Instant.parse("2026-11-21T10:00:00.250Z");
    final ObjectDecider decider = new ObjectDecider(RulesRegistry.standard());
    long position = 100;

    static Pod pod(String name, Container... containers) {
        return KubeObjects.pod(name).containers(containers).build();
    }

    static Container container(String name, String image) {
        return KubeObjects.container(name).image(image).build();
    }

    static Command command(Verb verb, Pod pod, Instant at) {
        return Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r-" + at.toEpochMilli() + verb)
                        .setTime(at).build())
                .setVerb(verb).setKind("Pod").setNamespace("default")
                .setName(pod == null ? "web" : pod.getMetadata().getName())
                .setPreconditions(new Preconditions()).setObject(pod).build();
    }

    Decision decide(Command c, ObjectChanged current) {
        return decider.decide(c, current, ++position);
    }

    ObjectChanged created(Pod pod) {
        Decision d = decide(command(Verb.CREATE, pod, T0), null);
        assertTrue(d.outcome().getAccepted(), d.outcome().getMessage());
        return d.change().orElseThrow();
    }

    static Pod stored(ObjectChanged c) {
        return (Pod) c.getObject();
    }

    @Test
    @DisplayName("POD-1.5 creating assigns uid, creationTimestamp (seconds), generation 1 and a resourceVersion from the log position")
    void createAssignsServerFields() {
        ObjectChanged c = created(pod("web", container("nginx", "nginx:1.14.2")));
        Pod p = stored(c);
        assertEquals(ChangeType.CREATED, c.getType());
        assertNotNull(p.getMetadata().getUid());
        assertEquals(Instant.parse("2026-11-21T10:00:00Z"), p.getMetadata().getCreationTimestamp());
        assertEquals(1L, p.getMetadata().getGeneration());
        assertEquals(Long.toString(c.getResourceVersion()), p.getMetadata().getResourceVersion());
        assertEquals("Pending", p.getStatus().getPhase());
        assertEquals("BestEffort", p.getStatus().getQosClass());
    }

    @Test
    @DisplayName("POD-1.5 a replacement pod with the same name gets a different uid")
    void replacementGetsNewUid() {
        String first = stored(created(pod("web", container("a", "nginx")))).getMetadata().getUid();
        String second = stored(created(pod("web", container("a", "nginx")))).getMetadata().getUid();
        assertNotEquals(first, second);
    }

    @Test
    @DisplayName("creating the same decision twice at the same position gives the same object (deterministic)")
    void deterministic() {
        Command c = command(Verb.CREATE, pod("web", container("a", "nginx")), T0);
        assertEquals(decider.decide(c, null, 7).change(), decider.decide(c, null, 7).change());
    }

    @Test
    @DisplayName("pods are defaulted as Kubernetes does: restartPolicy, grace period, pull policy, TCP ports, 300 s tolerations")
    void defaults() {
        Pod p = stored(created(pod("web", container("a", "nginx:1.14.2"), container("b", "busybox"))));
        assertEquals("Always", p.getSpec().getRestartPolicy());
        assertEquals(30L, p.getSpec().getTerminationGracePeriodSeconds());
        assertEquals("ClusterFirst", p.getSpec().getDnsPolicy());
        assertEquals("default-scheduler", p.getSpec().getSchedulerName());
        assertEquals("IfNotPresent", p.getSpec().getContainers().get(0).getImagePullPolicy());
        assertEquals("Always", p.getSpec().getContainers().get(1).getImagePullPolicy());
        assertEquals(2, p.getSpec().getTolerations().size());
        assertEquals(300L, p.getSpec().getTolerations().get(0).getTolerationSeconds());
    }

    @Test
    @DisplayName("a second create of the same name is rejected 409 AlreadyExists")
    void duplicateCreate() {
        ObjectChanged c = created(pod("web", container("a", "nginx")));
        Decision d = decide(command(Verb.CREATE, pod("web", container("a", "nginx")), T0), c);
        assertFalse(d.outcome().getAccepted());
        assertEquals(409, d.outcome().getCode());
        assertEquals("AlreadyExists", d.outcome().getReason());
        assertEquals("pods \"web\" already exists", d.outcome().getMessage());
        assertTrue(d.change().isEmpty());
    }

    @Test
    @DisplayName("POD-1.2 a Pod without containers is rejected 422 Invalid")
    void noContainers() {
        Decision d = decide(command(Verb.CREATE, pod("web"), T0), null);
        assertEquals(422, d.outcome().getCode());
        assertEquals("Invalid", d.outcome().getReason());
        assertEquals("spec.containers", d.outcome().getCauses().get(0).getField());
        assertEquals("Pod \"web\" is invalid: spec.containers: Required value", d.outcome().getMessage());
    }

    @Test
    @DisplayName("POD-1.7 duplicate container names across containers and initContainers are rejected")
    void duplicateContainerNames() {
        Pod p = pod("web", container("app", "nginx"));
        p = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setInitContainers(List.of(container("app", "busybox"))).build()).build();
        Decision d = decide(command(Verb.CREATE, p, T0), null);
        assertEquals(422, d.outcome().getCode());
        assertEquals("spec.initContainers[0].name", d.outcome().getCauses().get(0).getField());
        assertEquals("FieldValueDuplicate", d.outcome().getCauses().get(0).getReason());
    }

    @Test
    @DisplayName("W-T14 POD-16.4 a topology spread constraint with maxSkew 0 is rejected by validation")
    void maxSkewZeroRejected() {
        Pod p = pod("spread", container("app", "nginx"));
        p = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setTopologySpreadConstraints(List.of(
                io.eventplane.model.TopologySpreadConstraint.newBuilder().setMaxSkew(0)
                        .setTopologyKey("topology.kubernetes.io/zone").setWhenUnsatisfiable("DoNotSchedule").build()))
                .build()).build();
        Decision d = decide(command(Verb.CREATE, p, T0), null);
        assertEquals(422, d.outcome().getCode());
        assertEquals("spec.topologySpreadConstraints[0].maxSkew", d.outcome().getCauses().get(0).getField());
        assertEquals("FieldValueInvalid", d.outcome().getCauses().get(0).getReason());
        assertTrue(d.outcome().getCauses().get(0).getMessage().contains("must be greater than zero"),
                d.outcome().getCauses().get(0).getMessage());
    }

    @Test
    @DisplayName("POD-1.4 a name that is not a DNS subdomain is rejected")
    void invalidName() {
        Decision d = decide(command(Verb.CREATE, pod("Web_1", container("a", "nginx")), T0), null);
        assertEquals(422, d.outcome().getCode());
        assertEquals("metadata.name", d.outcome().getCauses().get(0).getField());
    }

    @Test
    @DisplayName("an update with a stale resourceVersion is rejected 409 Conflict and changes nothing")
    void staleUpdate() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        Pod p = stored(c);
        Pod edited = Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setResourceVersion("1").build()).build();
        Decision d = decide(command(Verb.UPDATE, edited, T0), c);
        assertEquals(409, d.outcome().getCode());
        assertEquals("Conflict", d.outcome().getReason());
        assertTrue(d.outcome().getMessage().contains("the object has been modified"));
        assertTrue(d.change().isEmpty());
    }

    @Test
    @DisplayName("POD-2.8 an image change bumps generation; a label change does not; an identical update is a no-op")
    void generation() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        Pod p = stored(c);
        Pod image = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec())
                .setContainers(List.of(Container.newBuilder(p.getSpec().getContainers().get(0)).setImage("nginx:2").build())).build()).build();
        Decision d1 = decide(command(Verb.UPDATE, image, T0), c);
        assertTrue(d1.outcome().getAccepted(), d1.outcome().getMessage());
        assertEquals(2L, stored(d1.change().get()).getMetadata().getGeneration());
        ObjectChanged c1 = d1.change().get();
        Pod labelled = Pod.newBuilder(stored(c1)).setMetadata(ObjectMeta.newBuilder(stored(c1).getMetadata())
                .setLabels(java.util.Map.of("app", "web")).build()).build();
        Decision d2 = decide(command(Verb.UPDATE, labelled, T0), c1);
        assertEquals(2L, stored(d2.change().get()).getMetadata().getGeneration());
        Decision d3 = decide(command(Verb.UPDATE, stored(d2.change().get()), T0), d2.change().get());
        assertTrue(d3.outcome().getAccepted());
        assertFalse(d3.outcome().getChanged());
        assertTrue(d3.change().isEmpty());
    }

    @Test
    @DisplayName("POD-2.8 changing restartPolicy of an existing pod is rejected")
    void immutableSpec() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        Pod p = stored(c);
        Pod changed = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setRestartPolicy("Never").build()).build();
        Decision d = decide(command(Verb.UPDATE, changed, T0), c);
        assertEquals(422, d.outcome().getCode());
        assertTrue(d.outcome().getMessage().contains("pod updates may not change fields other than"));
    }

    @Test
    @DisplayName("POD-2.8 tolerations may only be added to")
    void tolerations() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        Pod p = stored(c);
        List<Toleration> more = new ArrayList<>(p.getSpec().getTolerations());
        more.add(Toleration.newBuilder().setKey("k").setOperator("Exists").setEffect("NoSchedule").build());
        Decision add = decide(command(Verb.UPDATE, Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setTolerations(more).build()).build(), T0), c);
        assertTrue(add.outcome().getAccepted(), add.outcome().getMessage());
        Decision remove = decide(command(Verb.UPDATE, Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setTolerations(List.of()).build()).build(), T0), c);
        assertEquals(422, remove.outcome().getCode());
    }

    @Test
    @DisplayName("POD-2.9 activeDeadlineSeconds: unset->100 ok, 100->50 ok, 50->0 ok, 50->60 rejected, 50->unset rejected")
    void activeDeadline() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        c = expectDeadline(c, 100L, true);
        c = expectDeadline(c, 50L, true);
        expectDeadline(c, 60L, false);
        expectDeadline(c, null, false);
        expectDeadline(c, 0L, true);
    }

    private ObjectChanged expectDeadline(ObjectChanged c, Long value, boolean accepted) {
        Pod p = stored(c);
        Pod next = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setActiveDeadlineSeconds(value).build()).build();
        Decision d = decide(command(Verb.UPDATE, next, T0), c);
        assertEquals(accepted, d.outcome().getAccepted(), value + ": " + d.outcome().getMessage());
        return d.change().orElse(c);
    }

    @Test
    @DisplayName("POD-2.6 name, uid and creationTimestamp cannot be changed by an update")
    void immutableMeta() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        Pod p = stored(c);
        Pod renamed = Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setName("other").build()).build();
        Command rename = Command.newBuilder(command(Verb.UPDATE, renamed, T0)).setName("web").build();
        assertEquals(400, decide(rename, c).outcome().getCode());
        Pod otherUid = Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setUid("x").build()).build();
        assertEquals(409, decide(command(Verb.UPDATE, otherUid, T0), c).outcome().getCode());
        Pod older = Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata())
                .setCreationTimestamp(Instant.EPOCH).setGeneration(99L).build()).build();
        Decision d = decide(command(Verb.UPDATE, older, T0), c);
        assertTrue(d.change().isEmpty(), "server-owned fields are kept: the update is a no-op");
    }

    @Test
    @DisplayName("a pod that was never scheduled is deleted at once")
    void deleteUnscheduled() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        Decision d = decide(delete(null, null), c);
        assertEquals(ChangeType.DELETED, d.change().orElseThrow().getType());
    }

    @Test
    @DisplayName("POD-12.2 POD-12.3 deleting a bound pod sets deletionTimestamp = now + 30 s and keeps it (Terminating)")
    void gracefulDelete() {
        ObjectChanged bound = bind(created(pod("web", container("a", "nginx:1"))));
        Decision d = decide(delete(null, null), bound);
        ObjectChanged c = d.change().orElseThrow();
        assertEquals(ChangeType.DELETION_STARTED, c.getType());
        assertEquals(Instant.parse("2026-11-21T10:00:30Z"), stored(c).getMetadata().getDeletionTimestamp());
        assertEquals(30L, stored(c).getMetadata().getDeletionGracePeriodSeconds());
        Decision again = decide(delete(null, null), c);
        assertTrue(again.change().isEmpty(), "a second delete with the same grace is a no-op");
        Decision kubelet = decide(delete(0L, null), c);
        assertEquals(ChangeType.DELETED, kubelet.change().orElseThrow().getType(), "POD-12.11 the kubelet's grace-0 delete removes it");
    }

    @Test
    @DisplayName("POD-12.13 force delete (grace 0) of a running pod removes it immediately")
    void forceDelete() {
        ObjectChanged bound = bind(created(pod("web", container("a", "nginx:1"))));
        assertEquals(ChangeType.DELETED, decide(delete(0L, null), bound).change().orElseThrow().getType());
    }

    @Test
    @DisplayName("POD-12.16 POD-2.7 a pod with a finalizer stays until it is removed, and no finalizer can be added while deleting")
    void finalizers() {
        Pod p = pod("web", container("a", "nginx:1"));
        p = Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setFinalizers(List.of("example.com/x")).build()).build();
        ObjectChanged c = created(p);
        ObjectChanged deleting = decide(delete(0L, null), c).change().orElseThrow();
        assertEquals(ChangeType.DELETION_STARTED, deleting.getType());
        assertNotNull(stored(deleting).getMetadata().getDeletionTimestamp());
        Pod more = Pod.newBuilder(stored(deleting)).setMetadata(ObjectMeta.newBuilder(stored(deleting).getMetadata())
                .setFinalizers(List.of("example.com/x", "example.com/y")).build()).build();
        Decision add = decide(command(Verb.UPDATE, more, T0), deleting);
        assertEquals(422, add.outcome().getCode());
        assertTrue(add.outcome().getMessage().contains("no new finalizers can be added"));
        Pod none = Pod.newBuilder(stored(deleting)).setMetadata(ObjectMeta.newBuilder(stored(deleting).getMetadata())
                .setFinalizers(List.of()).build()).build();
        assertEquals(ChangeType.DELETED, decide(command(Verb.UPDATE, none, T0), deleting).change().orElseThrow().getType());
    }

    @Test
    @DisplayName("propagationPolicy Foreground and Orphan are recorded as finalizers for the garbage collector")
    void propagation() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        ObjectChanged fg = decide(delete(null, "Foreground"), c).change().orElseThrow();
        assertEquals(List.of(ObjectDecider.FOREGROUND_FINALIZER), stored(fg).getMetadata().getFinalizers());
        ObjectChanged or = decide(delete(null, "Orphan"), c).change().orElseThrow();
        assertEquals(List.of(ObjectDecider.ORPHAN_FINALIZER), stored(or).getMetadata().getFinalizers());
        assertEquals(422, decide(delete(null, "Sometimes"), c).outcome().getCode());
    }

    @Test
    @DisplayName("a delete whose uid precondition does not match is rejected 409")
    void deletePrecondition() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        Command d = Command.newBuilder(delete(null, null))
                .setPreconditions(Preconditions.newBuilder().setUid("other").build()).build();
        assertEquals(409, decide(d, c).outcome().getCode());
    }

    @Test
    @DisplayName("POD-1.13 a pod is bound exactly once: a second binding is rejected 409")
    void bindOnce() {
        ObjectChanged bound = bind(created(pod("web", container("a", "nginx:1"))));
        assertEquals("node-1", stored(bound).getSpec().getNodeName());
        assertEquals("PodScheduled", stored(bound).getStatus().getConditions().get(0).getType());
        Decision again = decide(bindCommand(stored(bound).getMetadata().getUid(), "node-2"), bound);
        assertEquals(409, again.outcome().getCode());
        assertTrue(again.outcome().getMessage().contains("already assigned to node \"node-1\""));
    }

    @Test
    @DisplayName("a binding decided for an older pod of the same name (other uid) is rejected")
    void staleBinding() {
        ObjectChanged c = created(pod("web", container("a", "nginx:1")));
        assertEquals(409, decide(bindCommand("some-old-uid", "node-1"), c).outcome().getCode());
    }

    @Test
    @DisplayName("updating or deleting a pod that does not exist is 404 NotFound")
    void notFound() {
        Decision d = decide(delete(null, null), null);
        assertEquals(404, d.outcome().getCode());
        assertEquals("pods \"web\" not found", d.outcome().getMessage());
        assertNull(d.outcome().getResourceVersion());
    }

    @Test
    @DisplayName("an unconditional update of a missing Lease creates it (AllowCreateOnUpdate); with a resourceVersion it is 404")
    void leaseCreateOnUpdate() {
        io.eventplane.model.Lease lease = io.eventplane.model.Lease.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("holder").setNamespace("kube-system").build())
                .setSpec(io.eventplane.model.LeaseSpec.newBuilder().setHolderIdentity("a").setLeaseDurationSeconds(15)
                        .build()).build();
        Command update = Command.newBuilder().setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r-lease")
                        .setTime(T0).build())
                .setVerb(Verb.UPDATE).setKind("Lease").setNamespace("kube-system").setName("holder")
                .setPreconditions(new Preconditions()).setObject(lease).build();
        Decision created = decide(update, null);
        assertTrue(created.outcome().getAccepted(), created.outcome().getMessage());
        assertEquals(ChangeType.CREATED, created.change().orElseThrow().getType());
        io.eventplane.model.Lease stored = (io.eventplane.model.Lease) created.change().orElseThrow().getObject();
        assertNotNull(stored.getMetadata().getUid());
        assertEquals("a", stored.getSpec().getHolderIdentity());

        Decision renewed = decide(update, created.change().orElseThrow());
        assertTrue(renewed.outcome().getAccepted(), renewed.outcome().getMessage());

        Command stale = Command.newBuilder(update).setObject(io.eventplane.model.Lease.newBuilder(lease)
                .setMetadata(ObjectMeta.newBuilder(lease.getMetadata()).setResourceVersion("7").build()).build()).build();
        assertEquals(404, decide(stale, null).outcome().getCode());
        Command status = Command.newBuilder(update).setVerb(Verb.UPDATE_STATUS).build();
        assertEquals(404, decide(status, null).outcome().getCode());
        assertEquals(404, decide(Command.newBuilder(command(Verb.UPDATE, pod("web", container("a", "nginx")), T0))
                .build(), null).outcome().getCode(), "pods are not created by an update");
    }

    ObjectChanged bind(ObjectChanged c) {
        Decision d = decide(bindCommand(stored(c).getMetadata().getUid(), "node-1"), c);
        assertTrue(d.outcome().getAccepted(), d.outcome().getMessage());
        return d.change().orElseThrow();
    }

    static Command bindCommand(String uid, String node) {
        return Command.newBuilder(command(Verb.BIND, null, T0))
                .setPreconditions(Preconditions.newBuilder().setUid(uid).build()).setNodeName(node).build();
    }

    static Command delete(Long grace, String policy) {
        return Command.newBuilder(command(Verb.DELETE, null, T0))
                .setDeleteOptions(DeleteOptions.newBuilder().setGracePeriodSeconds(grace).setPropagationPolicy(policy).build())
                .build();
    }
}
