package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.lang.reflect.Constructor;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;

/**
 * The JSON mapping of one Avro schema node, compiled once from the schema and then shared by every decode and encode.
 * Everything Kubernetes-specific is keyed on schema facts only: logical types (times), the {@code k8s: quantity}
 * property on a string type (quantities), and unions (nullable fields, IntOrString).
 */
abstract class SchemaCodec {

    /** Whether this codec reads JSON values of the given type; picks the branch of a union when decoding. */
    abstract boolean reads(JsonNodeType type);

    /** Whether this codec writes the given Java value; picks the branch of a union when encoding. */
    abstract boolean writes(Object value);

    /** What a JSON value must look like here, for messages: {@code integer (int32)}, {@code object}. */
    abstract String expected();

    /** Decodes a non-null JSON value; on a problem records it in {@code ctx} and returns null. */
    abstract Object decode(JsonNode node, DecodeContext ctx);

    abstract JsonNode encode(Object value);

    /** Whether JSON null is a value here (a union with null), rather than a type error. */
    boolean nullable() {
        return false;
    }

    Object decodeNullable(JsonNode node, DecodeContext ctx) {
        if (node.isNull() || node.isMissingNode()) {
            return nullable() ? null : ctx.mismatch(expected(), node);
        }
        return decode(node, ctx);
    }

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    // ------------------------------------------------------------------------------------------------ compiler

    /** Compiles schemas into codecs; records are compiled once per full name (recursive schemas work). Not thread-safe. */
    static final class Compiler {
        private final Map<String, RecordCodec> records = new HashMap<>();
        private final ClassLoader loader;

        Compiler(ClassLoader loader) {
            this.loader = loader;
        }

        /** The generated class of a named schema, or null (then generic records are built). Avro's own lookup is avoided:
         *  it applies the trusted-packages check, which is about deserialising, not about our own model classes. */
        Class<?> classOf(Schema named) {
            try {
                return Class.forName(SpecificData.getClassName(named), false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return null;
            }
        }

        SchemaCodec compile(Schema s) {
            return switch (s.getType()) {
                case RECORD -> record(s);
                case UNION -> union(s);
                case ARRAY -> new ArrayCodec(compile(s.getElementType()));
                case MAP -> new MapCodec(compile(s.getValueType()));
                case STRING -> {
                    requireNoLogicalType(s);
                    if ("json-object".equals(s.getProp("k8s"))) {
                        yield new JsonObjectCodec();
                    }
                    yield "quantity".equals(s.getProp("k8s")) ? new QuantityCodec() : new StringCodec();
                }
                case INT -> {
                    requireNoLogicalType(s);
                    yield IntegralCodec.int32();
                }
                case LONG -> {
                    String logical = s.getLogicalType() == null ? null : s.getLogicalType().getName();
                    if (logical == null) {
                        yield IntegralCodec.int64();
                    } else if (logical.equals("timestamp-millis")) {
                        yield new TimeCodec(false);
                    } else if (logical.equals("timestamp-micros")) {
                        yield new TimeCodec(true);
                    }
                    throw unsupported(s);
                }
                case BOOLEAN -> new BooleanCodec();
                case DOUBLE -> new DoubleCodec(false);
                case FLOAT -> new DoubleCodec(true);
                case ENUM -> new EnumCodec(s, classOf(s));
                case BYTES -> {
                    requireNoLogicalType(s);
                    yield new BytesCodec();
                }
                case NULL -> new UnionCodec(List.of(), true);
                case FIXED -> throw unsupported(s);
            };
        }

        private RecordCodec record(Schema s) {
            RecordCodec existing = records.get(s.getFullName());
            if (existing != null) {
                return existing;
            }
            RecordCodec codec = new RecordCodec(s, classOf(s));
            records.put(s.getFullName(), codec);
            try {
                List<RecordCodec.Field> fields = new ArrayList<>();
                for (Schema.Field f : s.getFields()) {
                    fields.add(new RecordCodec.Field(f, compile(f.schema())));
                }
                codec.init(fields);
                return codec;
            } catch (RuntimeException e) {
                records.remove(s.getFullName()); // never leave a half-built codec behind
                throw e;
            }
        }

        private SchemaCodec union(Schema s) {
            List<SchemaCodec> branches = new ArrayList<>();
            boolean nullable = false;
            for (Schema b : s.getTypes()) {
                if (b.getType() == Schema.Type.NULL) {
                    nullable = true;
                } else {
                    branches.add(compile(b));
                }
            }
            return new UnionCodec(branches, nullable);
        }

        private static void requireNoLogicalType(Schema s) {
            if (s.getLogicalType() != null) {
                throw unsupported(s);
            }
        }

        private static IllegalArgumentException unsupported(Schema s) {
            return new IllegalArgumentException("the Kubernetes JSON codec does not support the Avro schema " + s);
        }
    }

