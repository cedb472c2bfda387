package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * What the writer fills in on a pod that reaches it without the API's admission (a controller's pod): the
 * ServiceAccount plugin's default name, the Priority plugin's answer without a class; and what an update keeps.
 */
class PodCreationDefaultsTest {
    private final Decisions decisions = new Decisions();

    /** A manifest in YAML flow style, decoded as the API decodes it. */
    private static <T extends org.apache.avro.specific.SpecificRecord> T parse(Class<T> type, String yaml) {
        try {
            return Decisions.parse(type, new com.fasterxml.jackson.databind.ObjectMapper()
                    .writeValueAsString(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Pod pod(String specExtra) {
        return parse(Pod.class, "{apiVersion: v1, kind: Pod, metadata: {name: web, namespace: default}, "
                + "spec: {" + specExtra + "containers: [{name: c, image: nginx}]}}");
    }

    @ParameterizedTest(name = "given \"{0}\": serviceAccountName {1}")
    @CsvSource(delimiter = '|', value = {
            "|default",
            "serviceAccountName: build, |build",
            "serviceAccount: legacy, |legacy",
            "serviceAccountName: build, serviceAccount: legacy, |build"})
    @DisplayName("the pod's service account: the given name, else the deprecated field, else default; both fields agree")
    void serviceAccount(String given, String expected) {
        PodSpec spec = decisions.created(pod(given == null ? "" : given)).getSpec();
        assertEquals(expected, spec.getServiceAccountName());
        assertEquals(expected, spec.getServiceAccount());
    }

    @Test
    @DisplayName("without a resolved class a pod gets priority 0 and PreemptLowerPriority; an update that leaves them out keeps them")
    void priority() {
        ObjectChanged created = decisions.createdChange(pod("priority: 1000, preemptionPolicy: Never, "));
        Pod stored = (Pod) created.getObject();
        Pod edited = Pod.newBuilder(stored).setSpec(PodSpec.newBuilder(stored.getSpec()).setPriority(null)
                .setPreemptionPolicy(null).setServiceAccount(null).build()).build();
        Decision update = decisions.update(created, edited);
        assertTrue(update.outcome().getAccepted(), () -> update.outcome().getMessage());
        assertTrue(update.change().isEmpty(), "the update changes nothing: priority, policy and the mirrored field stay");
        Pod labelled = Pod.newBuilder(edited).setMetadata(io.eventplane.model.ObjectMeta.newBuilder(edited.getMetadata())
                .setLabels(java.util.Map.of("a", "b")).build()).build();
        Pod updated = decisions.updated(created, labelled);
        assertEquals(1000, updated.getSpec().getPriority());
        assertEquals("Never", updated.getSpec().getPreemptionPolicy());
        assertEquals("default", updated.getSpec().getServiceAccount());

        PodSpec plain = decisions.created(Pod.newBuilder(pod("")).build()).getSpec();
        assertEquals(0, plain.getPriority());
        assertEquals("PreemptLowerPriority", plain.getPreemptionPolicy());
        assertTrue(plain.getTolerations().size() >= 2, "DefaultTolerationSeconds still applies");
    }
}
