package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.Command;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.StatusCause;
import io.eventplane.log.Verb;
import io.eventplane.model.ObjectMeta;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** The writer's decider on typed objects written as YAML, for the per-kind rules tests (no Kafka). */
final class Decisions {
    static final Instant T0 = Instant.parse("2026-11-21T10:00:00.250Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();
    private final ObjectDecider decider = new ObjectDecider(RulesRegistry.standard());
    private long position = 1000;

    /** A manifest as the API decodes it (strict field validation). */
    static <T extends SpecificRecord> T parse(Class<T> type, String yaml) {
        return KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), type, FieldValidation.STRICT, null);
    }

    /** A manifest from src/test/resources/examples. */
    static <T extends SpecificRecord> T example(Class<T> type, String file) {
        try (InputStream in = Decisions.class.getResourceAsStream("/examples/" + file)) {
            return parse(type, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code object} with a JSON merge patch written as YAML applied ({@code "{spec: {replicas: -1}}"}, null removes),
     * decoded again: one variation of a valid manifest per table row.
     */
    static <T extends SpecificRecord> T merge(T object, String yamlPatch) {
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) object.getClass();
        JsonNode merged = merge(KubeJson.get().encodeObject(object), yaml(yamlPatch));
        return parse(type, merged.toString());
    }

    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        com.fasterxml.jackson.databind.node.ObjectNode out = target != null && target.isObject()
                ? ((com.fasterxml.jackson.databind.node.ObjectNode) target).deepCopy() : JSON.createObjectNode();
        patch.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                out.remove(e.getKey());
            } else {
                out.set(e.getKey(), merge(out.get(e.getKey()), e.getValue()));
            }
        });
        return out;
    }

    static JsonNode json(SpecificRecord object) {
        return normalize(KubeJson.get().encode(object));
    }

    static JsonNode yaml(String yaml) {
        try {
            return normalize(YAML.readTree(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode normalize(JsonNode node) {
        try {
            return JSON.readTree(JSON.writeValueAsString(node));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Decision create(SpecificRecord object) {
        return decider.decide(command(Verb.CREATE, object), null, ++position);
    }

    Decision update(ObjectChanged current, SpecificRecord object) {
        return decider.decide(command(Verb.UPDATE, object), current, ++position);
    }

    Decision updateStatus(ObjectChanged current, SpecificRecord object) {
        return decider.decide(command(Verb.UPDATE_STATUS, object), current, ++position);
    }

    /** An update through the approval subresource (a CertificateSigningRequest's Approved/Denied). */
    Decision approval(ObjectChanged current, SpecificRecord object) {
        return decider.decide(Command.newBuilder(command(Verb.UPDATE, object)).setSubresource(ObjectDecider.APPROVAL)
                .build(), current, ++position);
    }

    /** The change after an accepted update (for a chain of updates). */
    ObjectChanged updatedChange(ObjectChanged current, SpecificRecord object) {
        Decision d = update(current, object);
        assertTrue(d.outcome().getAccepted(), () -> d.outcome().getMessage());
        return d.change().orElseThrow();
    }

    /** The stored object after an accepted create. */
    @SuppressWarnings("unchecked")
    <T extends SpecificRecord> T created(T object) {
        return (T) createdChange(object).getObject();
    }

    ObjectChanged createdChange(SpecificRecord object) {
        Decision d = create(object);
        assertTrue(d.outcome().getAccepted(), () -> d.outcome().getMessage());
        return d.change().orElseThrow();
    }

    /** The stored object after an accepted update of {@code current}. */
    @SuppressWarnings("unchecked")
    <T extends SpecificRecord> T updated(ObjectChanged current, T object) {
        Decision d = update(current, object);
        assertTrue(d.outcome().getAccepted(), () -> d.outcome().getMessage());
        return (T) d.change().orElseThrow().getObject();
    }

    /** The cause messages of a rejected decision (asserted to be rejected). */
    static List<String> rejected(Decision d) {
        assertFalse(d.outcome().getAccepted(), "expected a rejection");
        return d.outcome().getCauses().stream().map(StatusCause::getMessage).toList();
    }

    static Command command(Verb verb, SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        ObjectMeta meta = ObjectAccess.meta(object);
        return Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r-" + verb + "-" + meta.getName())
                        .setTime(T0).build())
                .setVerb(verb).setKind(kind.kind())
                .setNamespace(kind.namespaced() ? (meta.getNamespace() == null ? "default" : meta.getNamespace()) : "")
                .setName(meta.getName())
                .setPreconditions(new Preconditions()).setObject(object).build();
    }
}