    // ------------------------------------------------------------------------------------------------ records

    static final class RecordCodec extends SchemaCodec {
        record Field(Schema.Field avro, SchemaCodec codec) {
        }

        private final Schema schema;
        private final Supplier<IndexedRecord> factory;
        private final GenericData model;
        private String[] names;
        private int[] positions;
        private SchemaCodec[] codecs;
        private Object[] defaults;
        private boolean[] required;
        private Map<String, Integer> byName;

        RecordCodec(Schema schema, Class<?> type) {
            this.schema = schema;
            this.model = type != null && IndexedRecord.class.isAssignableFrom(type) ? SpecificData.getForClass(type) : GenericData.get();
            this.factory = factoryFor(schema, type);
        }

        Schema schema() {
            return schema;
        }

        private static Supplier<IndexedRecord> factoryFor(Schema schema, Class<?> type) {
            if (type != null && IndexedRecord.class.isAssignableFrom(type)) {
                try {
                    Constructor<?> ctor = type.getDeclaredConstructor();
                    return () -> {
                        try {
                            return (IndexedRecord) ctor.newInstance();
                        } catch (ReflectiveOperationException e) {
                            throw new IllegalStateException("cannot instantiate " + type.getName(), e);
                        }
                    };
                } catch (NoSuchMethodException e) {
                    // fall through to a generic record
                }
            }
            return () -> new GenericData.Record(schema);
        }

        void init(List<Field> fields) {
            int n = fields.size();
            names = new String[n];
            positions = new int[n];
            codecs = new SchemaCodec[n];
            defaults = new Object[n];
            required = new boolean[n];
            byName = new HashMap<>(n * 2);
            for (int i = 0; i < n; i++) {
                Schema.Field f = fields.get(i).avro();
                // A JSON name Avro cannot spell (a strategic-merge directive such as "$patch") is a field property.
                String jsonName = f.getProp("jsonName");
                names[i] = jsonName != null ? jsonName : f.name();
                positions[i] = f.pos();
                codecs[i] = fields.get(i).codec();
                if (f.hasDefaultValue()) {
                    defaults[i] = model.getDefaultValue(f);
                } else {
                    required[i] = !codecs[i].nullable();
                }
                byName.put(names[i], i);
            }
        }

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.OBJECT;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof IndexedRecord r && r.getSchema().getFullName().equals(schema.getFullName());
        }

        @Override
        String expected() {
            return "object";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            return decode(node, ctx, false);
        }

        /** At the root, {@code apiVersion} and {@code kind} belong to the envelope, not to the record. */
        IndexedRecord decode(JsonNode node, DecodeContext ctx, boolean root) {
            if (!node.isObject()) {
                ctx.mismatch(expected(), node);
                return null;
            }
            ctx.checkDuplicates(node, false);
            IndexedRecord out = factory.get();
            boolean[] seen = new boolean[names.length];
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                Integer i = byName.get(e.getKey());
                if (i == null) {
                    if (!(root && (e.getKey().equals("apiVersion") || e.getKey().equals("kind")))) {
                        ctx.unknownField(ctx.childPath(e.getKey()));
                    }
                    continue;
                }
                JsonNode value = e.getValue();
                if (value.isNull()) {
                    continue; // JSON null is absent
                }
                seen[i] = true;
                int mark = ctx.enterField(names[i]);
                Object decoded = codecs[i].decode(value, ctx);
                ctx.leave(mark);
                if (decoded != null) {
                    out.put(positions[i], decoded);
                }
            }
            for (int i = 0; i < names.length; i++) {
                if (seen[i]) {
                    continue;
                }
                if (defaults[i] != null) {
                    out.put(positions[i], model.deepCopy(schema.getFields().get(positions[i]).schema(), defaults[i]));
                } else if (required[i]) {
                    ctx.errors.add(new FieldError(ctx.childPath(names[i]), "required value"));
                }
            }
            return out;
        }

