package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.Requests;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomScale;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.patch.PatchApplier;
import io.eventplane.gateway.patch.PatchException;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.KubeStatus.Details;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.Verb;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceSubresourceScale;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * The {@code scale} subresource (autoscaling/v1 Scale) of Deployments, ReplicaSets, StatefulSets and
 * ReplicationControllers: {@code kubectl scale} sends a merge patch, fabric8 a GET and a PUT. A Scale write is an
 * UPDATE of the owning object with only {@code spec.replicas} changed, conditioned on a resourceVersion: the one the
 * Scale names, else the object's current one (then a conflict with a concurrent write is retried on the newer object).
 */
final class ScaleHandler {
    static final Set<KindInfo> SCALABLE = Set.of(Kinds.DEPLOYMENT, Kinds.REPLICA_SET, Kinds.STATEFUL_SET,
            Kinds.REPLICATION_CONTROLLER);
    private static final int ATTEMPTS = 5;
    private static final Set<String> SCALE_FIELDS = Set.of("apiVersion", "kind", "metadata", "spec", "status");
    private final Backend backend;
    private final Submitter submitter;

    ScaleHandler(Backend backend, Submitter submitter) {
        this.backend = backend;
        this.submitter = submitter;
    }

    static boolean scalable(KindInfo kind) {
        return SCALABLE.contains(kind) || CustomScale.of(kind).isPresent();
    }

    ApiResponse get(ResourcePath path) {
        return ApiResponse.json(200, scale(path.kind(), ReadHandler.current(backend.view(), path)));
    }

    ApiResponse put(ApiRequest request, ResourcePath path) {
        JsonNode body = PatchHandler.parseJson(request.body());
        return write(request, path, current -> body);
    }

    ApiResponse patch(ApiRequest request, ResourcePath path) {
        PatchApplier.Type type = PatchApplier.Type.of(request.contentType());
        if (type == null) {
            throw new ApiException(Statuses.unsupportedMediaType(request.contentType(), List.of(
                    PatchApplier.Type.JSON.contentType(), PatchApplier.Type.MERGE.contentType(),
                    PatchApplier.Type.STRATEGIC.contentType())));
        }
        JsonNode patch = PatchHandler.parseJson(request.body());
        return write(request, path, current -> {
            try {
                return PatchApplier.apply(type, current, patch);
            } catch (PatchException e) {
                throw new ApiException(invalid(path.name(), List.of(new Cause("FieldValueInvalid",
                        "patch: Invalid value: " + e.getMessage(), "patch"))));
            }
        });
    }

    private interface DesiredScale {
        JsonNode from(ObjectNode currentScale);
    }

