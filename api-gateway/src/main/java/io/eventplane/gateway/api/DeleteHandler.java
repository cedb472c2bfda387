package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.Requests;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.client.admission.AdmissionRequest;
import io.eventplane.gateway.admission.Admission;
import io.eventplane.gateway.select.Selection;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * DELETE of one object (DeleteOptions from the body or the query) and of a collection. Answers 200 with the object:
 * still there and terminating (grace period, finalizers), or as it was when it went away.
 */
final class DeleteHandler {
    private final Backend backend;
    private final Submitter submitter;
    private final Admission admission;

    DeleteHandler(Backend backend, Submitter submitter, Admission admission) {
        this.backend = backend;
        this.submitter = submitter;
        this.admission = admission;
    }

    private record Options(Preconditions preconditions, DeleteOptions delete) {
    }

    ApiResponse delete(ApiRequest request, ResourcePath path) {
        Options options = options(request);
        admission.delete(new AdmissionRequest(AdmissionRequest.Operation.DELETE, path.kind(), path.storedNamespace(),
                path.name(), null, DryRun.requested(request)));
        if (DryRun.requested(request)) {
            return ApiResponse.json(200, Json.encodeObject(path.kind(), ReadHandler.current(backend.view(), path)));
        }
        Requests.Result r = submitter.forRequest(request).delete(path.kind(), path.storedNamespace(), path.name(),
                options.preconditions(), options.delete());
        return ApiResponse.json(200, Json.encodeObject(path.kind(), (SpecificRecord) r.object().getObject()));
    }

    /** deletecollection: every object the selectors match, one command each; answers the list as deleted. */
    ApiResponse deleteCollection(ApiRequest request, ResourcePath path) {
        KindInfo kind = path.kind();
        Options options = options(request);
        Selection selection = request.selection(path);
        boolean dryRun = DryRun.requested(request);
        List<SpecificRecord> deleted = new ArrayList<>();
        for (ObjectChanged c : backend.view().snapshot(kind.kind(), selection.viewNamespace(), selection::matches).items()) {
            admission.delete(new AdmissionRequest(AdmissionRequest.Operation.DELETE, kind, c.getNamespace(), c.getName(), null,
                    dryRun));
            if (dryRun) {
                deleted.add((SpecificRecord) c.getObject());
                continue;
            }
            try {
                Requests.Result r = submitter.forRequest(request).delete(kind, c.getNamespace(), c.getName(),
                        options.preconditions(), options.delete());
                deleted.add((SpecificRecord) r.object().getObject());
            } catch (ApiException e) {
                if (e.status().code() != 404) {
                    throw e;
                }
            }
        }
        var list = Json.object();
        list.put("kind", kind.objectKind() + "List");
        list.put("apiVersion", kind.apiVersion());
        list.putObject("metadata");
        var items = list.putArray("items");
        deleted.forEach(o -> items.add(Json.encodeItem(kind, o)));
        return ApiResponse.json(200, list);
    }

    /** DeleteOptions from the body (kubectl, fabric8) or the query (gracePeriodSeconds, propagationPolicy). */
    private static Options options(ApiRequest request) {
        byte[] raw = request.body();
        JsonNode body = raw.length == 0 ? Json.object()
                : ProtobufBodies.CONTENT_TYPE.equals(request.contentType()) ? ProtobufBodies.decodeDeleteOptions(raw)
                : PatchHandler.parseJson(raw);
        if (!body.isObject()) {
            throw new ApiException(Statuses.badRequest("DeleteOptions must be a JSON object"));
        }
        Long grace = body.hasNonNull("gracePeriodSeconds") ? Long.valueOf(body.get("gracePeriodSeconds").asLong())
                : longParam(request, "gracePeriodSeconds");
        String policy = body.hasNonNull("propagationPolicy") ? body.get("propagationPolicy").asText()
                : request.param("propagationPolicy");
        String orphan = body.hasNonNull("orphanDependents") ? body.get("orphanDependents").asText()
                : request.param("orphanDependents");
        if (policy == null && orphan != null) {
            policy = Boolean.parseBoolean(orphan) ? "Orphan" : "Background";
        }
        JsonNode pre = body.path("preconditions");
        Preconditions preconditions = Preconditions.newBuilder()
                .setUid(pre.hasNonNull("uid") ? pre.get("uid").asText() : null)
                .setResourceVersion(pre.hasNonNull("resourceVersion") ? pre.get("resourceVersion").asText() : null)
                .build();
        return new Options(preconditions, DeleteOptions.newBuilder().setGracePeriodSeconds(grace)
                .setPropagationPolicy(policy).build());
    }

    private static Long longParam(ApiRequest request, String name) {
        String v = request.param(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ApiException(Statuses.badRequest("invalid " + name + " \"" + v + "\""));
        }
    }
}
