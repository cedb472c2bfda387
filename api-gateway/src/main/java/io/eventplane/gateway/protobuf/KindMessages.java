package io.eventplane.gateway.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.eventplane.core.kinds.KindInfo;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The protobuf message of a served kind, from io.kubernetes:client-java-proto, found by group, version and kind alone.
 *
 * <p>The artifact compiles each API group's generated.proto into one outer class named by version and the group's
 * first label: core v1 is {@code V1}, apps/v1 {@code V1Apps}, batch/v1 {@code V1Batch}, coordination.k8s.io/v1
 * {@code V1Coordination}, events.k8s.io/v1 {@code V1Events}, scheduling.k8s.io/v1 {@code V1Scheduling}; the kind is
 * the message's name in it. The file's proto package ({@code k8s.io.api.<group>.<version>}) confirms the match, so a
 * kind that the artifact lacks (a newer or custom one) has no message rather than a wrong one.
 */
public final class KindMessages {
    private static final String PACKAGE = "io.kubernetes.client.proto.";
    private static final Map<KindInfo, Optional<Descriptor>> CACHE = new ConcurrentHashMap<>();

    private KindMessages() {
    }

    /** The message that carries {@code kind} on the wire, or empty when the artifact has none. */
    public static Optional<Descriptor> of(KindInfo kind) {
        return CACHE.computeIfAbsent(kind, KindMessages::find);
    }

    private static Optional<Descriptor> find(KindInfo kind) {
        String group = kind.group().isEmpty() ? "" : kind.group().split("\\.", 2)[0];
        FileDescriptor file = file(PACKAGE + capitalized(kind.version()) + capitalized(group));
        String expectedPackage = "k8s.io.api." + (group.isEmpty() ? "core" : group) + "." + kind.version();
        if (file == null || !file.getPackage().equals(expectedPackage)) {
            return Optional.empty();
        }
        return Optional.ofNullable(file.findMessageTypeByName(kind.kind()));
    }

    private static FileDescriptor file(String outerClass) {
        try {
            Object file = Class.forName(outerClass).getMethod("getDescriptor").invoke(null);
            return file instanceof FileDescriptor f ? f : null;
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
}