    private ApiResponse write(ApiRequest request, ResourcePath path, DesiredScale desired) {
        KindInfo kind = path.kind();
        for (int attempt = 1; ; attempt++) {
            SpecificRecord current = ReadHandler.current(backend.view(), path);
            ObjectNode currentScale = scale(kind, current);
            String currentRv = currentScale.path("metadata").path("resourceVersion").asText();
            JsonNode wanted = desired.from(currentScale.deepCopy());
            int replicas = replicas(request, path, wanted);
            String rv = wanted.path("metadata").path("resourceVersion").asText("");
            boolean pinned = !rv.isEmpty() && !rv.equals(currentRv);
            ObjectMeta meta = ObjectMeta.newBuilder(ObjectAccess.meta(current))
                    .setResourceVersion(rv.isEmpty() ? currentRv : rv).build();
            SpecificRecord scaled;
            Optional<CustomResourceSubresourceScale> custom = CustomScale.of(kind);
            if (custom.isPresent()) {
                scaled = ObjectAccess.withMeta(CustomScale.scaled(custom.get(), (CustomObject) current, replicas), meta);
            } else {
                SpecificRecord spec = (SpecificRecord) ObjectAccess.field(current, "spec");
                scaled = ObjectAccess.withMeta(
                        ObjectAccess.with(current, "spec", ObjectAccess.with(spec, "replicas", replicas)), meta);
            }
            scaled = Ownership.recordUpdate(request, kind, current, scaled, "scale", backend.clock().instant());
            try {
                Requests.Result r = submitter.forRequest(request).put(Verb.UPDATE, kind, path.storedNamespace(),
                        path.name(), scaled);
                return ApiResponse.json(200, scale(kind, (SpecificRecord) r.object().getObject()));
            } catch (ApiException e) {
                boolean conflict = e.status().code() == 409 && "Conflict".equals(e.status().reason());
                if (!conflict || pinned || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** The desired replicas of a Scale body: its name and type checked, {@code spec.replicas} a non-negative int32. */
    private static int replicas(ApiRequest request, ResourcePath path, JsonNode scale) {
        if (!scale.isObject()) {
            throw new ApiException(Statuses.badRequest("a Scale must be a JSON object"));
        }
        String kind = scale.path("kind").asText("Scale");
        String apiVersion = scale.path("apiVersion").asText("autoscaling/v1");
        if (!kind.equals("Scale") || !apiVersion.equals("autoscaling/v1")) {
            throw new ApiException(Statuses.badRequest("the body is a " + apiVersion + " " + kind
                    + ", expected an autoscaling/v1 Scale"));
        }
        String name = scale.path("metadata").path("name").asText("");
        if (!name.isEmpty() && !name.equals(path.name())) {
            throw new ApiException(Statuses.badRequest("the name of the object (" + name
                    + ") does not match the name on the URL (" + path.name() + ")"));
        }
        if ("strict".equalsIgnoreCase(request.param("fieldValidation"))) {
            scale.fieldNames().forEachRemaining(f -> {
                if (!SCALE_FIELDS.contains(f)) {
                    throw new ApiException(Statuses.badRequest("strict decoding error: unknown field \"" + f + "\""));
                }
            });
            scale.path("spec").fieldNames().forEachRemaining(f -> {
                if (!f.equals("replicas")) {
                    throw new ApiException(Statuses.badRequest("strict decoding error: unknown field \"spec." + f + "\""));
                }
            });
        }
        JsonNode r = scale.path("spec").path("replicas");
        if (r.isMissingNode() || r.isNull()) {
            return 0; // omitempty: a Scale without replicas asks for 0, as on Kubernetes
        }
        if (!r.canConvertToInt() || !r.isIntegralNumber()) {
            throw new ApiException(Statuses.badRequest("Scale in version \"v1\" cannot be handled as a Scale: "
                    + "spec.replicas: expected integer (int32), got " + r.getNodeType().toString().toLowerCase()));
        }
        int replicas = r.intValue();
        if (replicas < 0) {
            throw new ApiException(invalid(path.name(), List.of(new Cause("FieldValueInvalid",
                    "spec.replicas: Invalid value: " + replicas + ": must be greater than or equal to 0", "spec.replicas"))));
        }
        return replicas;
    }

    /** The autoscaling/v1 Scale of a scalable object, as kube-apiserver derives it. */
    static ObjectNode scale(KindInfo kind, SpecificRecord object) {
        ObjectNode out = Json.object();
        out.put("kind", "Scale");
        out.put("apiVersion", "autoscaling/v1");
        ObjectNode meta = KubeJson.get().encode(ObjectAccess.meta(object));
        ObjectNode m = out.putObject("metadata");
        for (String f : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
            if (meta.has(f)) {
                m.set(f, meta.get(f));
            }
        }
        Optional<CustomResourceSubresourceScale> custom = CustomScale.of(kind);
        if (custom.isPresent()) {
            CustomScale.fill(custom.get(), (CustomObject) object, out.putObject("spec"), out.putObject("status"));
            return out;
        }
        SpecificRecord spec = (SpecificRecord) ObjectAccess.field(object, "spec");
        SpecificRecord status = (SpecificRecord) ObjectAccess.field(object, "status");
        Integer desired = spec == null ? null : (Integer) ObjectAccess.field(spec, "replicas");
        ObjectNode specNode = out.putObject("spec");
        if (desired != null && desired != 0) {
            specNode.put("replicas", desired); // omitempty in autoscaling/v1
        }
        Integer actual = status == null ? null : (Integer) ObjectAccess.field(status, "replicas");
        ObjectNode statusNode = out.putObject("status");
        statusNode.put("replicas", actual == null ? 0 : actual);
        String selector = selector(spec == null ? null : ObjectAccess.field(spec, "selector"));
        if (!selector.isEmpty()) {
            statusNode.put("selector", selector);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String selector(Object selector) {
        if (selector instanceof LabelSelector s) {
            return LabelSelectors.toString(s);
        }
        if (selector instanceof Map<?, ?> m) {
            return LabelSelectors.toString((Map<String, String>) m);
        }
        return "";
    }

    private static KubeStatus invalid(String name, List<Cause> causes) {
        StringBuilder sb = new StringBuilder("Scale.autoscaling \"").append(name).append("\" is invalid: ");
        sb.append(causes.size() == 1 ? causes.get(0).message()
                : "[" + String.join(", ", causes.stream().map(Cause::message).toList()) + "]");
        return new KubeStatus(422, "Invalid", sb.toString(), new Details(name, "autoscaling", "Scale", causes));
    }
}
