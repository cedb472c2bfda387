package io.eventplane.core.meta;

import io.eventplane.model.ObjectMeta;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Kind-agnostic access to stored objects: every kind is an Avro record with a {@code metadata} field, and most have
 * {@code spec} and {@code status}. Objects read from a store are never mutated: {@link #copy} first.
 */
public final class ObjectAccess {
    private ObjectAccess() {
    }

    public static ObjectMeta meta(SpecificRecord object) {
        Object m = ((SpecificRecordBase) object).get("metadata");
        return m == null ? new ObjectMeta() : (ObjectMeta) m;
    }

    /** A new object that shares every field with {@code object} but {@code metadata}. */
    public static <T extends SpecificRecord> T withMeta(T object, ObjectMeta meta) {
        return with(object, "metadata", meta);
    }

    /** Generated records' no-argument constructors, found once per class (null: none, or not a generated record). */
    private static final ClassValue<MethodHandle> CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            if (!SpecificRecordBase.class.isAssignableFrom(type)) {
                return null;
            }
            try {
                return MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class));
            } catch (ReflectiveOperationException | SecurityException e) {
                return null;
            }
        }
    };

    /**
     * A new, empty record of {@code record}'s type. Avro's {@code SpecificData.getForSchema(schema).newRecord} looks
     * the model up by reflection on every call (a tenth of the writer's time on creates); a generated class's
     * constructor is found once.
     */
    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> T empty(T record) {
        Schema schema = record.getSchema();
        MethodHandle constructor = CONSTRUCTORS.get(record.getClass());
        if (constructor != null) {
            T fresh;
            try {
                fresh = (T) constructor.invoke();
            } catch (Throwable t) {
                throw new IllegalStateException("cannot create a " + record.getClass().getName(), t);
            }
            if (fresh.getSchema() == schema) {
                return fresh;
            }
        }
        return (T) SpecificData.getForSchema(schema).newRecord(null, schema);
    }

    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> T copy(T object) {
        Schema schema = object.getSchema();
        return (T) SpecificData.getForSchema(schema).deepCopy(schema, object);
    }

    public static boolean hasField(SpecificRecord object, String field) {
        return object.getSchema().getField(field) != null;
    }

    public static Object field(SpecificRecord object, String field) {
        return hasField(object, field) ? ((SpecificRecordBase) object).get(field) : null;
    }

    /**
     * A new object with {@code field} set to {@code value}, sharing every other field with {@code object}. Sharing is
     * safe because stored objects are never mutated in place; it saves a deep copy of the whole object per change.
     */
    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> T with(T object, String field, Object value) {
        T copy = shallow(object);
        ((SpecificRecordBase) copy).put(field, value);
        return copy;
    }

    /**
     * A new record of the same type sharing every field with {@code record} (a shallow copy): set its fields without
     * touching the original. An Avro builder copied from a record deep-copies every nested field instead.
     */
    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> T shallow(T record) {
        Schema schema = record.getSchema();
        T copy = empty(record);
        for (Schema.Field f : schema.getFields()) {
            copy.put(f.pos(), record.get(f.pos()));
        }
        return copy;
    }

    /**
     * What a status update needs to carry: the object's identity (name, namespace, uid, resourceVersion; managedFields
     * when set; apiVersion and kind where the record has them, which is how a custom object names its kind) and its
     * status, every other optional field left out. The writer takes only these from a status update (the rest comes
     * from the stored object), so the command is a fraction of the object to encode and decode.
     */
    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> T statusOnly(T object) {
        Schema schema = object.getSchema();
        T out = empty(object);
        for (Schema.Field f : schema.getFields()) {
            boolean optional = f.schema().isNullable();
            if (f.name().equals("metadata")) {
                ObjectMeta m = meta(object);
                ObjectMeta identity = new ObjectMeta();
                identity.setName(m.getName());
                identity.setNamespace(m.getNamespace());
                identity.setUid(m.getUid());
                identity.setResourceVersion(m.getResourceVersion());
                identity.setManagedFields(m.getManagedFields());
                out.put(f.pos(), identity);
            } else if (f.name().equals("status") || f.name().equals("apiVersion") || f.name().equals("kind")
                    || !optional) {
                out.put(f.pos(), object.get(f.pos()));
            }
        }
        return out;
    }

    /** Whether two objects are equal in every field but metadata and status: the "spec" that bumps generation. */
    public static boolean sameSpec(SpecificRecord a, SpecificRecord b) {
        for (Schema.Field f : a.getSchema().getFields()) {
            if (f.name().equals("metadata") || f.name().equals("status")) {
                continue;
            }
            if (!Objects.equals(a.get(f.pos()), b.get(f.pos()))) {
                return false;
            }
        }
        return true;
    }
}
