package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceSpec;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PriorityClass;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The writer's Namespace lifecycle (Kubernetes' namespace registry) and the PriorityClasses nobody may delete. */
class NamespaceDeciderTest {
    private final ObjectDecider decider = new ObjectDecider(RulesRegistry.standard());
    private final Decisions decisions = new Decisions();
    private long position = 9000;

    /** A manifest in YAML flow style, decoded as the API decodes it. */
    private static <T extends org.apache.avro.specific.SpecificRecord> T parse(Class<T> type, String yaml) {
        try {
            return Decisions.parse(type, new com.fasterxml.jackson.databind.ObjectMapper()
                    .writeValueAsString(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Namespace namespace(String name) {
        return parse(Namespace.class, "{apiVersion: v1, kind: Namespace, metadata: {name: " + name + "}}");
    }

    private Decision send(Verb verb, ObjectChanged current, SpecificRecord object, String subresource, String policy) {
        String kind = current == null ? io.eventplane.core.kinds.Kinds.of(object).kind() : current.getKind();
        String name = current == null ? ObjectAccess.meta(object).getName() : current.getName();
        Command c = Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r-" + position)
                        .setTime(Decisions.T0.plusSeconds(5)).build())
                .setVerb(verb).setKind(kind).setNamespace("").setName(name).setPreconditions(new Preconditions())
                .setObject(object).setSubresource(subresource)
                .setDeleteOptions(verb == Verb.DELETE ? DeleteOptions.newBuilder().setPropagationPolicy(policy).build() : null)
                .build();
        return decider.decide(c, current, ++position);
    }

    private ObjectChanged accepted(Decision d) {
        assertTrue(d.outcome().getAccepted(), () -> d.outcome().getMessage());
        return d.change().orElseThrow();
    }

    private static Namespace ns(ObjectChanged c) {
        return (Namespace) c.getObject();
    }

    private static Namespace withFinalizers(Namespace ns, List<String> finalizers) {
        return Namespace.newBuilder(ns).setSpec(NamespaceSpec.newBuilder().setFinalizers(finalizers).build()).build();
    }

    @Test
    @DisplayName("a namespace is created Active, labelled with its name, always with the kubernetes finalizer")
    void created() {
        Namespace given = withFinalizers(namespace("shop"), List.of("example.com/audit"));
        Namespace stored = ns(accepted(decisions.create(given)));
        assertEquals("Active", stored.getStatus().getPhase());
        assertEquals(List.of("example.com/audit", "kubernetes"), stored.getSpec().getFinalizers());
        assertEquals("shop", stored.getMetadata().getLabels().get("kubernetes.io/metadata.name"));
    }

    @Test
    @DisplayName("a delete marks the namespace Terminating and keeps it while spec.finalizers hold it; a second delete is a Conflict")
    void deleteMarksTerminating() {
        ObjectChanged created = accepted(decisions.create(namespace("shop")));
        ObjectChanged deleting = accepted(send(Verb.DELETE, created, null, null, "Background"));
        assertEquals(ChangeType.DELETION_STARTED, deleting.getType());
        assertEquals("Terminating", ns(deleting).getStatus().getPhase());
        assertEquals(Decisions.T0.plusSeconds(5).truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                ns(deleting).getMetadata().getDeletionTimestamp());
        assertEquals(List.of("kubernetes"), ns(deleting).getSpec().getFinalizers());

        Decision again = send(Verb.DELETE, deleting, null, null, null);
        assertFalse(again.outcome().getAccepted());
        assertEquals(409, again.outcome().getCode());
        assertEquals("Conflict", again.outcome().getReason());
        assertEquals("Operation cannot be fulfilled on namespaces \"shop\": The system is ensuring all content is removed "
                + "from this namespace.  Upon completion, this namespace will automatically be purged by the system.",
                again.outcome().getMessage());
    }

    @Test
    @DisplayName("an update keeps spec.finalizers; only the finalize subresource changes them, and the last one removes the namespace")
    void finalizeRemoves() {
        ObjectChanged created = accepted(decisions.create(namespace("shop")));
        Namespace edited = withFinalizers(ns(created), List.of());
        Decision update = send(Verb.UPDATE, created, edited, null, null);
        assertTrue(update.outcome().getAccepted());
        assertTrue(update.change().isEmpty(), "a plain update cannot drop the kubernetes finalizer: nothing changes");

        ObjectChanged deleting = accepted(send(Verb.DELETE, created, null, null, "Background"));
        ObjectChanged finalized = accepted(send(Verb.UPDATE, deleting, withFinalizers(ns(deleting), List.of()),
                ObjectDecider.FINALIZE, null));
        assertEquals(ChangeType.DELETED, finalized.getType());
    }

    @Test
    @DisplayName("finalize on a live namespace changes only spec.finalizers; an orphan finalizer keeps a finalized namespace")
    void finalizeOnly() {
        ObjectChanged created = accepted(decisions.create(namespace("shop")));
        Namespace labelled = Namespace.newBuilder(withFinalizers(ns(created), List.of("example.com/x")))
                .setMetadata(ObjectMeta.newBuilder(ns(created).getMetadata()).setLabels(java.util.Map.of("a", "b")).build())
                .build();
        ObjectChanged finalized = accepted(send(Verb.UPDATE, created, labelled, ObjectDecider.FINALIZE, null));
        assertEquals(ChangeType.UPDATED, finalized.getType());
        assertEquals(List.of("example.com/x"), ns(finalized).getSpec().getFinalizers());
        assertEquals(ns(created).getMetadata().getLabels(), ns(finalized).getMetadata().getLabels());

        ObjectChanged orphaning = accepted(send(Verb.DELETE, finalized, null, null, "Orphan"));
        assertEquals(List.of("orphan"), ns(orphaning).getMetadata().getFinalizers());
        ObjectChanged emptied = accepted(send(Verb.UPDATE, orphaning, withFinalizers(ns(orphaning), List.of()),
                ObjectDecider.FINALIZE, null));
        assertEquals(ChangeType.UPDATED, emptied.getType(), "the orphan finalizer still holds it");
    }

    @Test
    @DisplayName("spec.finalizers must be standard or fully qualified names")
    void finalizerNames() {
        Decision d = decisions.create(withFinalizers(namespace("shop"), List.of("audit")));
        assertEquals(List.of("spec.finalizers: Invalid value: \"audit\": name is neither a standard finalizer name nor "
                + "is it fully qualified"), Decisions.rejected(d));
    }

    @Test
    @DisplayName("the system PriorityClasses cannot be deleted (403, Kubernetes' message); others can")
    void systemPriorityClasses() {
        for (PriorityClass pc : SystemPriorityClasses.all()) {
            ObjectChanged created = accepted(decisions.create(pc));
            Decision d = send(Verb.DELETE, created, null, null, null);
            assertEquals(403, d.outcome().getCode());
            assertEquals("Forbidden", d.outcome().getReason());
            assertEquals("priorityclasses.scheduling.k8s.io \"" + pc.getMetadata().getName()
                    + "\" is forbidden: this is a system priority class and cannot be deleted", d.outcome().getMessage());
        }
        PriorityClass high = parse(PriorityClass.class,
                "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: high}, value: 1000}");
        ObjectChanged created = accepted(decisions.create(high));
        assertEquals(ChangeType.DELETED, accepted(send(Verb.DELETE, created, null, null, null)).getType());
    }
}
