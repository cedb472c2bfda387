package io.eventplane.controllers.statefulset;

import static io.eventplane.controllers.statefulset.StatefulSets.nginxService;
import static io.eventplane.controllers.statefulset.StatefulSets.web;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.Service;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetStatus;
import io.eventplane.model.Volume;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The StatefulSet controller in a simulated cluster: identity, storage and ordering (workloads.md §3.1-3.3). */
class StatefulSetControllerTest {
    private final SimulatedCluster cluster = StatefulSets.withStorage();
    private final PodTimeline timeline = PodTimeline.of(cluster, "web-");

    private StatefulSet set() {
        return cluster.get(StatefulSet.class, "web");
    }

    private Pod pod(String name) {
        return cluster.get(Pod.class, name);
    }

    /** The set's pods in ordinal order. */
    private List<String> podNames() {
        return cluster.podsOf("web").stream().sorted(Comparator.comparingInt(StatefulPods::ordinal))
                .map(p -> p.getMetadata().getName()).toList();
    }

    private List<String> claimNames() {
        return cluster.list(PersistentVolumeClaim.class).stream().map(c -> c.getMetadata().getName()).sorted().toList();
    }

    private void makeReady(String name) {
        cluster.makeReady(pod(name));
    }

    @Test
    @DisplayName("AC-STS-01 STS-03 STS-07 STS-08 STS-09 STS-11 STS-12 STS-15 STS-16 STS-X01 STS-X05 the seed's web "
            + "behind the headless Service nginx: web-0, web-1, web-2 created in order, each only once its predecessor "
            + "is Running and Ready; each with its pod-name and pod-index labels, hostname, subdomain, revision label "
            + "and the set as controller; one claim www-web-N each, mounted as www; a ControllerRevision; the status")
    void orderedCreation() {
        cluster.autoReady = false;
        assertTrue(cluster.create(nginxService("default")).getAccepted());
        assertTrue(cluster.create(web(3)).getAccepted());
        cluster.settle();
        assertEquals(List.of("web-0"), podNames(), "web-1 waits for web-0");
        makeReady("web-0");
        cluster.settle();
        assertEquals(List.of("web-0", "web-1"), podNames());
        makeReady("web-1");
        cluster.settle();
        assertEquals(List.of("web-0", "web-1", "web-2"), podNames());
        makeReady("web-2");
        cluster.settle();

        assertEquals(List.of("created web-0", "ready web-0", "created web-1", "ready web-1", "created web-2",
                "ready web-2"), timeline.only("created", "ready"));
        StatefulSet set = set();
        StatefulSetStatus s = set.getStatus();
        String revision = s.getUpdateRevision();
        assertTrue(revision.matches("web-[a-z0-9]+"), revision);
        for (int i = 0; i < 3; i++) {
            Pod p = pod("web-" + i);
            ObjectMeta m = p.getMetadata();
            assertEquals(Map.of("app", "nginx", "statefulset.kubernetes.io/pod-name", "web-" + i,
                    "apps.kubernetes.io/pod-index", Integer.toString(i), "controller-revision-hash", revision),
                    m.getLabels());
            assertEquals("web-", m.getGenerateName());
            assertEquals(List.of(Owners.controllerRef(Kinds.STATEFUL_SET, set.getMetadata())), m.getOwnerReferences());
            assertEquals("web-" + i, p.getSpec().getHostname(), "STS-X05");
            assertEquals("nginx", p.getSpec().getSubdomain(), "STS-X05");
            Volume www = p.getSpec().getVolumes().get(0);
            assertEquals("www", www.getName());
            assertEquals("www-web-" + i, www.getPersistentVolumeClaim().getClaimName());
            PersistentVolumeClaim claim = cluster.get(PersistentVolumeClaim.class, "www-web-" + i);
            assertEquals(Map.of("app", "nginx"), claim.getMetadata().getLabels());
            assertEquals("my-storage-class", claim.getSpec().getStorageClassName());
            assertEquals(List.of("ReadWriteOnce"), claim.getSpec().getAccessModes());
            assertEquals("1Gi", claim.getSpec().getResources().getRequests().get("storage"));
            assertNull(claim.getMetadata().getOwnerReferences(), "Retain/Retain: the claims belong to no one");
            assertEquals("Bound", claim.getStatus().getPhase());
        }
        assertEquals(List.of("www-web-0", "www-web-1", "www-web-2"), claimNames());

        List<ControllerRevision> revisions = cluster.list(ControllerRevision.class);
        assertEquals(1, revisions.size());
        ControllerRevision r = revisions.get(0);
        assertEquals(revision, r.getMetadata().getName());
        assertEquals("web-" + r.getMetadata().getLabels().get(Revisions.HASH_LABEL), revision);
        assertEquals(1L, r.getRevision());
        assertTrue(Owners.isControlledBy(r.getMetadata(), set.getMetadata().getUid()));
        assertEquals(set.getSpec().getTemplate(), Revisions.template(r));

        assertEquals(StatefulSetStatus.newBuilder().setObservedGeneration(set.getMetadata().getGeneration())
                .setReplicas(3).setReadyReplicas(3).setCurrentReplicas(3).setUpdatedReplicas(3).setAvailableReplicas(3)
                .setCurrentRevision(revision).setUpdateRevision(revision).setCollisionCount(0).build(), s);
        assertEquals(List.of("nginx"), cluster.list(Service.class).stream().map(x -> x.getMetadata().getName()).toList(),
                "STS-03 the user's headless Service; the controller makes none");
        assertEquals(new TreeSet<>(List.of("create Claim www-web-0 Pod web-0 in StatefulSet web success",
                "create Pod web-0 in StatefulSet web successful",
                "create Claim www-web-1 Pod web-1 in StatefulSet web success",
                "create Pod web-1 in StatefulSet web successful",
                "create Claim www-web-2 Pod web-2 in StatefulSet web success",
                "create Pod web-2 in StatefulSet web successful")),
                new TreeSet<>(cluster.eventsWithReason("SuccessfulCreate")));
    }

