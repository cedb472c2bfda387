package io.eventplane.controllers.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.Container;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.reconcile.Action;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RevisionsTest {
    private static final ObjectMeta OWNER = ObjectMeta.newBuilder().setName("web").setNamespace("default").setUid("u1").build();

    private static PodTemplateSpec template(String image) {
        return PodTemplateSpec.newBuilder().setMetadata(ObjectMeta.newBuilder().setLabels(Map.of("app", "web")).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("c").setImage(image)
                        .build())).build()).build();
    }

    private static ControllerRevision revision(String name, long number, OwnerReference owner, String image) {
        return ControllerRevision.newBuilder(Revisions.newRevision(Kinds.DAEMON_SET, OWNER, name, name,
                        Map.of("app", "web"), null, Revisions.templatePatch(template(image)), number))
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").setUid("uid-" + name)
                        .setLabels(Map.of("app", "web", Revisions.HASH_LABEL, name))
                        .setOwnerReferences(owner == null ? null : List.of(owner)).build())
                .build();
    }

    @Test
    @DisplayName("DS-16 a revision stores the template as a $patch: replace patch, names <owner>-<hash>, is "
            + "labelled with its hash and controlled by its owner")
    void newRevision() {
        String hash = Revisions.hash(template("nginx:1"), null);
        ControllerRevision r = Revisions.newRevision(Kinds.DAEMON_SET, OWNER, Revisions.name("web", hash), hash,
                Map.of("app", "web"), Map.of("note", "x"), Revisions.templatePatch(template("nginx:1")), 3);
        assertEquals("web-" + hash, r.getMetadata().getName());
        assertEquals(Map.of("app", "web", "controller-revision-hash", hash), r.getMetadata().getLabels());
        assertEquals("replace", r.getData().getSpec().getTemplate().getPatchDirective());
        assertEquals(template("nginx:1"), Revisions.template(r));
        assertTrue(Owners.isControlledBy(r.getMetadata(), "u1"));
        assertEquals(3L, r.getRevision());
        assertTrue(Revisions.matches(r, Revisions.templatePatch(template("nginx:1"))));
        assertFalse(Revisions.matches(r, Revisions.templatePatch(template("nginx:2"))));
        assertFalse(hash.equals(Revisions.hash(template("nginx:1"), 1)), "a collision count changes the hash");
        assertEquals(223 + 1 + 5, Revisions.name("x".repeat(300), "abcde").length());
    }

    @Test
    @DisplayName("DS-13 claiming: an orphan that matches is adopted, an owned one that stopped matching is released, "
            + "another owner's is left alone")
    void claim() {
        OwnerReference ours = Owners.controllerRef(Kinds.DAEMON_SET, OWNER);
        OwnerReference theirs = OwnerReference.newBuilder(ours).setUid("u2").setName("other").build();
        ControllerRevision orphan = revision("web-a", 1, null, "nginx:1");
        ControllerRevision owned = revision("web-b", 2, ours, "nginx:2");
        ControllerRevision relabelled = ControllerRevision.newBuilder(revision("web-c", 3, ours, "nginx:3"))
                .setMetadata(ObjectMeta.newBuilder(revision("web-c", 3, ours, "nginx:3").getMetadata())
                        .setLabels(Map.of("app", "other")).build()).build();
        ControllerRevision foreign = revision("web-d", 4, theirs, "nginx:4");
        Revisions.Claim claim = Revisions.claim(Kinds.DAEMON_SET, OWNER, labels -> "web".equals(labels.get("app")),
                List.of(orphan, owned, relabelled, foreign));
        assertEquals(List.of("web-a", "web-b"), claim.owned().stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(2, claim.actions().size());
        ControllerRevision adopted = (ControllerRevision) assertInstanceOf(Action.Update.class, claim.actions().get(0)).object();
        assertTrue(Owners.isControlledBy(adopted.getMetadata(), "u1"));
        ControllerRevision released = (ControllerRevision) assertInstanceOf(Action.Update.class, claim.actions().get(1)).object();
        assertEquals(null, released.getMetadata().getOwnerReferences());
    }

    @Test
    @DisplayName("DS-16 history beyond revisionHistoryLimit goes oldest first, except revisions a live pod still uses")
    void cleanup() {
        List<ControllerRevision> old = List.of(revision("web-c", 3, null, "c"), revision("web-a", 1, null, "a"),
                revision("web-b", 2, null, "b"), revision("web-d", 4, null, "d"));
        assertEquals(List.of("web-b", "web-c"), Revisions.toDelete(old, 2, Set.of("web-a")).stream()
                .map(r -> r.getMetadata().getName()).toList());
        assertEquals(List.of(), Revisions.toDelete(old, 4, Set.of()));
        assertEquals(4, Revisions.maxRevision(old));
    }
}
