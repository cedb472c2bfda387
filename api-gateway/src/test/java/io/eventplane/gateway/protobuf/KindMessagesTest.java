package io.eventplane.gateway.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Pod;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class KindMessagesTest {
    /**
     * The served kinds of kube-apiserver's own groups: apiextensions.k8s.io is apiextensions-apiserver's, whose messages
     * client-java-proto does not carry (kubectl sends CustomResourceDefinitions as JSON).
     */
    private static List<KindInfo> inArtifact() {
        return Kinds.served().stream().filter(k -> !k.group().equals("apiextensions.k8s.io")).toList();
    }

    @Test
    @DisplayName("every served kind has its message in client-java-proto, named by kind in its group's proto package")
    void everyServedKind() {
        for (KindInfo kind : inArtifact()) {
            Descriptor d = KindMessages.of(kind).orElseThrow(() -> new AssertionError("no message for " + kind));
            String group = kind.group().isEmpty() ? "core" : kind.group().split("\\.")[0];
            assertEquals("k8s.io.api." + group + "." + kind.version() + "." + kind.kind(), d.getFullName());
        }
    }

    @Test
    @DisplayName("a kind the artifact lacks (custom group, unknown version or kind) has no message")
    void unknownKinds() {
        for (KindInfo kind : List.of(
                new KindInfo("Widget", "example.com", "v1", "widgets", "widget", List.of(), true, false, Pod.class),
                new KindInfo("Deployment", "apps", "v9", "deployments", "deployment", List.of(), true, true, Pod.class),
                new KindInfo("Gadget", "", "v1", "gadgets", "gadget", List.of(), true, false, Pod.class))) {
            assertTrue(KindMessages.of(kind).isEmpty(), kind.toString());
        }
    }

    @Test
    @DisplayName("proto field names are the JSON names in every served kind's messages, and ZERO_IS_SET names real fields")
    void fieldNames() {
        Set<String> fields = new HashSet<>();
        Set<Descriptor> seen = new HashSet<>();
        ArrayDeque<Descriptor> todo = new ArrayDeque<>();
        inArtifact().forEach(k -> todo.add(KindMessages.of(k).orElseThrow()));
        while (!todo.isEmpty()) {
            Descriptor d = todo.poll();
            if (!seen.add(d)) {
                continue;
            }
            for (FieldDescriptor f : d.getFields()) {
                assertEquals(f.getJsonName(), f.getName(), f.getFullName());
                fields.add(f.getFullName());
                if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                    todo.add(f.getMessageType());
                }
            }
        }
        Set<String> missing = new HashSet<>(ProtobufJson.ZERO_IS_SET);
        missing.removeAll(fields);
        assertEquals(Set.of(), missing);
    }
}
