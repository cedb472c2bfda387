package io.eventplane.gateway.api;

import io.eventplane.core.decide.ObjectDecider;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.Requests;
import io.eventplane.core.codec.DecodeException;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.gateway.fields.ManagedFields;
import io.eventplane.gateway.patch.PatchApplier;
import io.eventplane.gateway.patch.PatchException;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.Verb;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * PATCH of an object or its status: the patch is applied to the object's JSON as the view holds it, and the result
 * is submitted as an update conditioned on that object's resourceVersion. A conflict (someone wrote in between) is
 * retried on the newer object, as kube-apiserver does, unless the patch itself named a resourceVersion.
 */
final class PatchHandler {
    private static final int ATTEMPTS = 5;
    private static final List<String> PATCH_TYPES = List.of(PatchApplier.Type.JSON.contentType(),
            PatchApplier.Type.MERGE.contentType(), PatchApplier.Type.STRATEGIC.contentType(),
            "application/apply-patch+yaml");
    private static final String APPLY_YAML = "application/apply-patch+yaml";
    private final Backend backend;
    private final Submitter submitter;
    private final WriteHandler writes;

    PatchHandler(Backend backend, Submitter submitter, WriteHandler writes) {
        this.backend = backend;
        this.submitter = submitter;
        this.writes = writes;
    }

