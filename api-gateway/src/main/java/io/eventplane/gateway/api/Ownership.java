package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.fields.FieldSet;
import io.eventplane.gateway.fields.ManagedFields;
import io.eventplane.gateway.fields.ObjectShape;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.KubeStatus.Details;
import io.eventplane.model.ManagedFieldsEntry;
import io.eventplane.model.ObjectMeta;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The shell around {@link ManagedFields} for the handlers: who the manager is, the kind's {@link ObjectShape}, the
 * entries of a typed object, and the 409 of an apply conflict.
 */
final class Ownership {
    private static final Map<KindInfo, ObjectShape> SHAPES = new ConcurrentHashMap<>();
    private static final int MAX_MANAGER_LENGTH = 128;

    private Ownership() {
    }

    static ObjectShape shape(KindInfo kind) {
        return SHAPES.computeIfAbsent(kind, k -> new ObjectShape(SpecificData.get().getSchema(Kinds.wireType(k)), Kinds.renames(k)));
    }

    /** {@code fieldManager}, else the product token of the User-Agent, as kube-apiserver defaults it. */
    static String manager(ApiRequest request, KindInfo kind, String name) {
        String m = request.param("fieldManager");
        if (m == null || m.isEmpty()) {
            return request.userAgentProduct();
        }
        if (m.length() > MAX_MANAGER_LENGTH) {
            throw new ApiException(invalidOptions("fieldManager: Too long: may not be more than 128 bytes"));
        }
        for (int i = 0; i < m.length(); i++) {
            if (Character.isISOControl(m.charAt(i))) {
                throw new ApiException(invalidOptions("fieldManager: Invalid value: \"" + m
                        + "\": must only contain printable characters"));
            }
        }
        return m;
    }

    static KubeStatus invalidOptions(String message) {
        String field = message.substring(0, message.indexOf(':'));
        return new KubeStatus(422, "Invalid", "PatchOptions.meta.k8s.io \"\" is invalid: " + message,
                new Details("", "meta.k8s.io", "PatchOptions", List.of(new Cause("FieldValueInvalid", message, field))));
    }

    static KubeStatus conflict(KindInfo kind, String name, ManagedFields.ConflictException e) {
        List<Cause> causes = new ArrayList<>();
        for (ManagedFields.Conflict c : e.conflicts()) {
            causes.add(new Cause("FieldManagerConflict", ManagedFields.causeMessage(c), ObjectShape.describe(c.path())));
        }
        return new KubeStatus(409, "Conflict", e.getMessage(), new Details(name,
                kind.group().isEmpty() ? null : kind.group(), kind.plural(), causes));
    }

    static List<ManagedFields.Entry> entries(SpecificRecord object) {
        List<ManagedFields.Entry> out = new ArrayList<>();
        ObjectMeta meta = ObjectAccess.meta(object);
        if (meta == null || meta.getManagedFields() == null) {
            return out;
        }
        for (ManagedFieldsEntry e : meta.getManagedFields()) {
            if (e.getManager() == null && e.getFieldsV1() == null) {
                continue;
            }
            JsonNode fields;
            try {
                fields = e.getFieldsV1() == null ? null : Json.MAPPER.readTree(e.getFieldsV1());
            } catch (IOException x) {
                fields = null;
            }
            out.add(new ManagedFields.Entry(nz(e.getManager()), e.getOperation() == null ? ManagedFields.UPDATE
                    : e.getOperation(), nz(e.getApiVersion()), e.getTime() == null ? null : e.getTime().toString(),
                    nz(e.getSubresource()), FieldSet.fromJson(fields)));
        }
        return out;
    }

    static SpecificRecord withEntries(SpecificRecord object, List<ManagedFields.Entry> entries) {
        List<ManagedFieldsEntry> avro = new ArrayList<>();
        for (ManagedFields.Entry e : entries) {
            avro.add(ManagedFieldsEntry.newBuilder().setManager(e.manager()).setOperation(e.operation())
                    .setApiVersion(e.apiVersion()).setTime(e.time() == null ? null : Instant.parse(e.time()))
                    .setFieldsType("FieldsV1").setFieldsV1(e.fields().toJson().toString())
                    .setSubresource(e.subresource().isEmpty() ? null : e.subresource()).build());
        }
        return ObjectAccess.withMeta(object, ObjectMeta.newBuilder(ObjectAccess.meta(object)).setManagedFields(avro)
                .build());
    }

    /**
     * The entries an ordinary write starts from: the stored ones, unless the request set managedFields of its own
     * (different from the stored ones) to reset them, as kube-apiserver allows.
     */
    static List<ManagedFields.Entry> base(SpecificRecord stored, SpecificRecord written) {
        List<ManagedFieldsEntry> given = written == null ? null : ObjectAccess.meta(written).getManagedFields();
        List<ManagedFieldsEntry> current = stored == null ? null : ObjectAccess.meta(stored).getManagedFields();
        if (given != null && !given.equals(current)) {
            return entries(written);
        }
        return stored == null ? List.of() : entries(stored);
    }

    /** {@code after} with the managedFields an Update by this request's manager leaves. */
    static SpecificRecord recordUpdate(ApiRequest request, KindInfo kind, SpecificRecord before, SpecificRecord after,
                                       String subresource, Instant now) {
        ObjectShape shape = shape(kind);
        String name = ObjectAccess.meta(after).getName();
        List<ManagedFields.Entry> base = base(before, after);
        ObjectNode beforeJson = before == null ? null : Json.encodeObject(kind, before);
        ObjectNode afterJson = Json.encodeObject(kind, after);
        List<ManagedFields.Entry> next = ManagedFields.update(shape, beforeJson, afterJson, base,
                manager(request, kind, name), subresource, kind.apiVersion(), now);
        if (before != null && next.equals(entries(before))) {
            return ObjectAccess.withMeta(after, ObjectMeta.newBuilder(ObjectAccess.meta(after))
                    .setManagedFields(ObjectAccess.meta(before).getManagedFields()).build());
        }
        return withEntries(after, next);
    }

    /** The JSON form: writes the entries of an Update into {@code after} (patches work on JSON). */
    static void recordUpdate(ApiRequest request, KindInfo kind, ObjectNode before, ObjectNode after,
                             String subresource, Instant now) {
        List<ManagedFields.Entry> stored = ManagedFields.read(before);
        List<ManagedFields.Entry> given = ManagedFields.read(after);
        List<ManagedFields.Entry> base = after.path("metadata").path("managedFields")
                .equals(before.path("metadata").path("managedFields")) ? stored : given;
        List<ManagedFields.Entry> next = ManagedFields.update(shape(kind), before, after, base,
                manager(request, kind, after.path("metadata").path("name").asText()), subresource, kind.apiVersion(),
                now);
        if (next.equals(stored)) {
            JsonNode m = before.path("metadata").path("managedFields");
            if (after.get("metadata") instanceof ObjectNode meta) {
                if (m.isMissingNode()) {
                    meta.remove("managedFields");
                } else {
                    meta.set("managedFields", m.deepCopy());
                }
            }
            return;
        }
        ManagedFields.write(after, next);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
