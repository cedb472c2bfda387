package io.eventplane.controllers.rootcacertpublisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.client.pki.ClusterPki;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RootCaCertPublisherTest {
    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private static final String CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    private static final String KEY = "Namespace//team-a";
    private final RootCaCertPublisher publisher = new RootCaCertPublisher(CA);

    private static Namespace namespace(String phase) {
        return Namespace.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("team-a").build())
                .setStatus(NamespaceStatus.newBuilder().setPhase(phase).build()).build();
    }

    private static ConfigMap configMap(Map<String, String> data, Map<String, String> annotations) {
        return ConfigMap.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("kube-root-ca.crt")
                .setNamespace("team-a").setAnnotations(annotations).setResourceVersion("2").build())
                .setData(data).build();
    }

    private static final Map<String, String> DESCRIBED =
            Map.of(RootCaCertPublisher.DESCRIPTION, RootCaCertPublisher.DESCRIPTION_TEXT);

    /** The one action taken on the namespace, or null for none. */
    private Action decide(Namespace ns, ConfigMap cm) {
        List<SpecificRecord> objects = new ArrayList<>(List.of(ns));
        if (cm != null) {
            objects.add(cm);
        }
        Reconciliation r = publisher.reconcile(KEY, ObjectStore.of(objects), NOW, null);
        assertTrue(r.actions().size() <= 1, r.actions().toString());
        return r.actions().isEmpty() ? null : r.actions().get(0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a new namespace gets the ConfigMap                       | Active      | none     | create",
            "the ConfigMap as published is left alone                 | Active      | correct  | nothing",
            "a changed ca.crt is put back                             | Active      | changed  | update",
            "an extra key goes                                        | Active      | extra    | update",
            "a missing description annotation comes back              | Active      | bare     | update",
            "a terminating namespace gets nothing new                 | Terminating | none     | nothing",
    })
    @DisplayName("issue 23: root-ca-cert-publisher keeps kube-root-ca.crt in every active namespace")
    void publishes(String why, String phase, String existing, String expected) {
        ConfigMap cm = switch (existing) {
            case "correct" -> configMap(Map.of("ca.crt", CA), DESCRIBED);
            case "changed" -> configMap(Map.of("ca.crt", "forged"), DESCRIBED);
            case "extra" -> configMap(Map.of("ca.crt", CA, "other", "x"), DESCRIBED);
            case "bare" -> configMap(Map.of("ca.crt", CA), Map.of("team", "a"));
            default -> null;
        };
        Action action = decide(namespace(phase), cm);
        switch (expected) {
            case "nothing" -> assertEquals(null, action, why);
            case "create" -> {
                ConfigMap created = (ConfigMap) ((Action.Create) action).object();
                assertEquals("kube-root-ca.crt", created.getMetadata().getName());
                assertEquals("team-a", created.getMetadata().getNamespace());
                assertEquals(Map.of("ca.crt", CA), created.getData());
                assertEquals(DESCRIBED, created.getMetadata().getAnnotations());
            }
            default -> {
                ConfigMap updated = (ConfigMap) ((Action.Update) action).object();
                assertEquals(Map.of("ca.crt", CA), updated.getData(), why);
                assertEquals(RootCaCertPublisher.DESCRIPTION_TEXT,
                        updated.getMetadata().getAnnotations().get(RootCaCertPublisher.DESCRIPTION), why);
                assertEquals("2", updated.getMetadata().getResourceVersion(), "an update at the version it read");
                if (existing.equals("bare")) {
                    assertEquals("a", updated.getMetadata().getAnnotations().get("team"), "other annotations kept");
                }
            }
        }
    }

    @Test
    @DisplayName("issue 23: a namespace, or a change to or deletion of its kube-root-ca.crt, wakes that namespace")
    void keys() {
        ObjectStore view = ObjectStore.of(List.of(namespace("Active"), configMap(Map.of("ca.crt", CA), DESCRIBED)));
        ObjectChanged cm = view.get("ConfigMap/team-a/kube-root-ca.crt").orElseThrow();
        ObjectChanged deleted = ObjectChanged.newBuilder(cm).setType(ChangeType.DELETED).build();
        ObjectChanged other = ObjectChanged.newBuilder(cm).setName("settings").build();
        assertEquals(List.of(KEY), List.copyOf(publisher.keysFor(deleted, cm, view)));
        assertEquals(List.of(KEY), List.copyOf(publisher.keysFor(cm, null, view)));
        assertEquals(List.of(KEY), List.copyOf(publisher.keysFor(view.get(KEY).orElseThrow(), null, view)));
        assertTrue(publisher.keysFor(other, null, view).isEmpty(), "other ConfigMaps are not its business");
    }

    @Test
    @DisplayName("issue 23: without a cluster CA nothing is published; with one, its ca.crt is what is published")
    void caFromTheSigningDirectory(@TempDir Path dir) throws java.io.IOException {
        RootCaCertPublisher none = new RootCaCertPublisher(null);
        ObjectStore view = ObjectStore.of(List.of(namespace("Active")));
        assertTrue(none.reconcile(KEY, view, NOW, null).actions().isEmpty());
        assertTrue(none.keysFor(view.get(KEY).orElseThrow(), null, view).isEmpty());
        assertTrue(RootCaCertPublisher.caCertificate("").isEmpty());
        assertTrue(RootCaCertPublisher.caCertificate(dir.resolve("missing").toString()).isEmpty());

        ClusterPki pki = ClusterPki.loadOrCreate(dir.resolve("pki"), List.of());
        assertEquals(java.nio.file.Files.readString(pki.directory().resolve("ca.crt")),
                RootCaCertPublisher.caCertificate(pki.directory().toString()).orElseThrow());
    }
}