    ApiResponse patch(ApiRequest request, ResourcePath path, boolean status) {
        KindInfo kind = path.kind();
        if (status && !kind.hasStatus()) {
            throw new ApiException(Statuses.noSuchResource());
        }
        if (APPLY_YAML.equals(request.contentType())) {
            return apply(request, path, status);
        }
        PatchApplier.Type type = patchType(request.contentType());
        if (type == PatchApplier.Type.STRATEGIC && kind.type() == CustomObject.class) {
            // Custom kinds have no patch strategies: kube-apiserver refuses strategic merge for them.
            throw new ApiException(Statuses.unsupportedMediaType(request.contentType(), List.of(
                    PatchApplier.Type.JSON.contentType(), PatchApplier.Type.MERGE.contentType(), APPLY_YAML)));
        }
        if (request.param("force") != null) {
            throw new ApiException(Ownership.invalidOptions("force: Forbidden: may not be specified for non-apply patch"));
        }
        JsonNode patch = parseJson(request.body());
        FieldValidation mode = BodyDecoder.mode(request);
        for (int attempt = 1; ; attempt++) {
            ObjectNode current = Json.encodeObject(kind, ReadHandler.current(backend.view(), path));
            String currentRv = current.path("metadata").path("resourceVersion").asText("");
            JsonNode patched;
            try {
                patched = PatchApplier.apply(type, current.deepCopy(), patch, schema(kind));
            } catch (PatchException e) {
                throw new ApiException(Statuses.invalid(kind, path.name(),
                        List.of(new Cause("FieldValueInvalid", "patch: Invalid value: " + e.getMessage(), "patch"))));
            }
            if (!patched.isObject()) {
                throw new ApiException(Statuses.badRequest("the patched object is not a JSON object"));
            }
            checkTypeMeta(kind, (ObjectNode) patched);
            ObjectNode meta = metadata((ObjectNode) patched);
            String rv = meta.path("resourceVersion").asText("");
            boolean pinned = !rv.isEmpty() && !rv.equals(currentRv);
            if (rv.isEmpty()) {
                meta.put("resourceVersion", currentRv);
            }
            Ownership.recordUpdate(request, kind, current, (ObjectNode) patched, status ? "status" : "",
                    backend.clock().instant());
            BodyDecoder.Body<SpecificRecord> body = BodyDecoder.tree(patched, kind, mode);
            boolean ephemeral = ObjectDecider.EPHEMERAL_CONTAINERS.equals(path.subresource());
            SpecificRecord object = status || ephemeral ? body.object() : writes.admitUpdate(request, kind,
                    path.storedNamespace(), path.name(), ReadHandler.current(backend.view(), path), body.object());
            try {
                Requests.Result r = ephemeral
                        ? submitter.forRequest(request).ephemeralContainers(kind, path.storedNamespace(), path.name(),
                                object)
                        : submitter.forRequest(request).put(status ? Verb.UPDATE_STATUS : Verb.UPDATE, kind,
                                path.storedNamespace(), path.name(), object);
                return ApiResponse.json(200, Json.encodeObject(kind, (SpecificRecord) r.object().getObject()))
                        .withWarnings(body.warnings());
            } catch (ApiException e) {
                boolean conflict = e.status().code() == 409 && "Conflict".equals(e.status().reason());
                if (!conflict || pinned || attempt >= ATTEMPTS) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    /**
     * Server-side apply ({@code application/apply-patch+yaml}, JSON or YAML): the configuration is merged into the
     * object with field ownership ({@link io.eventplane.gateway.fields.ManagedFields}); an apply to an object that does
     * not exist creates it. Conflicts answer 409 unless {@code force=true}.
     */
    private ApiResponse apply(ApiRequest request, ResourcePath path, boolean status) {
        KindInfo kind = path.kind();
        String manager = request.param("fieldManager");
        if (manager == null || manager.isEmpty()) {
            throw new ApiException(Ownership.invalidOptions("fieldManager: Required value: is required for apply patch"));
        }
        manager = Ownership.manager(request, kind, path.name());
        boolean force = request.flag("force");
        if (request.body().length == 0) {
            throw new ApiException(Statuses.badRequest("the request body is empty"));
        }
        JsonNode config;
        try {
            config = KubeJson.parseTree(request.body());
        } catch (DecodeException e) {
            throw new ApiException(Statuses.badRequest("error decoding YAML: " + e.getMessage()));
        }
        if (!config.isObject()) {
            throw new ApiException(Statuses.badRequest("the applied configuration must be an object"));
        }
        ObjectNode applied = (ObjectNode) config;
        if (applied.path("kind").asText("").isEmpty() || applied.path("apiVersion").asText("").isEmpty()) {
            throw new ApiException(Statuses.badRequest("invalid object: apiVersion and kind must be set in an applied "
                    + "configuration"));
        }
        checkTypeMeta(kind, applied);
        ObjectNode appliedMeta = metadata(applied);
        String name = appliedMeta.path("name").asText("");
        if (!name.isEmpty() && !name.equals(path.name())) {
            throw new ApiException(Statuses.badRequest("the name of the object (" + name
                    + ") does not match the name on the URL (" + path.name() + ")"));
        }
        String ns = appliedMeta.path("namespace").asText("");
        if (kind.namespaced() && !ns.isEmpty() && !ns.equals(path.namespace())) {
            throw new ApiException(Statuses.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request"));
        }
        FieldValidation mode = BodyDecoder.mode(request);
        List<String> warnings = BodyDecoder.tree(applied, kind, mode).warnings(); // unknown fields, types
        String subresource = status ? "status" : "";
        for (int attempt = 1; ; attempt++) {
            var stored = backend.view().get(io.eventplane.core.Keys.of(kind.kind(), path.storedNamespace(), path.name()));
            ObjectNode live = stored.map(o -> Json.encodeObject(kind, (SpecificRecord) o.getObject())).orElse(null);
            if (live == null && status) {
                throw new ApiException(Statuses.notFound(kind, path.name()));
            }
            ManagedFields.Applied result;
            try {
                result = ManagedFields.apply(Ownership.shape(kind), live, applied,
                        live == null ? List.of() : ManagedFields.read(live), manager, subresource, kind.apiVersion(),
                        force, backend.clock().instant());
            } catch (ManagedFields.ConflictException e) {
                throw new ApiException(Ownership.conflict(kind, path.name(), e));
            }
            ObjectNode merged = result.object();
            ManagedFields.write(merged, result.entries());
            ObjectNode meta = metadata(merged);
            meta.put("name", path.name());
            if (kind.namespaced()) {
                meta.put("namespace", path.namespace());
            }
            if (live != null) {
                meta.put("resourceVersion", live.path("metadata").path("resourceVersion").asText());
            }
            BodyDecoder.Body<SpecificRecord> body = BodyDecoder.tree(merged, kind, FieldValidation.IGNORE);
            int code = live == null ? 201 : 200;
            SpecificRecord object = body.object();
            if (live == null) {
                object = writes.admitCreate(request, kind, path.storedNamespace(), path.name(), object);
            } else if (!status) {
                object = writes.admitUpdate(request, kind, path.storedNamespace(), path.name(),
                        (SpecificRecord) stored.get().getObject(), object);
            }
            try {
                Verb verb = live == null ? Verb.CREATE : status ? Verb.UPDATE_STATUS : Verb.UPDATE;
                Requests.Result r = submitter.forRequest(request).put(verb, kind, path.storedNamespace(), path.name(),
                        object);
                return ApiResponse.json(code, Json.encodeObject(kind, (SpecificRecord) r.object().getObject()))
                        .withWarnings(warnings);
            } catch (ApiException e) {
                // Someone wrote in between (or created the object first): apply again on the newer object.
                boolean raced = e.status().code() == 409 && ("Conflict".equals(e.status().reason())
                        || "AlreadyExists".equals(e.status().reason()));
                if (!raced || attempt >= ATTEMPTS) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    /**
     * The served kind's schema for a strategic merge patch (another version's own); an alias's renamed fields leave it
     * to field names.
     */
    private static Schema schema(KindInfo kind) {
        return Kinds.renames(kind).isPresent() ? null : SpecificData.get().getSchema(Kinds.wireType(kind));
    }

    private static PatchApplier.Type patchType(String contentType) {
        PatchApplier.Type type = PatchApplier.Type.of(contentType);
        if (type == null) {
            throw new ApiException(Statuses.unsupportedMediaType(contentType, PATCH_TYPES));
        }
        return type;
    }

    private static void checkTypeMeta(KindInfo kind, ObjectNode patched) {
        if (!patched.path("kind").asText(kind.objectKind()).equals(kind.objectKind())
                || !patched.path("apiVersion").asText(kind.apiVersion()).equals(kind.apiVersion())) {
            throw new ApiException(Statuses.badRequest("the patch changes the object's apiVersion or kind: "
                    + patched.path("apiVersion").asText() + "/" + patched.path("kind").asText()));
        }
    }

    private static ObjectNode metadata(ObjectNode object) {
        JsonNode meta = object.get("metadata");
        if (meta == null || !meta.isObject()) {
            return object.putObject("metadata");
        }
        return (ObjectNode) meta;
    }

    /** A short wait before retrying on a newer object, so the view can catch up with the write that conflicted. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(20L * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(Statuses.timeout());
        }
    }

    /** A JSON body (patch, DeleteOptions, Binding); 400 when it does not parse. */
    static JsonNode parseJson(byte[] body) {
        if (body.length == 0) {
            throw new ApiException(Statuses.badRequest("the request body is empty"));
        }
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            if (n == null || n.isMissingNode()) {
                throw new ApiException(Statuses.badRequest("the request body is empty"));
            }
            return n;
        } catch (IOException e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage().split("\n", 2)[0];
            throw new ApiException(Statuses.badRequest("error decoding the request body as JSON: " + m));
        }
    }
}
