package io.eventplane.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.customavro.CustomAvroSchemas;
import io.eventplane.core.customavro.CustomAvroValues;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.CustomKinds.CustomKind;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.schemas.serde.SchemaRegistration;
import io.eventplane.schemas.serde.SchemaRegistryClient;
import io.eventplane.schemas.serde.SchemaRegistryException;
import io.eventplane.schemas.serde.WireFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Custom objects on the log as typed Avro. Before a change is serialized, a custom object's content and status
 * (JSON text in memory) become {@code typed}: the Confluent wire format of its body in the Avro schema of its
 * version ({@link CustomAvroSchemas}), registered under the version's subject. After a change is deserialized,
 * {@code typed} becomes JSON text again, the writer schema found by its id (cached). A definition's change, when
 * serialized (by the writer, appending it), registers every served version's schema.
 *
 * <p>What cannot be typed stays JSON text, as every record written before this did: an object whose definition this
 * process does not know, a body that does not fit its schema (an explicit null, a required field missing after the
 * schema changed), a subject the registry refuses (a definition deleted and defined again incompatibly).
 */
public final class CustomObjectStorage {
    private static final Logger LOG = LoggerFactory.getLogger(CustomObjectStorage.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<String, CustomObjectStorage> BY_REGISTRY = new ConcurrentHashMap<>();

    private final SchemaRegistryClient registry;
    private final Map<Integer, Schema> byId = new ConcurrentHashMap<>();
    private final Map<PlanKey, Optional<Plan>> plans = new ConcurrentHashMap<>();
    private final AtomicLong typed = new AtomicLong();
    private final AtomicLong untyped = new AtomicLong();

    /** The schema a definition's version had at one resourceVersion of the definition. */
    private record PlanKey(String definition, String resourceVersion, String version) {
    }

    private record Plan(int id, Schema schema) {
    }

    public CustomObjectStorage(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    /** One per registry in a process, so ids and plans are cached once. */
    public static CustomObjectStorage forRegistry(String url) {
        return BY_REGISTRY.computeIfAbsent(url, u -> new CustomObjectStorage(SchemaRegistryClient.forUrl(u)));
    }

    /** The change as the log stores it: a custom object typed when it can be; a definition's schemas registered. */
    public ObjectChanged stored(ObjectChanged change) {
        Object object = change.getObject();
        if (object instanceof CustomResourceDefinition crd && CustomKinds.established(crd)
                && crd.getMetadata().getDeletionTimestamp() == null) {
            CustomKinds.kindsOf(crd).forEach(this::plan);
        } else if (object instanceof CustomObject custom && custom.getTyped() == null) {
            Optional<CustomObject> t = typed(custom);
            if (t.isPresent()) {
                return ObjectChanged.newBuilder(change).setObject(t.get()).build();
            }
        }
        return change;
    }

    /**
     * The change as memory holds it: a typed custom object back to JSON text; a custom object's change written when
     * custom kinds were named by their kind alone ({@code Widget}, not {@code Widget.example.com}) named as today.
     */
    public ObjectChanged read(ObjectChanged change) {
        if (!(change.getObject() instanceof CustomObject custom)) {
            return change;
        }
        ObjectChanged out = custom.getTyped() == null ? change
                : ObjectChanged.newBuilder(change).setObject(untyped(custom)).build();
        return change.getKind().indexOf('.') >= 0 || custom.getKind() == null ? out
                : ObjectChanged.newBuilder(out).setKind(CustomKinds.kindOf(custom)).build();
    }

    /** How many custom objects were stored typed, and as JSON text, by this process. */
    public long typedCount() {
        return typed.get();
    }

    public long untypedCount() {
        return untyped.get();
    }

    Optional<CustomObject> typed(CustomObject object) {
        Optional<CustomKind> kind = CustomKinds.of(object)
                .filter(k -> k.info().apiVersion().equals(object.getApiVersion()));
        Optional<Plan> plan = kind.flatMap(this::plan);
        if (plan.isEmpty()) {
            untyped.incrementAndGet();
            return Optional.empty();
        }
        ObjectNode body = object.getContent() == null ? MAPPER.createObjectNode() : (ObjectNode) parse(object.getContent());
        if (object.getStatus() != null) {
            body.set("status", parse(object.getStatus()));
        }
        byte[] avro;
        try {
            avro = CustomAvroValues.encode(body, plan.get().schema());
        } catch (IllegalArgumentException e) {
            untyped.incrementAndGet();
            LOG.debug("{} {}/{} stays JSON text: {}", object.getKind(), object.getMetadata().getNamespace(),
                    object.getMetadata().getName(), e.getMessage());
            return Optional.empty();
        }
        byte[] header = WireFormat.header(plan.get().id());
        ByteBuffer bytes = ByteBuffer.allocate(header.length + avro.length).put(header).put(avro).flip();
        typed.incrementAndGet();
        return Optional.of(CustomObject.newBuilder(object).setContent(null).setStatus(null).setTyped(bytes).build());
    }

    CustomObject untyped(CustomObject object) {
        ByteBuffer buffer = object.getTyped();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        int id = WireFormat.schemaId(bytes);
        Schema schema = byId.computeIfAbsent(id, registry::getById);
        ObjectNode body;
        try {
            body = CustomAvroValues.decode(bytes, WireFormat.HEADER_SIZE, schema);
        } catch (IllegalStateException e) {
            throw new SerializationException(e.getMessage(), e);
        }
        JsonNode status = body.remove("status");
        return CustomObject.newBuilder(object).setTyped(null).setContent(body.toString())
                .setStatus(status == null ? null : status.toString()).build();
    }

    private Optional<Plan> plan(CustomKind kind) {
        PlanKey key = new PlanKey(kind.definition().getMetadata().getName(),
                kind.definition().getMetadata().getResourceVersion(), kind.info().version());
        Optional<Plan> known = plans.get(key);
        if (known != null) {
            return known;
        }
        String subject = CustomAvroSchemas.subject(kind.info().group(), kind.info().version(), kind.info().objectKind());
        Optional<Plan> plan;
        try {
            Schema schema = CustomAvroSchemas.of(kind.info().group(), kind.info().version(), kind.info().objectKind(),
                    kind.version().getSchema$() == null ? null : kind.version().getSchema$().getOpenAPIV3Schema());
            plan = Optional.of(new Plan(SchemaRegistration.register(registry, subject, schema), schema));
        } catch (SchemaRegistryException e) {
            if (e.isRetriable()) {
                LOG.warn("subject {} not registered now (objects stay JSON text until it is): {}", subject,
                        e.getMessage());
                return Optional.empty();
            }
            LOG.warn("subject {} refused the schema of {}: its objects stay JSON text: {}", subject, key,
                    e.getMessage());
            plan = Optional.empty();
        }
        plans.put(key, plan);
        return plan;
    }

    private static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
