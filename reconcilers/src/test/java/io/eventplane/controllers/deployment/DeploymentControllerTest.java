package io.eventplane.controllers.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.Workloads;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ResourceRequirements;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DeploymentControllerTest {
    private static final String NAME = "nginx-deployment";
    private final SimulatedCluster cluster = new SimulatedCluster();

    // ------------------------------------------------------------------ helpers

    private Deployment d() {
        return cluster.deployment(NAME);
    }

    private void edit(UnaryOperator<DeploymentSpec.Builder> change) {
        Deployment d = d();
        DeploymentSpec spec = change.apply(DeploymentSpec.newBuilder(d.getSpec())).build();
        assertTrue(cluster.update(Deployment.newBuilder(d).setSpec(spec).build()).getAccepted());
    }

    /** kubectl set image deployment/nginx-deployment nginx=<image> [--record]. */
    private void setImage(String image, String changeCause) {
        Deployment d = d();
        PodTemplateSpec t = PodTemplateSpec.newBuilder(d.getSpec().getTemplate()).build();
        t.getSpec().getContainers().get(0).setImage(image);
        ObjectMeta meta = d.getMetadata();
        if (changeCause != null) {
            Map<String, String> a = new HashMap<>(meta.getAnnotations() == null ? Map.of() : meta.getAnnotations());
            a.put(DeploymentAnnotations.CHANGE_CAUSE, changeCause);
            meta = ObjectMeta.newBuilder(meta).setAnnotations(a).build();
        }
        assertTrue(cluster.update(Deployment.newBuilder(d).setMetadata(meta)
                .setSpec(DeploymentSpec.newBuilder(d.getSpec()).setTemplate(t).build()).build()).getAccepted());
    }

    private void scale(int replicas) {
        edit(s -> s.setReplicas(replicas));
    }

    private static String image(ReplicaSet rs) {
        return rs.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private static int spec(ReplicaSet rs) {
        return rs.getSpec().getReplicas();
    }

    private static int ready(ReplicaSet rs) {
        return rs.getStatus() == null || rs.getStatus().getReadyReplicas() == null ? 0 : rs.getStatus().getReadyReplicas();
    }

    private static int current(ReplicaSet rs) {
        return rs.getStatus() == null || rs.getStatus().getReplicas() == null ? 0 : rs.getStatus().getReplicas();
    }

    private static String revision(ReplicaSet rs) {
        return rs.getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION);
    }

    private DeploymentCondition condition(String type) {
        DeploymentStatus s = d().getStatus();
        return s.getConditions() == null ? null
                : s.getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElse(null);
    }

    private void assertCondition(String type, String status, String reason) {
        DeploymentCondition c = condition(type);
        assertNotNull(c, "no " + type + " condition");
        assertEquals(status + " " + reason, c.getStatus() + " " + c.getReason());
    }

    /** describe's "Replicas: d desired | u updated | t total | a available | n unavailable". */
    private String replicasLine() {
        DeploymentStatus s = d().getStatus();
        return d().getSpec().getReplicas() + " desired | " + s.getUpdatedReplicas() + " updated | " + s.getReplicas()
                + " total | " + s.getAvailableReplicas() + " available | " + s.getUnavailableReplicas() + " unavailable";
    }

    private List<Pod> livePods() {
        return cluster.list(Pod.class).stream().filter(PodStates::isActive).toList();
    }

    private long availablePods() {
        return livePods().stream().filter(PodStates::isReady).count();
    }

    private void created(Deployment d) {
        assertTrue(cluster.create(d).getAccepted());
    }

    // ------------------------------------------------------------------ §1.2, §1.3: creation

    @Test
    @DisplayName("AC-DEP-01, DEP-14, DEP-15, DEP-16, DEP-17: one ReplicaSet <deployment>-<hash> at 3, pods labelled with pod-template-hash, complete status")
    void createsOneReplicaSet() {
        created(Workloads.nginxDeployment(3));
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(1, rss.size());
        ReplicaSet rs = rss.get(0);
        String hash = rs.getMetadata().getLabels().get("pod-template-hash");
        assertTrue(hash.matches("[bcdfghjklmnpqrstvwxz2456789]{1,10}"), hash);
        assertEquals(NAME + "-" + hash, rs.getMetadata().getName());
        assertEquals(hash, rs.getSpec().getSelector().getMatchLabels().get("pod-template-hash"));
        assertEquals(hash, rs.getSpec().getTemplate().getMetadata().getLabels().get("pod-template-hash"));
        assertEquals(List.of(3, 3, 3), List.of(spec(rs), current(rs), ready(rs)));
        List<Pod> pods = cluster.podsOf(rs.getMetadata().getName());
        assertEquals(3, pods.size());
        for (Pod p : pods) {
            assertTrue(p.getMetadata().getName().startsWith(rs.getMetadata().getName() + "-"));
            assertEquals(Map.of("app", "nginx", "pod-template-hash", hash), p.getMetadata().getLabels());
        }
        assertEquals("1", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
        assertEquals("1", revision(rs));
        // get deployments: nginx-deployment 3/3 3 3
        assertEquals(List.of(3, 3, 3, 3), List.of(d().getStatus().getReadyReplicas(), d().getStatus().getUpdatedReplicas(),
                d().getStatus().getAvailableReplicas(), d().getStatus().getReplicas()));
        assertEquals(d().getMetadata().getGeneration(), d().getStatus().getObservedGeneration());
        assertCondition("Available", "True", "MinimumReplicasAvailable");
        assertCondition("Progressing", "True", "NewReplicaSetAvailable");
        assertEquals("ReplicaSet \"" + rs.getMetadata().getName() + "\" has successfully progressed.",
                condition("Progressing").getMessage());
        assertEquals("Deployment has minimum availability.", condition("Available").getMessage());
        assertEquals(List.of("Scaled up replica set " + rs.getMetadata().getName() + " to 3"),
                cluster.eventsWithReason("ScalingReplicaSet"));
    }

    @Test
    @DisplayName("DEP-15: the ReplicaSet name is the same for the same template (the hash is deterministic)")
    void hashIsDeterministic() {
        Deployment d = Workloads.nginxDeployment(3);
        String h1 = io.eventplane.controllers.Hashes.templateHash(d.getSpec().getTemplate(), null);
        String h2 = io.eventplane.controllers.Hashes.templateHash(Workloads.nginxDeployment(5).getSpec().getTemplate(), null);
        assertEquals(h1, h2);
        assertFalse(h1.equals(io.eventplane.controllers.Hashes.templateHash(
                Workloads.deployment("x", 3, "nginx:1.16.1").getSpec().getTemplate(), null)));
        assertFalse(h1.equals(io.eventplane.controllers.Hashes.templateHash(d.getSpec().getTemplate(), 1)));
    }

    // ------------------------------------------------------------------ §1.4: rolling update

    @Test
    @DisplayName("AC-DEP-02, AC-DEP-03, DEP-25, DEP-28, DEP-29, DEP-30: set image 1.16.1 scales new 1, old 2, new 2, old 1, new 3, old 0; never below 3 available or above 4 pods")
    void rollingUpdateSequence() {
        created(Workloads.nginxDeployment(3));
        cluster.settle();
        String old = cluster.replicaSetsOf(NAME).get(0).getMetadata().getName();
        List<String> violations = new ArrayList<>();
        cluster.invariant(c -> {
            long total = livePods().size();
            int specs = cluster.replicaSetsOf(NAME).stream().mapToInt(DeploymentControllerTest::spec).sum();
            if (total > 4 || specs > 4 || availablePods() < 3) {
                violations.add("pods " + total + ", Σspec " + specs + ", available " + availablePods());
            }
        });
        setImage("nginx:1.16.1", "kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1 --record=true");
        cluster.settle();
        assertEquals(List.of(), violations);
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(2, rss.size());
        String fresh = rss.get(1).getMetadata().getName();
        assertEquals(List.of(
                "Scaled up replica set " + old + " to 3",
                "Scaled up replica set " + fresh + " to 1",
                "Scaled down replica set " + old + " to 2",
                "Scaled up replica set " + fresh + " to 2",
                "Scaled down replica set " + old + " to 1",
                "Scaled up replica set " + fresh + " to 3",
                "Scaled down replica set " + old + " to 0"), cluster.eventsWithReason("ScalingReplicaSet"));
        assertEquals(List.of(0, 0, 0), List.of(spec(rss.get(0)), current(rss.get(0)), ready(rss.get(0))));
        assertEquals(List.of(3, 3, 3), List.of(spec(rss.get(1)), current(rss.get(1)), ready(rss.get(1))));
        assertEquals("nginx:1.16.1", image(rss.get(1)));
        assertEquals(3, livePods().size());
        assertTrue(livePods().stream().allMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("nginx:1.16.1")));
        assertEquals("2", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
        assertEquals("3 desired | 3 updated | 3 total | 3 available | 0 unavailable", replicasLine());
        assertCondition("Available", "True", "MinimumReplicasAvailable");
        assertCondition("Progressing", "True", "NewReplicaSetAvailable");
        // DEP-24: the change-cause goes with the revision
        assertEquals("kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1 --record=true",
                rss.get(1).getMetadata().getAnnotations().get(DeploymentAnnotations.CHANGE_CAUSE));
    }

    @Test
    @DisplayName("POD-17.10 a rolling update is not held back by a PodDisruptionBudget that allows no disruption: the "
            + "Deployment's own strategy replaces all 3 pods")
    void rollingUpdateIsNotLimitedByBudgets() {
        created(Workloads.nginxDeployment(3));
        cluster.settle();
        assertTrue(cluster.create(io.eventplane.testkit.objects.KubeObjects.podDisruptionBudget("all-nginx")
                .minAvailable(3).selector("app", "nginx").build()).getAccepted());
        cluster.settle();
        setImage("nginx:1.16.1", null);
        cluster.settle();
        assertEquals(3, livePods().size());
        assertTrue(livePods().stream().allMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("nginx:1.16.1")));
        assertEquals("3 desired | 3 updated | 3 total | 3 available | 0 unavailable", replicasLine());
    }

    @Test
    @DisplayName("AC-DEP-04, DEP-31: an image that never pulls stalls at new 1 (0 ready), old 3: 3 desired | 1 updated | 4 total | 3 available | 1 unavailable")
    void badImageStalls() {
        created(Workloads.nginxDeployment(3));
        cluster.settle();
        setImage("nginx:1.16.1", null);
        cluster.settle();
        cluster.badImages.add("nginx:1.161");
        setImage("nginx:1.161", null);
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(3, rss.size());
        assertEquals(List.of(0, 0, 0), List.of(spec(rss.get(0)), current(rss.get(0)), ready(rss.get(0))));
        assertEquals(List.of(3, 3, 3), List.of(spec(rss.get(1)), current(rss.get(1)), ready(rss.get(1))));
        assertEquals(List.of(1, 1, 0), List.of(spec(rss.get(2)), current(rss.get(2)), ready(rss.get(2))));
        assertEquals("3 desired | 1 updated | 4 total | 3 available | 1 unavailable", replicasLine());
        assertCondition("Available", "True", "MinimumReplicasAvailable");
        assertCondition("Progressing", "True", "ReplicaSetUpdated");
        assertEquals("Replica set \"" + rss.get(2).getMetadata().getName() + "\" is progressing.",
                condition("Progressing").getMessage());
        assertEquals("3", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
    }

    @Test
    @DisplayName("AC-DEP-07, DEP-41, DEP-42: undo (the template of revision 2 copied back, as kubectl does) reuses that ReplicaSet as revision 4")
    void rollbackReusesReplicaSet() {
        created(Workloads.nginxDeployment(3));
        cluster.settle();
        setImage("nginx:1.16.1", null);
        cluster.settle();
        cluster.badImages.add("nginx:1.161");
        setImage("nginx:1.161", null);
        cluster.settle();
        ReplicaSet rev2 = cluster.replicaSetsOf(NAME).get(1);
        // kubectl rollout undo: the revision's template without pod-template-hash replaces the Deployment's
        PodTemplateSpec t = DeploymentDecider.withoutHash(rev2.getSpec().getTemplate());
        // as it comes back through JSON: empty objects where the stored template had none
        t = PodTemplateSpec.newBuilder(t).build();
        t.getSpec().getContainers().get(0).setResources(new ResourceRequirements());
        t.getSpec().setSecurityContext(new io.eventplane.model.PodSecurityContext());
        t.getMetadata().setAnnotations(new HashMap<>());
        Deployment d = d();
        PodTemplateSpec back = t;
        assertTrue(cluster.update(Deployment.newBuilder(d).setSpec(DeploymentSpec.newBuilder(d.getSpec()).setTemplate(back).build())
                .build()).getAccepted());
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(3, rss.size(), "no new ReplicaSet");
        ReplicaSet reused = cluster.get(ReplicaSet.class, rev2.getMetadata().getName());
        assertEquals("4", revision(reused));
        assertEquals("2", reused.getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION_HISTORY));
        assertEquals("4", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
        assertEquals("nginx:1.16.1", d().getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(List.of("1", "3", "4"), rss.stream().map(DeploymentControllerTest::revision).sorted().toList());
        assertEquals("3 desired | 3 updated | 3 total | 3 available | 0 unavailable", replicasLine());
        assertCondition("Available", "True", "MinimumReplicasAvailable");
        assertCondition("Progressing", "True", "NewReplicaSetAvailable");
        assertEquals(List.of(3, 3, 3), List.of(spec(reused), current(reused), ready(reused)));
        List<String> scaling = cluster.eventsWithReason("ScalingReplicaSet");
        assertTrue(scaling.get(scaling.size() - 1).startsWith("Scaled down replica set "), scaling.toString());
    }

    // ------------------------------------------------------------------ §1.7: scaling

    @Test
    @DisplayName("AC-DEP-08, AC-DEP-28, DEP-22, DEP-36: scaling to 10 changes only the current ReplicaSet; no revision, no new ReplicaSet")
    void scaleIsNoRollout() {
        created(Workloads.nginxDeployment(3));
        cluster.settle();
        scale(10);
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(1, rss.size());
        assertEquals(10, spec(rss.get(0)));
        assertEquals("1", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
        assertEquals("10", rss.get(0).getMetadata().getAnnotations().get(DeploymentAnnotations.DESIRED_REPLICAS));
        assertEquals("13", rss.get(0).getMetadata().getAnnotations().get(DeploymentAnnotations.MAX_REPLICAS));
        assertEquals(10, livePods().size());
    }

    @Test
    @DisplayName("AC-DEP-09, AC-DEP-10, DEP-37, DEP-38, DEP-39: 10 replicas (surge 3, unavailable 2) stall at new 5 / old 8; scaling to 15 gives old 11 (+3) and new 7 (+2)")
    void proportionalScaling() {
        created(Workloads.withStrategy(Workloads.nginxDeployment(10), 3, 2));
        cluster.settle();
        assertEquals(List.of(10, 10, 10, 10), List.of(d().getSpec().getReplicas(), d().getStatus().getReplicas(),
                d().getStatus().getUpdatedReplicas(), d().getStatus().getAvailableReplicas()));
        cluster.badImages.add("nginx:sometag");
        setImage("nginx:sometag", null);
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(List.of(8, 8, 8), List.of(spec(rss.get(0)), current(rss.get(0)), ready(rss.get(0))));
        assertEquals(List.of(5, 5, 0), List.of(spec(rss.get(1)), current(rss.get(1)), ready(rss.get(1))));
        scale(15);
        cluster.settle();
        rss = cluster.replicaSetsOf(NAME);
        assertEquals(List.of(11, 11, 11), List.of(spec(rss.get(0)), current(rss.get(0)), ready(rss.get(0))));
        assertEquals(List.of(7, 7, 0), List.of(spec(rss.get(1)), current(rss.get(1)), ready(rss.get(1))));
        // get deploy: DESIRED 15, CURRENT 18, UP-TO-DATE 7
        assertEquals(List.of(15, 18, 7), List.of(d().getSpec().getReplicas(), d().getStatus().getReplicas(),
                d().getStatus().getUpdatedReplicas()));
        assertEquals("15", rss.get(0).getMetadata().getAnnotations().get(DeploymentAnnotations.DESIRED_REPLICAS));
        assertEquals("18", rss.get(1).getMetadata().getAnnotations().get(DeploymentAnnotations.MAX_REPLICAS));
    }

    @Test
    @DisplayName("AC-DEP-21, DEP-27: maxUnavailable 30% and maxSurge 30% on 10: the old ReplicaSet drops to 7 at once; at most 13 pods, at least 7 available")
    void thirtyPercent() {
        created(Workloads.withStrategy(Workloads.nginxDeployment(10), "30%", "30%"));
        cluster.settle();
        List<String> violations = new ArrayList<>();
        cluster.invariant(c -> {
            int specs = cluster.replicaSetsOf(NAME).stream().mapToInt(DeploymentControllerTest::spec).sum();
            if (livePods().size() > 13 || specs > 13 || availablePods() < 7) {
                violations.add(specs + "/" + livePods().size() + "/" + availablePods());
            }
        });
        cluster.autoReady = false;
        setImage("nginx:1.16.1", null);
        cluster.step();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(7, spec(rss.get(0)));
        assertEquals(3, spec(rss.get(1)));
        cluster.autoReady = true;
        cluster.settle();
        assertEquals(List.of(), violations);
        assertEquals(10, spec(cluster.replicaSetsOf(NAME).get(1)));
    }

    @Test
    @DisplayName("DEP-32: maxSurge rounds up, maxUnavailable rounds down, both 0 after rounding makes maxUnavailable 1")
    void fenceposts() {
        assertEquals(List.of(1, 0), List.of(RolloutMath.fenceposts("25%", "25%", 3)[0], RolloutMath.fenceposts("25%", "25%", 3)[1]));
        assertEquals(List.of(3, 3), List.of(RolloutMath.fenceposts("30%", "30%", 10)[0], RolloutMath.fenceposts("30%", "30%", 10)[1]));
        assertEquals(List.of(0, 1), List.of(RolloutMath.fenceposts("0%", "10%", 5)[0], RolloutMath.fenceposts("0%", "10%", 5)[1]));
        assertEquals(List.of(3, 2), List.of(RolloutMath.fenceposts(3, 2, 10)[0], RolloutMath.fenceposts(3, 2, 10)[1]));
    }

    // ------------------------------------------------------------------ §1.5, §1.6: rollover and Recreate

    @Test
    @DisplayName("AC-DEP-19, DEP-33, DEP-34: a template change mid-rollout scales the unfinished ReplicaSet down at once; in the end new 5, old 0")
    void rollover() {
        cluster.autoReady = false;
        created(Workloads.nginxDeployment(5));
        cluster.settle();
        List<Pod> first = cluster.podsOf(cluster.replicaSetsOf(NAME).get(0).getMetadata().getName());
        for (int i = 0; i < 3; i++) {
            cluster.makeReady(first.get(i));
        }
        cluster.settle();
        setImage("nginx:1.16.1", null);
        cluster.step();
        cluster.step();
        ReplicaSet old = cluster.replicaSetsOf(NAME).get(0);
        assertTrue(spec(old) < 5, "the old ReplicaSet is scaled down before it ever reached 5 ready: " + spec(old));
        cluster.autoReady = true;
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(0, spec(rss.get(0)));
        assertEquals(5, spec(rss.get(1)));
        assertEquals(5, livePods().size());
    }

    @Test
    @DisplayName("AC-DEP-20, DEP-35: Recreate deletes every old pod first; no new pod exists while an old one is in the API")
    void recreate() {
        created(Workloads.recreate(Workloads.nginxDeployment(3)));
        cluster.settle();
        List<String> violations = new ArrayList<>();
        cluster.invariant(c -> {
            List<Pod> all = cluster.list(Pod.class);
            boolean anyOld = all.stream().anyMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("nginx:1.14.2"));
            boolean anyNew = all.stream().anyMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("nginx:1.16.1"));
            if (anyOld && anyNew) {
                violations.add("old and new pods at once");
            }
        });
        setImage("nginx:1.16.1", null);
        cluster.settle();
        assertEquals(List.of(), violations);
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(0, spec(rss.get(0)));
        assertEquals(3, spec(rss.get(1)));
        assertEquals(3, livePods().size());
        assertCondition("Progressing", "True", "NewReplicaSetAvailable");
    }

    // ------------------------------------------------------------------ §1.8: history

    @Test
    @DisplayName("AC-DEP-25, DEP-43: revisionHistoryLimit 0 deletes every old ReplicaSet once it is scaled to 0")
    void historyLimitZero() {
        Deployment d = Workloads.nginxDeployment(3);
        d.getSpec().setRevisionHistoryLimit(0);
        created(d);
        cluster.settle();
        setImage("nginx:1.16.1", null);
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(1, rss.size());
        assertEquals("nginx:1.16.1", image(rss.get(0)));
    }

    @Test
    @DisplayName("AC-DEP-26, DEP-12: after 12 template updates with the default limit, 10 old ReplicaSets are kept, the oldest deleted")
    void historyLimitDefault() {
        created(Workloads.nginxDeployment(1));
        cluster.settle();
        for (int i = 1; i <= 12; i++) {
            setImage("nginx:1." + i, null);
            cluster.settle();
        }
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(11, rss.size());
        assertEquals(List.of(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L), rss.stream().filter(rs -> spec(rs) == 0)
                .map(rs -> Long.parseLong(revision(rs))).sorted().toList());
        assertEquals("13", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
    }

    // ------------------------------------------------------------------ §1.9: pause

    @Test
    @DisplayName("AC-DEP-11, AC-DEP-12, DEP-45, DEP-46: template edits while paused make no ReplicaSet; resume rolls out both changes in one")
    void pauseAndResume() {
        created(Workloads.withStrategy(Workloads.nginxDeployment(3), 1, 1));
        cluster.settle();
        edit(s -> s.setPaused(true));
        cluster.settle();
        assertCondition("Progressing", "Unknown", "DeploymentPaused");
        setImage("nginx:1.16.1", null);
        cluster.settle();
        Deployment d = d();
        PodTemplateSpec t = PodTemplateSpec.newBuilder(d.getSpec().getTemplate()).build();
        t.getSpec().getContainers().get(0).setResources(ResourceRequirements.newBuilder()
                .setLimits(Map.of("cpu", "200m", "memory", "512Mi")).build());
        edit(s -> s.setTemplate(t));
        cluster.settle();
        assertEquals(1, cluster.replicaSetsOf(NAME).size());
        assertEquals("1", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
        edit(s -> s.setPaused(false));
        cluster.settle();
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(2, rss.size());
        assertEquals(List.of(0, 0, 0), List.of(spec(rss.get(0)), current(rss.get(0)), ready(rss.get(0))));
        assertEquals(List.of(3, 3, 3), List.of(spec(rss.get(1)), current(rss.get(1)), ready(rss.get(1))));
        var c = rss.get(1).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("nginx:1.16.1", c.getImage());
        assertEquals("200m", c.getResources().getLimits().get("cpu"));
        assertEquals("2", d().getMetadata().getAnnotations().get(DeploymentAnnotations.REVISION));
    }

    @Test
    @DisplayName("AC-DEP-12, D4: after resume with surge 1 / unavailable 1 and pods ready one by one, get rs -w shows the documented sequence")
    void resumeSequence() {
        created(Workloads.withStrategy(Workloads.nginxDeployment(3), 1, 1));
        cluster.settle();
        edit(s -> s.setPaused(true));
        setImage("nginx:1.16.1", null);
        cluster.settle();
        cluster.autoReady = false;
        edit(s -> s.setPaused(false));
        List<String> seen = new ArrayList<>();
        java.util.function.Supplier<String> state = () -> {
            List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
            StringBuilder b = new StringBuilder();
            for (ReplicaSet rs : rss) {
                b.append(spec(rs)).append(' ').append(current(rs)).append(' ').append(ready(rs)).append(" | ");
            }
            return b.toString();
        };
        for (int round = 0; round < 40; round++) {
            cluster.settle();
            String s = state.get();
            if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(s)) {
                seen.add(s);
            }
            List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
            if (rss.size() == 2 && ready(rss.get(1)) == 3) {
                break;
            }
            // the next new pod becomes ready
            cluster.podsOf(rss.get(rss.size() - 1).getMetadata().getName()).stream()
                    .filter(p -> !PodStates.isReady(p) && p.getSpec().getNodeName() != null).findFirst()
                    .ifPresent(cluster::makeReady);
        }
        List<ReplicaSet> rss = cluster.replicaSetsOf(NAME);
        assertEquals(List.of(0, 0, 0), List.of(spec(rss.get(0)), current(rss.get(0)), ready(rss.get(0))));
        assertEquals(List.of(3, 3, 3), List.of(spec(rss.get(1)), current(rss.get(1)), ready(rss.get(1))));
        // the first settled state after resume: old 2 2 2, new 2 2 0 (D4)
        assertEquals("2 2 2 | 2 2 0 | ", seen.get(0), seen.toString());
    }

    @Test
    @DisplayName("AC-DEP-14, DEP-47: a rollout paused for longer than progressDeadlineSeconds does not time out because of the pause")
    void pauseDoesNotTimeOut() {
        created(Workloads.nginxDeployment(3));
        cluster.settle();
        cluster.badImages.add("nginx:1.161");
        setImage("nginx:1.161", null);
        cluster.settle();
        edit(s -> s.setPaused(true));
        cluster.settle();
        cluster.clock.advance(Duration.ofSeconds(700));
        cluster.settle();
        assertCondition("Progressing", "Unknown", "DeploymentPaused");
        edit(s -> s.setPaused(false));
        cluster.settle();
        assertCondition("Progressing", "Unknown", "DeploymentResumed");
        cluster.clock.advance(Duration.ofSeconds(300));
        cluster.settle();
        assertFalse("ProgressDeadlineExceeded".equals(condition("Progressing").getReason()));
        cluster.clock.advance(Duration.ofSeconds(301));
        cluster.settle();
        assertCondition("Progressing", "False", "ProgressDeadlineExceeded");
    }

    // ------------------------------------------------------------------ §1.10: progress deadline, failures

    @Test
    @DisplayName("AC-DEP-15, AC-DEP-16, AC-DEP-17, DEP-53, DEP-54: a quota stops pod creation: ReplicaFailure, then ProgressDeadlineExceeded, then complete once lifted")
    void quotaAndDeadline() {
        // surge 1 / unavailable 1, so that the rollout makes some progress (an old pod goes) before it is stuck
        created(Workloads.withStrategy(Workloads.nginxDeployment(3), 1, 1));
        cluster.settle();
        cluster.podQuota = 2;
        edit(s -> s.setProgressDeadlineSeconds(600));
        setImage("nginx:1.16.1", null);
        cluster.settle();
        ReplicaSet fresh = cluster.replicaSetsOf(NAME).get(1);
        assertCondition("Available", "True", "MinimumReplicasAvailable");
        assertEquals("Deployment has minimum availability.", condition("Available").getMessage());
        assertCondition("Progressing", "True", "ReplicaSetUpdated");
        assertEquals("Replica set \"" + fresh.getMetadata().getName() + "\" is progressing.", condition("Progressing").getMessage());
        assertCondition("ReplicaFailure", "True", "FailedCreate");
        assertTrue(condition("ReplicaFailure").getMessage().startsWith(
                "Error creating: pods \"" + fresh.getMetadata().getName() + "-\" is forbidden: exceeded"),
                condition("ReplicaFailure").getMessage());
        cluster.clock.advance(Duration.ofSeconds(601));
        cluster.settle();
        assertCondition("Progressing", "False", "ProgressDeadlineExceeded");
        assertEquals("ReplicaSet \"" + fresh.getMetadata().getName() + "\" has timed out progressing.",
                condition("Progressing").getMessage());
        assertCondition("Available", "True", "MinimumReplicasAvailable");
        assertCondition("ReplicaFailure", "True", "FailedCreate");
        // no rollback or other action
        assertEquals(2, spec(cluster.replicaSetsOf(NAME).get(0)));
        assertEquals(2, spec(cluster.replicaSetsOf(NAME).get(1)));
        cluster.podQuota = -1;
        cluster.settle();
        assertCondition("Available", "True", "MinimumReplicasAvailable");
        assertCondition("Progressing", "True", "NewReplicaSetAvailable");
        assertNull(condition("ReplicaFailure"));
    }

    @Test
    @DisplayName("AC-DEP-22, AC-DEP-23, AC-DEP-24, AC-DEP-27: the writer rejects maxSurge=maxUnavailable=0, a changed selector, a deadline not above minReadySeconds, restartPolicy OnFailure")
    void validation() {
        assertEquals(422, cluster.create(Workloads.withStrategy(Workloads.nginxDeployment(3), 0, 0)).getCode());
        Deployment bad = Workloads.nginxDeployment(3);
        bad.getSpec().setProgressDeadlineSeconds(5);
        bad.getSpec().setMinReadySeconds(10);
        assertEquals(422, cluster.create(bad).getCode());
        Deployment onFailure = Workloads.nginxDeployment(3);
        onFailure.getSpec().getTemplate().getSpec().setRestartPolicy("OnFailure");
        assertEquals(422, cluster.create(onFailure).getCode());
        created(Workloads.nginxDeployment(3));
        Deployment d = d();
        var sel = io.eventplane.model.LabelSelector.newBuilder(d.getSpec().getSelector()).build();
        sel.setMatchLabels(Map.of("app", "nginx", "x", "y"));
        var t = PodTemplateSpec.newBuilder(d.getSpec().getTemplate()).build();
        t.getMetadata().setLabels(Map.of("app", "nginx", "x", "y"));
        assertEquals(422, cluster.update(Deployment.newBuilder(d).setSpec(DeploymentSpec.newBuilder(d.getSpec())
                .setSelector(sel).setTemplate(t).build()).build()).getCode());
    }

    @Test
    @DisplayName("DEP-16, DEP-20: an orphan ReplicaSet matching the selector is adopted (it gets the Deployment as controller)")
    void adoptsOrphanReplicaSet() {
        ReplicaSet orphan = Workloads.replicaSet("leftover", 0, Map.of("app", "nginx"), Map.of("app", "nginx"), "nginx:1.0");
        orphan.getMetadata().setLabels(Map.of("app", "nginx"));
        cluster.create(orphan);
        created(Workloads.nginxDeployment(2));
        cluster.settle();
        ReplicaSet adopted = cluster.get(ReplicaSet.class, "leftover");
        assertTrue(Owners.isControlledBy(adopted.getMetadata(), d().getMetadata().getUid()));
        assertEquals(2, cluster.replicaSetsOf(NAME).size());
        assertEquals(2, livePods().size());
    }
}
