package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.FieldRenames;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.kinds.VersionConversion;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes JSON/YAML to and from our typed Avro records, driven by the Avro schema alone: nothing here knows a field
 * or a kind. Each record class is compiled once into a tree of codecs (field lookup tables, union branch tables) and
 * cached; the shared instance is thread-safe.
 *
 * <p>Mapping: field names are the JSON names; JSON null and a missing field are both "absent"; unknown and duplicate
 * fields follow {@link FieldValidation}; type errors are always errors, reported together with their paths. Encoding
 * follows schema order and omits nulls and empty arrays and maps (Kubernetes' omitempty), keeping empty objects.
 */
public final class KubeJson {
    private static final KubeJson INSTANCE = new KubeJson();

    private final ObjectMapper mapper = JsonMapper.builder().build();
    private final Map<Class<?>, RecordCodec> codecs = new ConcurrentHashMap<>();
    private final Map<ClassLoader, SchemaCompiler> compilers = new ConcurrentHashMap<>();

    private KubeJson() {
    }

    /** The shared, thread-safe instance. */
    public static KubeJson get() {
        return INSTANCE;
    }

    /**
     * Decodes {@code json} into a {@code type}. Top-level {@code apiVersion} and {@code kind} are ignored here.
     *
     * @throws DecodeException listing every type error, and under {@link FieldValidation#STRICT} every unknown field
     */
    public <T extends SpecificRecord> Decoded<T> decode(JsonNode json, Class<T> type, FieldValidation mode) {
        return decode(json, type, mode, Map.of());
    }

    private <T extends SpecificRecord> Decoded<T> decode(JsonNode json, Class<T> type, FieldValidation mode,
                                                         Map<JsonNode, List<String>> duplicates) {
        if (json == null || !json.isObject()) {
            throw DecodeException.malformed("expected a JSON object, got "
                    + (json == null ? "nothing" : DecodeContext.describe(json)));
        }
        DecodeContext ctx = new DecodeContext(mode, duplicates);
        Object value = type == CustomObject.class ? CustomObjectCodec.decode(json, ctx, codec(ObjectMeta.class))
                : codec(type).decode(json, ctx, true);
        if (!ctx.errors.isEmpty()) {
            throw new DecodeException(ctx.errors);
        }
        return new Decoded<>(type.cast(value), ctx.warnings);
    }

    /** The record as Kubernetes JSON: schema order, no nulls, no empty arrays or maps. The record is not modified. */
    public ObjectNode encode(SpecificRecord record) {
        if (record instanceof CustomObject custom) {
            return CustomObjectCodec.encode(custom, codec(ObjectMeta.class));
        }
        return codec(record.getClass()).encode(record);
    }

    /** {@link #encode} with {@code apiVersion} and {@code kind} first, as the API serves an object. */
    public ObjectNode encodeObject(SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        ObjectNode out = mapper.createObjectNode();
        out.put("apiVersion", kind.apiVersion());
        out.put("kind", kind.objectKind());
        out.setAll(encode(object));
        return out;
    }

    /**
     * {@link #encodeObject} as {@code served} serves it: for an alias of the stored kind (events.k8s.io/v1 Event) its
     * apiVersion and field names; for a stored kind the same as {@link #encodeObject(SpecificRecord)}.
     */
    public ObjectNode encodeObject(KindInfo served, SpecificRecord object) {
        if (object instanceof CustomObject) {
            // Conversion None: every served version is the stored object under its own apiVersion.
            ObjectNode out = mapper.createObjectNode();
            out.put("apiVersion", served.apiVersion());
            out.put("kind", served.objectKind());
            out.setAll(encode(object));
            return out;
        }
        Optional<FieldRenames> renames = Kinds.renames(served);
        if (renames.isEmpty() && Kinds.conversion(served).isEmpty()) {
            return encodeObject(object);
        }
        ObjectNode out = mapper.createObjectNode();
        out.put("apiVersion", served.apiVersion());
        out.put("kind", served.objectKind());
        out.setAll(encode(served, object));
        return out;
    }

    /**
     * Writes {@link #encodeObject(KindInfo, SpecificRecord)} to {@code out} (a generator made by an ObjectMapper): the
     * same JSON, but a kind served as stored goes out field by field without a tree first (a watch event's object).
     */
    public void writeObject(KindInfo served, SpecificRecord object, JsonGenerator out) throws IOException {
        if (!(object instanceof CustomObject) && Kinds.renames(served).isEmpty() && Kinds.conversion(served).isEmpty()) {
            RecordCodec codec = codec(object.getClass());
            // A record with its own apiVersion or kind field would override the envelope's in the tree: not here.
            if (!codec.hasField("apiVersion") && !codec.hasField("kind")) {
                KindInfo kind = Kinds.of(object);
                out.writeStartObject();
                out.writeStringField("apiVersion", kind.apiVersion());
                out.writeStringField("kind", kind.objectKind());
                codec.writeFields(object, out);
                out.writeEndObject();
                return;
            }
        }
        out.writeTree(encodeObject(served, object));
    }

    /** {@link #encode} with {@code served}'s field names (a list item of an alias kind). */
    public ObjectNode encode(KindInfo served, SpecificRecord object) {
        ObjectNode stored = encode(object);
        Optional<VersionConversion> conversion = Kinds.conversion(served);
        if (conversion.isPresent()) {
            return conversion.get().toServed(stored);
        }
        Optional<FieldRenames> renames = Kinds.renames(served);
        if (renames.isEmpty()) {
            return stored;
        }
        ObjectNode out = mapper.createObjectNode();
        stored.fields().forEachRemaining(e -> out.set(renames.get().toServed(e.getKey()), e.getValue()));
        return out;
    }

    /**
     * Decodes {@code json} as {@code served} sends it into the stored kind's record: an alias's field names are
     * mapped to the stored ones first, and error paths back to the served ones.
     */
    public Decoded<? extends SpecificRecord> decode(JsonNode json, KindInfo served, FieldValidation mode) {
        if (served.type() == CustomObject.class) {
            Decoded<CustomObject> d = decode(json, CustomObject.class, mode);
            return new Decoded<>(served(d.value(), served), d.warnings());
        }
        Optional<VersionConversion> conversion = Kinds.conversion(served);
        if (conversion.isPresent()) {
            Decoded<? extends SpecificRecord> d = decode(json, conversion.get().servedType(), mode);
            return new Decoded<>(converted(d.value(), served, conversion.get()), d.warnings());
        }
        Optional<FieldRenames> renames = Kinds.renames(served);
        if (renames.isEmpty() || json == null || !json.isObject()) {
            return decode(json, served.type(), mode);
        }
        try {
            return decode(toStored((ObjectNode) json, renames.get()), served.type(), mode, Map.of());
        } catch (DecodeException e) {
            throw servedPaths(e, renames.get());
        }
    }

    /** One JSON or YAML document as a tree (server-side apply bodies); {@link DecodeException} when malformed. */
    public static JsonNode parseTree(byte[] jsonOrYaml) {
        return JsonTrees.parse(jsonOrYaml).root();
    }

    /** {@link #parseObject(byte[], Class, FieldValidation, List)} of a document as {@code served} sends it. */
    public SpecificRecord parseObject(byte[] jsonOrYaml, KindInfo served, FieldValidation mode, List<String> warningsOut) {
        Optional<FieldRenames> renames = Kinds.renames(served);
        Optional<VersionConversion> conversion = Kinds.conversion(served);
        boolean custom = served.type() == CustomObject.class;
        if (renames.isEmpty() && conversion.isEmpty() && !custom) {
            return parseObject(jsonOrYaml, served.type(), mode, warningsOut);
        }
        JsonTrees.Parsed parsed = JsonTrees.parse(jsonOrYaml);
        if (!parsed.root().isObject()) {
            throw DecodeException.malformed("expected an object at the top level, got " + DecodeContext.describe(parsed.root()));
        }
        List<FieldError> errors = new ArrayList<>();
        check(parsed.root().get("apiVersion"), "apiVersion", served.apiVersion(), errors);
        check(parsed.root().get("kind"), "kind", served.objectKind(), errors);
        if (!errors.isEmpty()) {
            throw new DecodeException(errors);
        }
        if (custom) {
            Decoded<CustomObject> d = decode(parsed.root(), CustomObject.class, mode, parsed.duplicates());
            if (warningsOut != null) {
                warningsOut.addAll(d.warnings());
            }
            return served(d.value(), served);
        }
        if (conversion.isPresent()) {
            Decoded<? extends SpecificRecord> d = decode(parsed.root(), conversion.get().servedType(), mode, parsed.duplicates());
            if (warningsOut != null) {
                warningsOut.addAll(d.warnings());
            }
            return converted(d.value(), served, conversion.get());
        }
        try {
            Decoded<? extends SpecificRecord> d = decode(toStored((ObjectNode) parsed.root(), renames.get()),
                    served.type(), mode, parsed.duplicates());
            if (warningsOut != null) {
                d.warnings().forEach(w -> warningsOut.add(w));
            }
            return d.value();
        } catch (DecodeException e) {
            throw servedPaths(e, renames.get());
        }
    }

    /**
     * A served version's record as the stored kind's: through its JSON, which decoding the served record has already
     * checked (and rid of unknown fields), so the stored decode finds no errors of the client's to report.
     */
    private SpecificRecord converted(SpecificRecord served, KindInfo kind, VersionConversion conversion) {
        return decode(conversion.toStored(encode(served)), kind.type(), FieldValidation.IGNORE).value();
    }

    /** A custom object as sent to {@code served}: its apiVersion and kind are the served ones. */
    private static CustomObject served(CustomObject object, KindInfo served) {
        return CustomObject.newBuilder(object).setApiVersion(served.apiVersion()).setKind(served.objectKind()).build();
    }

    /** The same object with the top-level fields renamed to the stored kind's (child nodes are shared, not copied). */
    private ObjectNode toStored(ObjectNode served, FieldRenames renames) {
        ObjectNode out = mapper.createObjectNode();
        served.fields().forEachRemaining(e -> out.set(renames.toStored(e.getKey()), e.getValue()));
        return out;
    }

    private static DecodeException servedPaths(DecodeException e, FieldRenames renames) {
        List<FieldError> errors = new ArrayList<>();
        for (FieldError f : e.errors()) {
            String path = f.path().isEmpty() ? "" : renames.servedPath(f.path());
            errors.add(new FieldError(path, f.message().replace("\"" + f.path() + "\"", "\"" + path + "\"")));
        }
        return new DecodeException(errors);
    }

    /**
     * Parses one JSON or YAML document into a {@code type}. When the type is a registered kind, an {@code apiVersion}
     * or {@code kind} present in the document must match it.
     *
     * @param warningsOut receives warnings (may be null)
     * @throws DecodeException for malformed input (with line and column), several YAML documents, a non-object
     *                         document, or the field problems {@link #decode} reports; duplicate keys follow {@code mode}
     */
    public <T extends SpecificRecord> T parseObject(byte[] jsonOrYaml, Class<T> type, FieldValidation mode,
                                                    List<String> warningsOut) {
        JsonTrees.Parsed parsed = JsonTrees.parse(jsonOrYaml);
        JsonNode root = parsed.root();
        if (!root.isObject()) {
            throw DecodeException.malformed("expected an object at the top level, got " + DecodeContext.describe(root));
        }
        List<FieldError> envelope = checkTypeMeta(root, type);
        Decoded<T> decoded;
        try {
            decoded = decode(root, type, mode, parsed.duplicates());
        } catch (DecodeException e) {
            if (envelope.isEmpty()) {
                throw e;
            }
            List<FieldError> all = new ArrayList<>(envelope);
            all.addAll(e.errors());
            throw new DecodeException(all);
        }
        if (!envelope.isEmpty()) {
            throw new DecodeException(envelope);
        }
        if (warningsOut != null) {
            warningsOut.addAll(decoded.warnings());
        }
        return decoded.value();
    }

    /** {@link #encodeObject} as UTF-8 JSON bytes. */
    public byte[] toJsonBytes(SpecificRecord object) {
        try {
            return mapper.writeValueAsBytes(encodeObject(object));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + object.getClass().getSimpleName(), e);
        }
    }

    private static List<FieldError> checkTypeMeta(JsonNode root, Class<?> type) {
        Optional<KindInfo> kind = Kinds.all().stream().filter(k -> k.type().equals(type)).findFirst();
        if (kind.isEmpty()) {
            return List.of();
        }
        List<FieldError> errors = new ArrayList<>();
        check(root.get("apiVersion"), "apiVersion", kind.get().apiVersion(), errors);
        check(root.get("kind"), "kind", kind.get().kind(), errors);
        return errors;
    }

    private static void check(JsonNode actual, String field, String expected, List<FieldError> errors) {
        if (actual == null || actual.isNull()) {
            return;
        }
        if (!actual.isTextual() || !actual.textValue().equals(expected)) {
            errors.add(new FieldError(field, "expected " + DecodeContext.quote(expected) + ", got "
                    + DecodeContext.describe(actual)));
        }
    }

    private RecordCodec codec(Class<?> type) {
        RecordCodec codec = codecs.get(type);
        return codec != null ? codec : compile(type);
    }

    private RecordCodec compile(Class<?> type) {
        Schema schema = SpecificData.get().getSchema(type);
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException(type.getName() + " is not an Avro record");
        }
        ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : ClassLoader.getSystemClassLoader();
        SchemaCompiler compiler = compilers.computeIfAbsent(loader, SchemaCompiler::new);
        // Compilation fills shared tables; one at a time per class loader. Finished codecs are published via the map.
        synchronized (compiler) {
            RecordCodec done = codecs.get(type);
            if (done != null) {
                return done;
            }
            RecordCodec codec = (RecordCodec) compiler.compile(schema);
            codecs.put(type, codec);
            return codec;
        }
    }
}