    @Test
    @DisplayName("AC-STS-02 STS-13 STS-16 web-0 fails after web-1 is Running and Ready, before web-2 is created: web-0 is "
            + "deleted and created again under its name with a new uid, and web-2 waits until it is Running and Ready")
    void failedPredecessorHoldsBackTheNext() {
        cluster.autoReady = false;
        cluster.create(web(3));
        cluster.settle();
        makeReady("web-0");
        cluster.settle();
        String firstUid = pod("web-0").getMetadata().getUid();
        makeReady("web-1");
        cluster.finish(pod("web-0"), "Failed");
        cluster.settle();

        assertEquals(List.of("web-0", "web-1"), podNames(), "web-2 waits");
        Pod again = pod("web-0");
        assertNotEquals(firstUid, again.getMetadata().getUid(), "a new pod under the same name");
        assertEquals("www-web-0", again.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
        assertTrue(timeline.indexOf("gone web-0") < timeline.lastIndexOf("created web-0"),
                "the old web-0 was gone before its replacement was created: " + timeline.entries);
        makeReady("web-0");
        cluster.settle();
        assertEquals(List.of("web-0", "web-1", "web-2"), podNames());
        assertTrue(timeline.lastIndexOf("ready web-0") < timeline.indexOf("created web-2"), timeline.entries.toString());
    }

    @Test
    @DisplayName("AC-STS-03 STS-12 STS-15 STS-17 web at 3 patched to replicas 1: web-2 is terminated first, web-1 only "
            + "once web-2 is gone; web-0 failing in between makes web-1 wait until web-0 is Running and Ready again; "
            + "the claims of web-1 and web-2 remain")
    void orderedScaleDown() {
        cluster.create(web(3));
        cluster.settle();
        assertEquals(3, set().getStatus().getReadyReplicas());
        boolean[] failed = {false};
        cluster.everyRound(c -> {
            if (!failed[0] && c.get(Pod.class, "web-2") == null) {
                failed[0] = true;
                c.finish(c.get(Pod.class, "web-0"), "Failed");
            }
        });
        timeline.entries.clear();
        cluster.update(StatefulSets.replicas(set(), 1));
        cluster.settle();

        assertEquals(List.of("web-0"), podNames());
        assertEquals(List.of("terminating web-2", "gone web-2", "failed web-0", "gone web-0",
                "created web-0", "ready web-0", "terminating web-1", "gone web-1"), timeline.entries);
        assertEquals(List.of("www-web-0", "www-web-1", "www-web-2"), claimNames(), "STS-12 claims stay");
        assertEquals(1, set().getStatus().getReplicas());
    }

    @Test
    @DisplayName("AC-STS-04 STS-10 STS-X05 the DNS names the pods' hostname and subdomain give: "
            + "web-N.nginx.<namespace>.svc.<cluster domain>, in default and foo, with cluster.local and kube.local")
    void dnsTable() {
        cluster.create(nginxService("default"));
        cluster.create(nginxService("foo"));
        cluster.create(web("default", 2));
        cluster.create(web("foo", 2));
        cluster.settle();
        Map<String, String> names = new HashMap<>();
        for (Pod p : cluster.list(Pod.class)) {
            names.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName() + "@cluster.local", dns(p, "cluster.local"));
            names.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName() + "@kube.local", dns(p, "kube.local"));
            assertEquals(p.getMetadata().getName(), p.getSpec().getHostname());
        }
        assertEquals("web-0.nginx.default.svc.cluster.local", names.get("default/web-0@cluster.local"));
        assertEquals("web-1.nginx.default.svc.cluster.local", names.get("default/web-1@cluster.local"));
        assertEquals("web-0.nginx.foo.svc.cluster.local", names.get("foo/web-0@cluster.local"));
        assertEquals("web-1.nginx.foo.svc.cluster.local", names.get("foo/web-1@cluster.local"));
        assertEquals("web-0.nginx.foo.svc.kube.local", names.get("foo/web-0@kube.local"));
        assertEquals("web-1.nginx.foo.svc.kube.local", names.get("foo/web-1@kube.local"));
    }

    /** A pod's DNS name as cluster DNS builds it: hostname.subdomain.namespace.svc.domain. */
    private static String dns(Pod p, String clusterDomain) {
        return p.getSpec().getHostname() + "." + p.getSpec().getSubdomain() + "." + p.getMetadata().getNamespace()
                + ".svc." + clusterDomain;
    }

    @Test
    @DisplayName("AC-STS-05 STS-18 Parallel: scaled from 0 to 3 all three are created in one step without waiting for "
            + "readiness; scaled back to 0 all three are terminated in one step without waiting")
    void parallelScaling() {
        cluster.autoReady = false;
        cluster.create(StatefulSets.parallel(web(0)));
        cluster.settle();
        assertEquals(List.of(), podNames());
        cluster.update(StatefulSets.replicas(set(), 3));
        cluster.step();
        assertEquals(List.of("web-0", "web-1", "web-2"), podNames(), "one step, none Ready");
        cluster.settle();
        assertTrue(cluster.podsOf("web").stream().noneMatch(PodStates::isReady));
        timeline.entries.clear();
        cluster.update(StatefulSets.replicas(set(), 0));
        cluster.step();
        assertEquals(List.of("terminating web-2", "terminating web-1", "terminating web-0"),
                timeline.entries.subList(0, 3), "all three at once: " + timeline.entries);
        cluster.settle();
        assertEquals(List.of(), podNames());
        assertEquals(3, claimNames().size(), "STS-12 the claims stay");
    }

    @Test
    @DisplayName("STS-07 STS-12 STS-13 W-P8 POD-12.14 POD-17.18 a deleted pod is replaced under the same name with a new uid, only once the "
            + "old one is completely gone (held here by a finalizer), and mounts the same claim")
    void replacementAfterTheOldPodIsGone() {
        cluster.create(web(3));
        cluster.settle();
        Pod old = pod("web-1");
        String claimUid = cluster.get(PersistentVolumeClaim.class, "www-web-1").getMetadata().getUid();
        cluster.update(Pod.newBuilder(old).setMetadata(ObjectMeta.newBuilder(old.getMetadata())
                .setFinalizers(List.of("example.com/hold")).build()).build());
        assertTrue(cluster.delete(Kinds.POD, "web-1").getAccepted());
        cluster.settle();
        Pod held = pod("web-1");
        assertEquals(old.getMetadata().getUid(), held.getMetadata().getUid(), "still the old pod, terminating");
        assertNotNull(held.getMetadata().getDeletionTimestamp());
        assertTrue(cluster.rejections.isEmpty(), "no create was even tried: " + cluster.rejections);

        cluster.update(Pod.newBuilder(held).setMetadata(ObjectMeta.newBuilder(held.getMetadata())
                .setFinalizers(List.of()).build()).build());
        cluster.settle();
        Pod replacement = pod("web-1");
        assertNotEquals(old.getMetadata().getUid(), replacement.getMetadata().getUid());
        assertTrue(PodStates.isReady(replacement));
        assertEquals("www-web-1", replacement.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
        assertEquals(claimUid, cluster.get(PersistentVolumeClaim.class, "www-web-1").getMetadata().getUid(),
                "the same claim, reused");
        assertEquals(List.of("www-web-0", "www-web-1", "www-web-2"), claimNames());
    }

    @Test
    @DisplayName("STS-06 a template with terminationGracePeriodSeconds 0 is accepted (not rejected): its pods are "
            + "created with grace 0 and run like any other")
    void zeroGracePeriodIsAccepted() {
        StatefulSet unsafe = StatefulSets.spec(web(2), s -> s.setTemplate(PodTemplateSpec.newBuilder(s.getTemplate())
                .setSpec(PodSpec.newBuilder(s.getTemplate().getSpec()).setTerminationGracePeriodSeconds(0L).build())
                .build()));
        assertTrue(cluster.create(unsafe).getAccepted());
        cluster.settle();
        assertEquals(List.of("web-0", "web-1"), podNames());
        assertEquals(0L, pod("web-1").getSpec().getTerminationGracePeriodSeconds());
        assertEquals(2, set().getStatus().getReadyReplicas());
    }

    @Test
    @DisplayName("STS-X02 ordinals.start 5: the pods are web-5, web-6, web-7 with pod-index 5 to 7 and claims "
            + "www-web-5 to www-web-7; scaled to 2, web-7 goes")
    void startOrdinal() {
        cluster.create(StatefulSets.startAt(web(3), 5));
        cluster.settle();
        assertEquals(List.of("web-5", "web-6", "web-7"), podNames());
        assertEquals("6", pod("web-6").getMetadata().getLabels().get("apps.kubernetes.io/pod-index"));
        assertEquals(List.of("www-web-5", "www-web-6", "www-web-7"), claimNames());
        cluster.update(StatefulSets.replicas(set(), 2));
        cluster.settle();
        assertEquals(List.of("web-5", "web-6"), podNames());
        cluster.update(StatefulSets.startAt(set(), 0));
        cluster.settle();
        assertEquals(List.of("web-0", "web-1"), podNames(), "a new start moves the range; the old pods are condemned");
    }

    @Test
    @DisplayName("STS-19 AC-STS-12 a StatefulSet being deleted (foreground): the controller neither deletes nor creates "
            + "pods, in any order; it only keeps the status; the claims remain")
    void deletionOrdersNothing() {
        cluster.create(web(3));
        cluster.settle();
        List<String> uids = cluster.podsOf("web").stream().map(p -> p.getMetadata().getUid()).sorted().toList();
        assertTrue(cluster.delete(Kinds.STATEFUL_SET, "web", "Foreground").getAccepted());
        cluster.finish(pod("web-0"), "Failed");
        cluster.settle();
        assertNotNull(set().getMetadata().getDeletionTimestamp());
        assertEquals(uids, cluster.podsOf("web").stream().map(p -> p.getMetadata().getUid()).sorted().toList(),
                "a failed pod of a set being deleted is not replaced; the garbage collector deletes the pods");
        assertEquals(2, set().getStatus().getReadyReplicas());
        assertEquals(3, claimNames().size());
    }

    @Test
    @DisplayName("STS-X04 minReadySeconds 10: web-1 is created only once web-0 has been Ready for 10 s; "
            + "availableReplicas counts pods Ready for that long")
    void minReadySeconds() {
        cluster.create(StatefulSets.spec(web(2), s -> s.setMinReadySeconds(10)));
        Instant start = cluster.clock.instant();
        cluster.runUntil(start.plusSeconds(60));
        Instant web0Ready = PodStates.readySince(pod("web-0")).orElseThrow();
        Instant web1Created = pod("web-1").getMetadata().getCreationTimestamp();
        assertTrue(!web1Created.isBefore(web0Ready.plusSeconds(10)), web0Ready + " -> " + web1Created);
        assertTrue(Duration.between(web0Ready, web1Created).getSeconds() <= 12, "woken when web-0 became available");
        assertEquals(2, set().getStatus().getAvailableReplicas());
    }

    @Test
    @DisplayName("STS-07 STS-11 an orphan pod named web-0 that the selector matches is adopted (same uid), given "
            + "its identity labels and its claim, and (OnDelete) not replaced")
    void adoption() {
        Pod orphan = KubeObjects.pod("web-0").labels(new HashMap<>(StatefulSets.LABELS))
                .containers(KubeObjects.container("nginx").image(StatefulSets.IMAGE)).build();
        assertTrue(cluster.create(orphan).getAccepted());
        cluster.settle();
        String uid = pod("web-0").getMetadata().getUid();
        cluster.create(StatefulSets.onDelete(web(1)));
        cluster.settle();
        Pod adopted = pod("web-0");
        assertEquals(uid, adopted.getMetadata().getUid());
        assertTrue(Owners.isControlledBy(adopted.getMetadata(), set().getMetadata().getUid()));
        assertEquals("web-0", adopted.getMetadata().getLabels().get("statefulset.kubernetes.io/pod-name"));
        assertEquals(List.of("www-web-0"), claimNames());
        assertEquals(List.of("update Pod web-0 in StatefulSet web successful"), cluster.eventsWithReason("SuccessfulUpdate"));
        assertEquals(new ArrayList<>(), cluster.eventsWithReason("SuccessfulDelete"));
    }
}