        @Override
        ObjectNode encode(Object value) {
            IndexedRecord record = (IndexedRecord) value;
            ObjectNode out = NODES.objectNode();
            for (int i = 0; i < names.length; i++) {
                Object v = record.get(positions[i]);
                if (v == null || (v instanceof Collection<?> c && c.isEmpty()) || (v instanceof Map<?, ?> m && m.isEmpty())) {
                    continue; // omitempty; an empty record ({} as in emptyDir: {}) is kept
                }
                out.set(names[i], codecs[i].encode(v));
            }
            return out;
        }
    }

    // ------------------------------------------------------------------------------------------------ containers

    static final class UnionCodec extends SchemaCodec {
        private final List<SchemaCodec> branches;
        private final boolean nullable;
        private final Map<JsonNodeType, SchemaCodec> byJsonType = new EnumMap<>(JsonNodeType.class);
        private final boolean ambiguousObject;
        private final String expected;

        UnionCodec(List<SchemaCodec> branches, boolean nullable) {
            this.branches = List.copyOf(branches);
            this.nullable = nullable;
            int objectReaders = 0;
            for (JsonNodeType t : JsonNodeType.values()) {
                for (SchemaCodec b : branches) {
                    if (b.reads(t)) {
                        byJsonType.putIfAbsent(t, b);
                        if (t == JsonNodeType.OBJECT) {
                            objectReaders++;
                        }
                    }
                }
            }
            // A union of several records (the log's object unions) cannot be told apart from JSON alone.
            this.ambiguousObject = objectReaders > 1;
            this.expected = branches.isEmpty() ? "null"
                    : branches.stream().map(SchemaCodec::expected).distinct().collect(Collectors.joining(" or "));
        }

        @Override
        boolean nullable() {
            return nullable;
        }

        @Override
        boolean reads(JsonNodeType type) {
            return byJsonType.containsKey(type);
        }

        @Override
        boolean writes(Object value) {
            return value == null ? nullable : branches.stream().anyMatch(b -> b.writes(value));
        }

        @Override
        String expected() {
            return expected;
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (node.isNull()) {
                return nullable ? null : ctx.mismatch(expected, node);
            }
            SchemaCodec branch = byJsonType.get(node.getNodeType());
            if (branch == null) {
                return ctx.mismatch(expected, node);
            }
            if (ambiguousObject && node.isObject()) {
                return ctx.error("cannot tell which of " + expected + " this object is");
            }
            return branch.decode(node, ctx);
        }

        @Override
        JsonNode encode(Object value) {
            if (value == null) {
                return NullNode.getInstance();
            }
            if (branches.size() == 1) {
                return branches.get(0).encode(value);
            }
            for (SchemaCodec b : branches) {
                if (b.writes(value)) {
                    return b.encode(value);
                }
            }
            throw new IllegalArgumentException("value of " + value.getClass().getName() + " matches no branch of " + expected);
        }
    }

    static final class ArrayCodec extends SchemaCodec {
        private final SchemaCodec items;

        ArrayCodec(SchemaCodec items) {
            this.items = items;
        }

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.ARRAY;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof Collection<?>;
        }

        @Override
        String expected() {
            return "array";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isArray()) {
                return ctx.mismatch(expected(), node);
            }
            List<Object> out = new ArrayList<>(node.size());
            for (int i = 0; i < node.size(); i++) {
                int mark = ctx.enterIndex(i);
                out.add(items.decodeNullable(node.get(i), ctx));
                ctx.leave(mark);
            }
            return out;
        }

        @Override
        JsonNode encode(Object value) {
            ArrayNode out = NODES.arrayNode();
            for (Object item : (Collection<?>) value) {
                out.add(item == null ? NullNode.getInstance() : items.encode(item));
            }
            return out;
        }
    }

    static final class MapCodec extends SchemaCodec {
        private final SchemaCodec values;

        MapCodec(SchemaCodec values) {
            this.values = values;
        }

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.OBJECT;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof Map<?, ?>;
        }

        @Override
        String expected() {
            return "object";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isObject()) {
                return ctx.mismatch(expected(), node);
            }
            ctx.checkDuplicates(node, true);
            Map<String, Object> out = new LinkedHashMap<>(Math.max(4, node.size() * 4 / 3 + 1));
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int mark = ctx.enterKey(e.getKey());
                out.put(e.getKey(), values.decodeNullable(e.getValue(), ctx));
                ctx.leave(mark);
            }
            return out;
        }

        @Override
        JsonNode encode(Object value) {
            ObjectNode out = NODES.objectNode();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                out.set(e.getKey().toString(), e.getValue() == null ? NullNode.getInstance() : values.encode(e.getValue()));
            }
            return out;
        }
    }

    // ------------------------------------------------------------------------------------------------ scalars

    static final class StringCodec extends SchemaCodec {
        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.STRING;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof CharSequence;
        }

        @Override
        String expected() {
            return "string";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            return node.isTextual() ? node.textValue() : ctx.mismatch(expected(), node);
        }

        @Override
        JsonNode encode(Object value) {
            return TextNode.valueOf(value.toString());
        }
    }

    /** A JSON object kept as its compact text ({@code k8s: json-object}): managedFields' FieldsV1. */
    static final class JsonObjectCodec extends SchemaCodec {
        private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER =
                new com.fasterxml.jackson.databind.ObjectMapper();

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.OBJECT;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof CharSequence;
        }

        @Override
        String expected() {
            return "object";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isObject()) {
                return ctx.mismatch(expected(), node);
            }
            return node.toString();
        }

        @Override
        JsonNode encode(Object value) {
            try {
                return MAPPER.readTree(value.toString());
            } catch (java.io.IOException e) {
                throw new IllegalStateException("stored JSON object does not parse: " + value, e);
            }
        }
    }

    /** resource.Quantity: a string or a JSON number (as Kubernetes accepts), validated, kept as written. */
    static final class QuantityCodec extends SchemaCodec {
        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.STRING || type == JsonNodeType.NUMBER;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof CharSequence;
        }

        @Override
        String expected() {
            return "quantity (string or number)";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            String text;
            if (node.isTextual()) {
                text = node.textValue().strip(); // Kubernetes trims the quantity text
            } else if (node.isNumber() && isFinite(node)) {
                text = numberText(node);
            } else {
                return ctx.mismatch(expected(), node);
            }
            try {
                Quantity.parse(text);
            } catch (IllegalArgumentException e) {
                return ctx.error("invalid quantity " + DecodeContext.quote(text) + ": " + e.getMessage());
            }
            return text;
        }

        private static String numberText(JsonNode node) {
            if (node.isIntegralNumber()) {
                return node.bigIntegerValue().toString();
            }
            BigDecimal d = node.decimalValue();
            // Plain digits read best ("0.5", "1000"); huge exponents stay short (and fail the quantity range check).
            return d.scale() < -40 || d.scale() > 40 ? d.toString() : d.toPlainString();
        }

        @Override
        JsonNode encode(Object value) {
            return TextNode.valueOf(value.toString());
        }
    }

    private static boolean isFinite(JsonNode node) {
        return !(node.isDouble() || node.isFloat()) || Double.isFinite(node.doubleValue());
    }

    /**
     * An Avro int or long: a JSON number with no fractional part (1.0 is accepted, 1.5 is not) that fits the range.
     * The two differ only in their name, the range check and the boxed type.
     */
    static final class IntegralCodec extends SchemaCodec {
        private final String expected;
        private final Class<?> boxed;
        private final Predicate<JsonNode> fits;
        private final Function<JsonNode, Object> integral;
        private final Function<BigDecimal, Object> exact;
        private final Function<Object, JsonNode> encoder;

        private IntegralCodec(String expected, Class<?> boxed, Predicate<JsonNode> fits,
                Function<JsonNode, Object> integral, Function<BigDecimal, Object> exact,
                Function<Object, JsonNode> encoder) {
            this.expected = expected;
            this.boxed = boxed;
            this.fits = fits;
            this.integral = integral;
            this.exact = exact;
            this.encoder = encoder;
        }

        static IntegralCodec int32() {
            return new IntegralCodec("integer (int32)", Integer.class, JsonNode::canConvertToInt, JsonNode::intValue,
                    BigDecimal::intValueExact, v -> IntNode.valueOf((Integer) v));
        }

        static IntegralCodec int64() {
            return new IntegralCodec("integer (int64)", Long.class, JsonNode::canConvertToLong, JsonNode::longValue,
                    BigDecimal::longValueExact, v -> LongNode.valueOf((Long) v));
        }

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.NUMBER;
        }

        @Override
        boolean writes(Object value) {
            return boxed.isInstance(value);
        }

        @Override
        String expected() {
            return expected;
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isNumber() || !isFinite(node)) {
                return ctx.mismatch(expected(), node);
            }
            if (node.isIntegralNumber()) {
                return fits.test(node) ? integral.apply(node) : outOfRange(node, ctx);
            }
            BigDecimal d = node.decimalValue();
            if (d.stripTrailingZeros().scale() > 0) {
                return ctx.mismatch(expected(), node);
            }
            try {
                return exact.apply(d);
            } catch (ArithmeticException e) {
                return outOfRange(node, ctx);
            }
        }

        private Object outOfRange(JsonNode node, DecodeContext ctx) {
            return ctx.error("expected " + expected() + ", got " + DecodeContext.describe(node) + " (out of range)");
        }

        @Override
        JsonNode encode(Object value) {
            return encoder.apply(value);
        }
    }

    static final class DoubleCodec extends SchemaCodec {
        private final boolean single;

        DoubleCodec(boolean single) {
            this.single = single;
        }

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.NUMBER;
        }

        @Override
        boolean writes(Object value) {
            return single ? value instanceof Float : value instanceof Double;
        }

        @Override
        String expected() {
            return "number";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isNumber()) {
                return ctx.mismatch(expected(), node);
            }
            return single ? (Object) node.floatValue() : (Object) node.doubleValue();
        }

        @Override
        JsonNode encode(Object value) {
            return single ? FloatNode.valueOf((Float) value) : DoubleNode.valueOf((Double) value);
        }
    }

    static final class BooleanCodec extends SchemaCodec {
        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.BOOLEAN;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof Boolean;
        }

        @Override
        String expected() {
            return "boolean";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            return node.isBoolean() ? (Object) node.booleanValue() : ctx.mismatch(expected(), node);
        }

        @Override
        JsonNode encode(Object value) {
            return BooleanNode.valueOf((Boolean) value);
        }
    }

    /** metav1.Time (timestamp-millis, printed to the second) and metav1.MicroTime (timestamp-micros, 6 fraction digits). */
    static final class TimeCodec extends SchemaCodec {
        private final boolean micros;

        TimeCodec(boolean micros) {
            this.micros = micros;
        }

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.STRING;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof Instant;
        }

        @Override
        String expected() {
            return "RFC3339 time (e.g. \"2026-11-21T10:00:00Z\")";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isTextual()) {
                return ctx.mismatch(expected(), node);
            }
            try {
                // Stored at the precision the log keeps, so a decoded object equals its own replay.
                return KubeTime.parse(node.textValue()).truncatedTo(micros ? ChronoUnit.MICROS : ChronoUnit.MILLIS);
            } catch (DateTimeParseException e) {
                return ctx.mismatch(expected(), node);
            }
        }

        @Override
        JsonNode encode(Object value) {
            Instant t = value instanceof Long l
                    ? (micros ? Instant.EPOCH.plus(l, ChronoUnit.MICROS) : Instant.ofEpochMilli(l))
                    : (Instant) value;
            return TextNode.valueOf(micros ? KubeTime.formatMicroTime(t) : KubeTime.formatTime(t));
        }
    }

    static final class EnumCodec extends SchemaCodec {
        private final Schema schema;
        private final Map<String, Object> bySymbol = new HashMap<>();
        private final String supported;

        @SuppressWarnings({"unchecked", "rawtypes"})
        EnumCodec(Schema schema, Class<?> type) {
            this.schema = schema;
            for (String symbol : schema.getEnumSymbols()) {
                Object value = type != null && type.isEnum()
                        ? Enum.valueOf((Class) type, symbol)
                        : new GenericData.EnumSymbol(schema, symbol);
                bySymbol.put(symbol, value);
            }
            this.supported = schema.getEnumSymbols().stream().map(DecodeContext::quote).collect(Collectors.joining(", "));
        }

        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.STRING;
        }

        @Override
        boolean writes(Object value) {
            return (value instanceof Enum<?> e && bySymbol.get(e.name()) == e)
                    || (value instanceof GenericEnumSymbol<?> g && g.getSchema().getFullName().equals(schema.getFullName()));
        }

        @Override
        String expected() {
            return "string";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isTextual()) {
                return ctx.mismatch(expected(), node);
            }
            Object value = bySymbol.get(node.textValue());
            return value != null ? value
                    : ctx.error("unsupported value " + DecodeContext.quote(node.textValue()) + ", supported values: " + supported);
        }

        @Override
        JsonNode encode(Object value) {
            return TextNode.valueOf(value instanceof Enum<?> e ? e.name() : value.toString());
        }
    }

    static final class BytesCodec extends SchemaCodec {
        @Override
        boolean reads(JsonNodeType type) {
            return type == JsonNodeType.STRING;
        }

        @Override
        boolean writes(Object value) {
            return value instanceof ByteBuffer;
        }

        @Override
        String expected() {
            return "base64 string";
        }

        @Override
        Object decode(JsonNode node, DecodeContext ctx) {
            if (!node.isTextual()) {
                return ctx.mismatch(expected(), node);
            }
            try {
                return ByteBuffer.wrap(Base64.getDecoder().decode(node.textValue()));
            } catch (IllegalArgumentException e) {
                return ctx.mismatch(expected(), node);
            }
        }

        @Override
        JsonNode encode(Object value) {
            ByteBuffer b = ((ByteBuffer) value).duplicate();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            return TextNode.valueOf(Base64.getEncoder().encodeToString(bytes));
        }
    }
}
