package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.Requests;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.api.KubeStatus.Cause;
import io.eventplane.gateway.patch.PatchApplier;
import io.eventplane.gateway.patch.PatchException;
import io.eventplane.log.Verb;
import java.io.IOException;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * PATCH of an object or its status: the patch is applied to the object's JSON as the view holds it, and the result
 * is submitted as an update conditioned on that object's resourceVersion. A conflict (someone wrote in between) is
 * retried on the newer object, as kube-apiserver does, unless the patch itself named a resourceVersion.
 */
final class PatchHandler {
    private static final int ATTEMPTS = 5;
    private static final List<String> PATCH_TYPES = List.of(PatchApplier.Type.JSON.contentType(),
            PatchApplier.Type.MERGE.contentType(), PatchApplier.Type.STRATEGIC.contentType());
    private final Backend backend;
    private final Submitter submitter;

    PatchHandler(Backend backend, Submitter submitter) {
        this.backend = backend;
        this.submitter = submitter;
    }

    ApiResponse patch(ApiRequest request, ResourcePath path, boolean status) {
        KindInfo kind = path.kind();
        if (status && !kind.hasStatus()) {
            throw new ApiException(Statuses.noSuchResource());
        }
        PatchApplier.Type type = patchType(request.contentType());
        JsonNode patch = parseJson(request.body());
        FieldValidation mode = BodyDecoder.mode(request);
        boolean dryRun = DryRun.requested(request);
        for (int attempt = 1; ; attempt++) {
            ObjectNode current = Json.encodeObject(kind, ReadHandler.current(backend.view(), path));
            String currentRv = current.path("metadata").path("resourceVersion").asText("");
            JsonNode patched;
            try {
                patched = PatchApplier.apply(type, current, patch);
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
            BodyDecoder.Body<SpecificRecord> body = BodyDecoder.tree(patched, kind, mode);
            if (dryRun) {
                return ApiResponse.json(200, Json.encodeObject(kind, body.object())).withWarnings(body.warnings());
            }
            try {
                Requests.Result r = submitter.forRequest(request).put(status ? Verb.UPDATE_STATUS : Verb.UPDATE, kind,
                        path.storedNamespace(), path.name(), body.object());
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

    private static PatchApplier.Type patchType(String contentType) {
        if ("application/apply-patch+yaml".equals(contentType) || "application/apply-patch+cbor".equals(contentType)) {
            throw new ApiException(Statuses.unsupportedMediaType(contentType + " (server-side apply is not supported "
                    + "yet; use client-side kubectl apply)", PATCH_TYPES));
        }
        PatchApplier.Type type = PatchApplier.Type.of(contentType);
        if (type == null) {
            throw new ApiException(Statuses.unsupportedMediaType(contentType, PATCH_TYPES));
        }
        return type;
    }

    private static void checkTypeMeta(KindInfo kind, ObjectNode patched) {
        if (!patched.path("kind").asText(kind.kind()).equals(kind.kind())
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
