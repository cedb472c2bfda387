package io.eventplane.controllers.history;

import io.eventplane.controllers.Hashes;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ControllerRevisionData;
import io.eventplane.model.ControllerRevisionSpecPatch;
import io.eventplane.model.ControllerRevisionTemplate;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.reconcile.Action;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.generic.GenericRecord;

/**
 * The revision history StatefulSet and DaemonSet controllers keep in apps/v1 ControllerRevisions (Kubernetes'
 * pkg/controller/history): each revision stores a patch that restores the owner's pod template
 * ({@code {"spec":{"template":{..., "$patch":"replace"}}}}, what {@code kubectl rollout undo} applies), is named
 * {@code <owner>-<hash>} (the hash of its content, with the owner's collision count mixed in after a name collision),
 * carries the label {@code controller-revision-hash} and a revision number, and the oldest unused ones are deleted
 * beyond the owner's revisionHistoryLimit. Pure.
 */
public final class Revisions {
    public static final String HASH_LABEL = "controller-revision-hash";
    /** Kubernetes truncates a revision's name prefix so that the name stays a valid DNS subdomain. */
    private static final int MAX_PREFIX = 223;
    private static final String REPLACE = "replace";

    private Revisions() {
    }

    /** Kubernetes' ControllerRevisionName: {@code <prefix>-<hash>}. */
    public static String name(String prefix, String hash) {
        String p = prefix.length() > MAX_PREFIX ? prefix.substring(0, MAX_PREFIX) : prefix;
        return p + "-" + hash;
    }

    /** The hash of a revision's content (a DaemonSet hashes its template), with the collision count mixed in. */
    public static String hash(GenericRecord content, Integer collisionCount) {
        return Hashes.templateHash(content, collisionCount);
    }

    /** The data a revision of {@code template} stores: a strategic-merge patch that replaces spec.template. */
    public static ControllerRevisionData templatePatch(PodTemplateSpec template) {
        ControllerRevisionTemplate t = ControllerRevisionTemplate.newBuilder()
                .setMetadata(template == null || template.getMetadata() == null ? null
                        : ObjectMeta.newBuilder(template.getMetadata()).build())
                .setSpec(template == null || template.getSpec() == null ? null
                        : io.eventplane.model.PodSpec.newBuilder(template.getSpec()).build())
                .setPatchDirective(REPLACE)
                .build();
        return ControllerRevisionData.newBuilder()
                .setSpec(ControllerRevisionSpecPatch.newBuilder().setTemplate(t).build()).build();
    }

    /** Whether the revision stores exactly {@code data} (compared as canonical text, as Kubernetes compares bytes). */
    public static boolean matches(ControllerRevision revision, ControllerRevisionData data) {
        return revision.getData() != null && Hashes.canonical(revision.getData()).equals(Hashes.canonical(data));
    }

    /** The pod template a revision restores, or null when it stores none. */
    public static PodTemplateSpec template(ControllerRevision revision) {
        ControllerRevisionData d = revision.getData();
        if (d == null || d.getSpec() == null || d.getSpec().getTemplate() == null) {
            return null;
        }
        ControllerRevisionTemplate t = d.getSpec().getTemplate();
        return PodTemplateSpec.newBuilder().setMetadata(t.getMetadata()).setSpec(t.getSpec()).build();
    }

    /**
     * A new revision controlled by {@code owner}.
     *
     * @param labels      the owner's template labels; the hash label is added
     * @param annotations the owner's annotations (a DaemonSet's revisions carry them, change-cause included)
     */
    public static ControllerRevision newRevision(KindInfo ownerKind, ObjectMeta owner, String name, String hashLabel,
                                                 Map<String, String> labels, Map<String, String> annotations,
                                                 ControllerRevisionData data, long revision) {
        Map<String, String> l = labels == null ? new HashMap<>() : new HashMap<>(labels);
        l.put(HASH_LABEL, hashLabel);
        ObjectMeta meta = ObjectMeta.newBuilder().setName(name).setNamespace(owner.getNamespace()).setLabels(l)
                .setAnnotations(annotations == null || annotations.isEmpty() ? null : new HashMap<>(annotations))
                .setOwnerReferences(List.of(Owners.controllerRef(ownerKind, owner))).build();
        return ControllerRevision.newBuilder().setMetadata(meta).setData(data).setRevision(revision).build();
    }

    /** The highest revision number among {@code revisions}, 0 when there are none. */
    public static long maxRevision(Collection<ControllerRevision> revisions) {
        long max = 0;
        for (ControllerRevision r : revisions) {
            max = Math.max(max, number(r));
        }
        return max;
    }

    public static long number(ControllerRevision r) {
        return r.getRevision() == null ? 0 : r.getRevision();
    }

    /** Oldest first: by revision number, then name. */
    public static final Comparator<ControllerRevision> BY_REVISION = Comparator.comparingLong(Revisions::number)
            .thenComparing(r -> r.getMetadata().getName());

    /** The revisions an owner controls after claiming, and the updates that adopt or release the others. */
    public record Claim(List<ControllerRevision> owned, List<Action> actions) {
    }

    /**
     * Kubernetes' ClaimControllerRevisions: a revision controlled by the owner stays its own while its labels match the
     * selector and is released otherwise; an orphan that matches is adopted, unless the owner is being deleted. An
     * adopted revision counts as owned at once (its update is on its way).
     */
    public static Claim claim(KindInfo ownerKind, ObjectMeta owner, Predicate<Map<String, String>> selector,
                              Collection<ControllerRevision> revisions) {
        List<ControllerRevision> owned = new ArrayList<>();
        List<Action> actions = new ArrayList<>();
        OwnerReference ref = Owners.controllerRef(ownerKind, owner);
        boolean deleting = owner.getDeletionTimestamp() != null;
        for (ControllerRevision r : revisions) {
            ObjectMeta meta = r.getMetadata();
            boolean matches = selector.test(meta.getLabels() == null ? Map.of() : meta.getLabels());
            Optional<OwnerReference> controller = Owners.controllerOf(meta);
            if (controller.isPresent()) {
                if (!owner.getUid().equals(controller.get().getUid())) {
                    continue;
                }
                if (matches) {
                    owned.add(r);
                } else if (!deleting) {
                    actions.add(new Action.Update(ControllerRevision.newBuilder(r)
                            .setMetadata(Owners.release(meta, owner.getUid())).build()));
                }
            } else if (matches && !deleting && meta.getDeletionTimestamp() == null) {
                ControllerRevision adopted = ControllerRevision.newBuilder(r).setMetadata(Owners.adopt(meta, ref)).build();
                actions.add(new Action.Update(adopted));
                owned.add(adopted);
            }
        }
        return new Claim(owned, actions);
    }

    /**
     * The old revisions to delete so that at most {@code limit} remain: oldest first, never one whose hash label a live
     * pod still carries ({@code liveHashes}).
     */
    public static List<ControllerRevision> toDelete(Collection<ControllerRevision> old, int limit, Set<String> liveHashes) {
        int excess = old.size() - Math.max(0, limit);
        List<ControllerRevision> out = new ArrayList<>();
        if (excess <= 0) {
            return out;
        }
        for (ControllerRevision r : old.stream().sorted(BY_REVISION).toList()) {
            if (out.size() >= excess) {
                break;
            }
            String hash = r.getMetadata().getLabels() == null ? null : r.getMetadata().getLabels().get(HASH_LABEL);
            if (hash != null && liveHashes.contains(hash)) {
                continue;
            }
            out.add(r);
        }
        return out;
    }

    /**
     * The oldest of {@code history} beyond the newest {@code limit}: a StatefulSet's truncateHistory, whose history is
     * already without the live revisions (the current, the update and those its pods carry).
     */
    public static List<ControllerRevision> beyondLimit(Collection<ControllerRevision> history, int limit) {
        List<ControllerRevision> sorted = history.stream().sorted(BY_REVISION).toList();
        int excess = sorted.size() - Math.max(0, limit);
        return excess <= 0 ? List.of() : sorted.subList(0, excess);
    }

    /** A delete of the revision with its uid (never of a namesake created since). */
    public static Action delete(ControllerRevision r) {
        ObjectMeta m = r.getMetadata();
        return new Action.Delete(Kinds.CONTROLLER_REVISION, m.getNamespace(), m.getName(), m.getUid(), null, null);
    }
}
